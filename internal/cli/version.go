package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// buildInfo describes the running binary.
type buildInfo struct {
	// Version is the module version, "devel" for a build from a work tree.
	Version string
	// Build is the VCS revision, with "-dirty" for uncommitted changes, or
	// "unknown".
	Build string
}

// readBuildInfo reads the version and revision the Go toolchain stamped
// into the binary.
func readBuildInfo() buildInfo {
	b := buildInfo{Version: "devel", Build: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "-dirty"
		}
		b.Build = rev
	}
	return b
}

// runVersion prints the version line.
func runVersion(args []string, stdout io.Writer) error {
	if err := parseFlags(newFlagSet("version"), "quire version", args); err != nil {
		return err
	}
	b := readBuildInfo()
	_, err := fmt.Fprintf(stdout, "quire %s (build %s, %s)\n", b.Version, b.Build, runtime.Version())
	return err
}
