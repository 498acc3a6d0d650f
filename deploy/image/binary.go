package main

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// buildBinary builds ./cmd/quire of repo into out as the Dockerfile's
// build stage does: without cgo, so that it needs no C library, for Linux
// on this machine's architecture.
func buildBinary(ctx context.Context, repo, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", abs, "./cmd/quire")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOFLAGS=")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building quire in %s: %w", repo, err)
	}
	return nil
}

// checkStatic refuses a binary that asks for a dynamic loader: the image
// has no C library.
func checkStatic(binary string) error {
	f, err := elf.Open(binary)
	if err != nil {
		return fmt.Errorf("%s: %w", binary, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is dynamically linked; build it with CGO_ENABLED=0", binary)
		}
	}
	return nil
}
