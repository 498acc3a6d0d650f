package gitbook

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error Read returns for input it cannot
// import: malformed configuration, paths leaving their root, a table of
// contents nested too deep, a page body the document model refuses.
var ErrInvalid = errors.New("invalid repository content")

// FileError is an error in one file of the repository.
type FileError struct {
	// Path is the file, relative to the project directory.
	Path string
	// Msg says what is wrong.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns "path: message".
func (e *FileError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap returns ErrInvalid and the underlying error.
func (e *FileError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalid, e.Err}
	}
	return []error{ErrInvalid}
}

// fileErr builds a FileError.
func fileErr(path, format string, args ...any) *FileError {
	return &FileError{Path: path, Msg: fmt.Sprintf(format, args...)}
}
