package jsruntime

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// confine puts the sandbox child under the run's limits, for good: its
// data size (writable private mappings: the heap, thread stacks) may
// grow by lim.Memory plus sandboxHeadroom past what it holds now, so that
// an allocation past it fails in this process (the Go runtime then dies
// with "out of memory"); the kernel kills it past cpuLimit of CPU time;
// it may open no more files and write none.
func confine(lim limits) error {
	data, err := dataSize()
	if err != nil {
		return err
	}
	softLimit(lim)
	dataLimit := uint64(data + lim.Memory + sandboxHeadroom)
	cpu := uint64(cpuLimit(lim.CPUTime) / time.Second)
	for _, l := range []struct {
		res int
		max uint64
	}{
		{syscall.RLIMIT_DATA, dataLimit},
		{syscall.RLIMIT_CPU, cpu},
		{syscall.RLIMIT_FSIZE, 0},
		{syscall.RLIMIT_NOFILE, 16},
		{syscall.RLIMIT_CORE, 0},
	} {
		if err := syscall.Setrlimit(l.res, &syscall.Rlimit{Cur: l.max, Max: l.max}); err != nil {
			return fmt.Errorf("setrlimit %d: %w", l.res, err)
		}
	}
	return nil
}

// dataSize is the process's data size (VmData), in bytes.
func dataSize() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("VmData:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmSize: %w", err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no VmSize in /proc/self/status")
}

// killedByKernel reports whether a child was killed by a signal it does
// not send itself: SIGKILL past the hard CPU limit, or the kernel's
// out-of-memory killer.
func killedByKernel(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGKILL || ws.Signal() == syscall.SIGXCPU)
}

// closeInherited closes the files this process was started with beyond
// standard input, output and error: a server may hold some open across
// exec (from whatever started it), and a child must not reach them. Go
// opens its own files close-on-exec, so a descriptor without that flag
// came from the parent.
func closeInherited() {
	for _, fd := range inheritedFiles() {
		_ = syscall.Close(fd)
	}
}

// inheritedFiles lists the descriptors past the standard three that are
// not close-on-exec.
func inheritedFiles() []int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	var fds []int
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		if errno == 0 && flags&syscall.FD_CLOEXEC == 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}
