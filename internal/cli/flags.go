package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// envDefault returns the value of the environment variable key, or def
// when it is unset or empty. It is used as a flag's default so that a flag
// on the command line wins over the environment, which wins over def.
func envDefault(getenv func(string) string, key, def string) string {
	if v := strings.TrimSpace(getenv(key)); v != "" {
		return v
	}
	return def
}

// envInt64 is envDefault for integers.
func envInt64(getenv func(string) string, key string, def int64) (int64, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, usagef("%s: %q is not an integer", key, v)
	}
	return n, nil
}

// envBool is envDefault for booleans (1, true, 0, false and the like).
func envBool(getenv func(string) string, key string, def bool) (bool, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, usagef("%s: %q is not a boolean", key, v)
	}
	return b, nil
}

// newFlagSet returns a FlagSet that reports errors instead of exiting and
// prints nothing by itself.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs and rejects positional arguments. -h
// returns a helpRequest and any other failure a usageError, both printing
// synopsis and the flags of fs.
func parseFlags(fs *flag.FlagSet, synopsis string, args []string) error {
	usage := func(w io.Writer) { printUsage(w, synopsis, fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return helpRequest{usage}
		}
		return usageError{err: err, usage: usage}
	}
	if fs.NArg() > 0 {
		return usageError{err: fmt.Errorf("unexpected argument %q", fs.Arg(0)), usage: usage}
	}
	return nil
}

// printUsage writes the usage of one command: its synopsis then its flags.
func printUsage(w io.Writer, synopsis string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n", synopsis)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// required returns a usage error naming the first empty flag of fs among
// names.
func required(fs *flag.FlagSet, synopsis string, names ...string) error {
	for _, name := range names {
		if f := fs.Lookup(name); f != nil && strings.TrimSpace(f.Value.String()) == "" {
			return usageError{
				err:   fmt.Errorf("--%s is required", name),
				usage: func(w io.Writer) { printUsage(w, synopsis, fs) },
			}
		}
	}
	return nil
}
