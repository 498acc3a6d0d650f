package quire

import (
	"errors"
	"fmt"
)

// Error codes understood by every layer. The HTTP adapter maps each code to
// one status; stores and services return them and nothing else for
// conditions a caller can act on.
const (
	EINVALID      = "invalid"      // input is malformed or breaks a rule (400)
	EUNAUTHORIZED = "unauthorized" // no or bad credentials (401)
	EFORBIDDEN    = "forbidden"    // authenticated but role too low (403)
	ENOTFOUND     = "not_found"    // missing, or not visible to the caller (404)
	ECONFLICT     = "conflict"     // the operation would change nothing, or races (409)
	EPRECONDITION = "precondition" // the target cannot take the operation (412)
	ETOOLARGE     = "too_large"    // request body over the limit (413)
	EUNAVAILABLE  = "unavailable"  // the server was not set up for the operation (503)
	ETOOMANY      = "too_many"     // too many attempts: wait before trying again (429)
	EINTERNAL     = "internal"     // anything else (500)
)

// Error is the domain error: a machine code, a message safe to show to
// clients, and optionally the field the message is about.
type Error struct {
	Code    string
	Field   string
	Message string
	Err     error // wrapped cause, for logs only
}

// Error implements the error interface.
func (e *Error) Error() string {
	msg := e.Message
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid builds an EINVALID error about one field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
}

// NotFound builds an ENOTFOUND error naming what was not found.
func NotFound(what string) *Error {
	return &Error{Code: ENOTFOUND, Message: what + " not found"}
}

// ErrorCode returns the code of err, or EINTERNAL for foreign errors and
// "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err. Foreign errors never
// leak their text.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		if e.Field != "" {
			return e.Field + ": " + e.Message
		}
		return e.Message
	}
	return "internal error"
}

// stale is the cause carried by a Stale error.
type stale struct{}

// Error implements the error interface.
func (stale) Error() string { return "lost a compare-and-swap" }

// Stale builds the ECONFLICT error of a compare-and-swap that found its
// record changed by another writer: someone else made progress, and the
// operation, run again from a fresh read, can succeed.
func Stale(format string, args ...any) *Error {
	return &Error{Code: ECONFLICT, Message: fmt.Sprintf(format, args...), Err: stale{}}
}

// IsStale reports whether err is a lost compare-and-swap (see Stale).
func IsStale(err error) bool { return errors.As(err, new(stale)) }

// IsNotFound reports whether err carries ENOTFOUND.
func IsNotFound(err error) bool { return ErrorCode(err) == ENOTFOUND }
