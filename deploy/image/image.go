package main

import (
	"fmt"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// debianPath is the PATH the Dockerfile's Debian base image sets, which
// the offline image sets too unless the Dockerfile sets its own.
const debianPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// buildInput is what an image is made from.
type buildInput struct {
	// Spec is the Dockerfile's final stage.
	Spec *imageSpec
	// Binary is the path of the static quire binary.
	Binary string
	// HostRoot is where the CA bundle, the fonts and their licences are
	// read from: "/" but in tests.
	HostRoot string
	// Arch is the binary's GOARCH.
	Arch string
	// Created is the image's creation time and every file's modification
	// time, so that the same inputs make the same image.
	Created time.Time
}

// buildImage makes the image: a layer of accounts, certificates and
// directories, one of fonts, one of the binary, and the configuration
// the Dockerfile's final stage declares.
func buildImage(in buildInput) (v1.Image, error) {
	spec := in.Spec
	user, err := parseUser(spec.User)
	if err != nil {
		return nil, err
	}
	bin, err := binaryPath(spec)
	if err != nil {
		return nil, err
	}
	var adds []mutate.Addendum
	for _, l := range []struct {
		what string
		fill func(*tarTree) error
	}{
		{"accounts, CA certificates, /tmp and the volumes", func(t *tarTree) error { return baseLayer(t, spec, user, in.HostRoot) }},
		{"fonts of PDF exports", func(t *tarTree) error { return fontLayer(t, in.HostRoot) }},
		{"the quire binary at " + bin, func(t *tarTree) error { return binaryLayer(t, in.Binary, bin) }},
	} {
		t := newTarTree(in.Created)
		if err := l.fill(t); err != nil {
			return nil, fmt.Errorf("layer of %s: %w", l.what, err)
		}
		b, err := t.bytes()
		if err != nil {
			return nil, err
		}
		layer, err := tarball.LayerFromOpener(opener(b), tarball.WithCompressedCaching)
		if err != nil {
			return nil, fmt.Errorf("layer of %s: %w", l.what, err)
		}
		adds = append(adds, mutate.Addendum{Layer: layer, History: v1.History{
			Created:   v1.Time{Time: in.Created},
			CreatedBy: "quire deploy/image: " + l.what,
		}})
	}
	img, err := mutate.Append(empty.Image, adds...)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", in.Arch
	cf.Created = v1.Time{Time: in.Created}
	cf.Config = imageConfig(spec)
	return mutate.ConfigFile(img, cf)
}

// imageConfig is the runtime configuration the Dockerfile's final stage
// declares, with the base image's PATH.
func imageConfig(spec *imageSpec) v1.Config {
	c := v1.Config{
		Env:        append([]string(nil), spec.Env...),
		User:       spec.User,
		WorkingDir: spec.WorkingDir,
		Entrypoint: spec.Entrypoint,
		Cmd:        spec.Cmd,
		StopSignal: spec.StopSignal,
	}
	if !hasEnv(spec.Env, "PATH") {
		c.Env = append([]string{debianPath}, c.Env...)
	}
	if len(spec.Labels) > 0 {
		c.Labels = spec.Labels
	}
	if len(spec.ExposedPorts) > 0 {
		c.ExposedPorts = map[string]struct{}{}
		for _, p := range spec.ExposedPorts {
			c.ExposedPorts[p] = struct{}{}
		}
	}
	if len(spec.Volumes) > 0 {
		c.Volumes = map[string]struct{}{}
		for _, v := range spec.Volumes {
			c.Volumes[v] = struct{}{}
		}
	}
	if h := spec.Healthcheck; h != nil {
		c.Healthcheck = &v1.HealthConfig{Test: h.Test, Interval: h.Interval, Timeout: h.Timeout, StartPeriod: h.StartPeriod, Retries: h.Retries}
	}
	return c
}

// hasEnv reports whether env, KEY=value pairs, sets key.
func hasEnv(env []string, key string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return true
		}
	}
	return false
}
