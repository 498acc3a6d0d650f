//go:build !linux

package jsruntime

import "os"

// confine, outside Linux, only asks the collector to keep the child
// within the memory limit: the watchdog stops a run whose live heap
// grows past it, but a single allocation can still outrun it.
func confine(lim limits) error {
	softLimit(lim)
	return nil
}

// killedByKernel is false outside Linux, where no limit of confine
// kills.
func killedByKernel(*os.ProcessState) bool { return false }

// closeInherited does nothing outside Linux.
func closeInherited() {}

// inheritedFiles is not known outside Linux.
func inheritedFiles() []int { return nil }
