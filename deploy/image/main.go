// Command image builds Quire's container image without a container
// daemon: the static quire binary, the files the Dockerfile's final stage
// installs (taken from this host's Debian packages), and the configuration
// that stage declares, read from the Dockerfile itself. It writes a
// tarball that docker load and podman load read.
//
// It is its own module so that go-containerregistry stays out of the
// server's dependencies; make image runs it:
//
//	go run . -repo ../.. -o ../../bin/quire-image.tar
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// run parses the flags, builds the binary unless one is given, and
// writes the image.
func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	repo := fs.String("repo", "../..", "root of the Quire repository: its Dockerfile and the module the binary is built from")
	out := fs.String("o", "", "file the image tarball is written to (required)")
	tag := fs.String("tag", "quire:latest", "name the tarball gives the image")
	binary := fs.String("binary", "", "a static quire binary to use instead of building one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: image [-repo DIR] [-tag NAME] [-binary FILE] -o FILE")
	}
	ref, err := name.NewTag(*tag)
	if err != nil {
		return fmt.Errorf("-tag: %w", err)
	}
	if *binary == "" {
		tmp, err := os.MkdirTemp("", "quire-image-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		*binary = filepath.Join(tmp, "quire")
		if err := buildBinary(ctx, *repo, *binary); err != nil {
			return err
		}
	}
	if err := writeImage(*repo, *binary, *out, ref); err != nil {
		return err
	}
	fmt.Printf("image %s written to %s\n", ref, *out)
	return nil
}

// writeImage builds the image of the Dockerfile in repo around binary
// and writes it to out as a tarball naming it ref.
func writeImage(repo, binary, out string, ref name.Tag) error {
	f, err := os.Open(filepath.Join(repo, "Dockerfile"))
	if err != nil {
		return err
	}
	spec, err := parseDockerfile(f)
	f.Close()
	if err != nil {
		return err
	}
	if err := checkStatic(binary); err != nil {
		return err
	}
	img, err := buildImage(buildInput{Spec: spec, Binary: binary, HostRoot: "/", Arch: runtime.GOARCH, Created: sourceDate()})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return tarball.WriteToFile(out, ref, img)
}

// sourceDate is SOURCE_DATE_EPOCH when set, else the Unix epoch: the
// image's timestamps say nothing about when it was built, so the same
// inputs give the same image.
func sourceDate() time.Time {
	var sec int64
	if _, err := fmt.Sscan(os.Getenv("SOURCE_DATE_EPOCH"), &sec); err != nil {
		sec = 0
	}
	return time.Unix(sec, 0).UTC()
}
