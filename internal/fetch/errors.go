package fetch

import (
	"errors"
	"fmt"
)

// Error is a fetch that failed. Its message names only the URL (and the
// HTTP status when the server answered with something else than 200):
// whether an address was refused, a port closed or a name unknown is not
// told, so a caller cannot map the network behind the server.
type Error struct {
	// URL is the URL as given, its password hidden.
	URL string
	// Status is the HTTP status the server answered, or empty.
	Status string
	// Code is the HTTP status code the server answered, or 0, so
	// that a caller can tell a busy server from a refusal.
	Code int
	// Timeout is true when the fetch ran out of time (the client's or the
	// caller's); the message does not say so.
	Timeout bool
}

// Error implements error.
func (e *Error) Error() string {
	if e.Status != "" {
		return fmt.Sprintf("could not fetch %s: the server answered %s", e.URL, e.Status)
	}
	return "could not fetch " + e.URL
}

// ErrTooLarge is wrapped by a *TooLargeError.
var ErrTooLarge = errors.New("fetch: body too large")

// TooLargeError is a body longer than the client's cap.
type TooLargeError struct {
	// Max is the cap, in bytes.
	Max int64
}

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the file is larger than %d bytes", e.Max)
}

// Unwrap returns ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }
