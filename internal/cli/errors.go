package cli

import (
	"errors"
	"fmt"
	"io"
)

// usageError marks an error in how a command was called; it exits with 2
// and, when usage is set, is followed by the command's usage.
type usageError struct {
	err   error
	usage func(io.Writer)
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef builds a usageError.
func usagef(format string, args ...any) error {
	return usageError{err: fmt.Errorf(format, args...)}
}

// helpRequest is returned by a command asked for -h; its usage goes to
// stdout and the exit code is 0.
type helpRequest struct{ usage func(io.Writer) }

func (helpRequest) Error() string { return "help requested" }

// report writes err to stderr as the command line shows it and returns the
// exit code: 0 after help, 2 after a usage error, 1 otherwise.
func report(err error, stdout, stderr io.Writer) int {
	var (
		hr helpRequest
		ue usageError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &hr):
		hr.usage(stdout)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "quire: %v\n", err)
		if ue.usage != nil {
			ue.usage(stderr)
		}
		return 2
	}
	fmt.Fprintf(stderr, "quire: %v\n", err)
	return 1
}
