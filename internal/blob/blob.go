// Package blob keeps the uploaded files of spaces as immutable,
// content-addressed blobs, either in a directory on local disk or in an
// S3-compatible bucket shared by several replicas.
//
// A blob is addressed by the lowercase hex SHA-256 of its bytes and carries
// no other data: content type, file name and the like belong to the caller's
// own metadata.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Store keeps immutable blobs addressed by their SHA-256 (hex).
type Store interface {
	// Put stores data read from r (at most max bytes; more is an error of
	// type *TooLargeError; a negative max means no limit) and returns its
	// key (hex SHA-256) and size. Storing the same bytes twice is a no-op
	// returning the same key.
	Put(ctx context.Context, r io.Reader, max int64) (key string, size int64, err error)
	// Open returns a reader of the blob and its size; ErrNotFound when absent.
	Open(ctx context.Context, key string) (io.ReadCloser, int64, error)
	// Exists reports whether a blob is stored.
	Exists(ctx context.Context, key string) (bool, error)
	// List calls fn with the key and size of every blob stored, in the
	// order of their keys, and stops at fn's first error, returning it.
	// Uploads still in progress are not blobs yet and are not listed.
	List(ctx context.Context, fn func(key string, size int64) error) error
	// Close releases the store.
	Close() error
}

// ErrNotFound is returned by Store.Open when no blob has the given key.
var ErrNotFound = errors.New("blob: not found")

// ErrInvalidKey is returned (wrapped) when a key is not 64 lowercase hex
// characters.
var ErrInvalidKey = errors.New("blob: invalid key")

// TooLargeError is returned by Store.Put when the data exceeds the limit.
type TooLargeError struct {
	// Max is the limit, in bytes, that the data exceeded.
	Max int64
}

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("blob: data exceeds %d bytes", e.Max)
}

// KeySize is the length of a key: a hex-encoded SHA-256.
const KeySize = 64

// ValidKey reports whether key is 64 lowercase hex characters.
func ValidKey(key string) bool {
	if len(key) != KeySize {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// checkKey returns an error wrapping ErrInvalidKey when key is not valid.
func checkKey(key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	return nil
}

// blobPrefix is the bucket prefix under which every blob is kept.
const blobPrefix = "sha256/"

// objectKey is the bucket key under which the blob with the given (valid)
// key is kept.
func objectKey(key string) string {
	return blobPrefix + key[:2] + "/" + key
}
