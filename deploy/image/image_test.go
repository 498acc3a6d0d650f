package main

import (
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// TestImage builds the image offline from this repository, as make image
// does, reads it back from the tarball, checks its configuration and the
// compose file against it, and runs it: from its extracted root file
// system, and in podman where podman runs containers.
func TestImage(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "quire")
	if err := buildBinary(t.Context(), repoRoot, bin); err != nil {
		t.Fatal(err)
	}
	var suffix [4]byte
	_, _ = rand.Read(suffix[:])
	ref, err := name.NewTag("localhost/quire-image-test:" + hex.EncodeToString(suffix[:]))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "quire-image.tar")
	if err := writeImage(repoRoot, bin, path, ref); err != nil {
		t.Fatal(err)
	}
	img, err := tarball.ImageFromPath(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Config", func(t *testing.T) { testConfig(t, cf) })
	t.Run("Compose", func(t *testing.T) { testCompose(t, bin, cf.Config) })
	if os.Geteuid() != 0 {
		t.Skip("running the image needs root: its binary runs as the image's user in a chroot of its root file system")
	}
	t.Run("Chroot", func(t *testing.T) { testChroot(t, img, cf.Config) })
	t.Run("Podman", func(t *testing.T) { testPodman(t, path, bin, ref, cf.Config) })
}

// testConfig checks the image's configuration against the Dockerfile's,
// read again here.
func testConfig(t *testing.T, cf *v1.ConfigFile) {
	spec := readSpec(t)
	c := cf.Config
	if cf.OS != "linux" || cf.Architecture == "" {
		t.Errorf("platform %s/%s", cf.OS, cf.Architecture)
	}
	if strings.Join(c.Entrypoint, " ") != strings.Join(spec.Entrypoint, " ") || strings.Join(c.Cmd, " ") != strings.Join(spec.Cmd, " ") {
		t.Errorf("image runs %q %q, the Dockerfile %q %q", c.Entrypoint, c.Cmd, spec.Entrypoint, spec.Cmd)
	}
	if c.User != spec.User || c.WorkingDir != spec.WorkingDir {
		t.Errorf("image user %q in %q, the Dockerfile's %q in %q", c.User, c.WorkingDir, spec.User, spec.WorkingDir)
	}
	for _, kv := range spec.Env {
		k, v, _ := strings.Cut(kv, "=")
		if got := envValue(c.Env, k); got != v {
			t.Errorf("image sets %s=%q, the Dockerfile %q", k, got, v)
		}
	}
	for _, p := range spec.ExposedPorts {
		if _, ok := c.ExposedPorts[p]; !ok || len(c.ExposedPorts) != len(spec.ExposedPorts) {
			t.Errorf("image exposes %v, the Dockerfile %v", c.ExposedPorts, spec.ExposedPorts)
		}
	}
	for _, v := range spec.Volumes {
		if _, ok := c.Volumes[v]; !ok || len(c.Volumes) != len(spec.Volumes) {
			t.Errorf("image volumes %v, the Dockerfile's %v", c.Volumes, spec.Volumes)
		}
	}
	if h := c.Healthcheck; h == nil || strings.Join(h.Test, " ") != strings.Join(spec.Healthcheck.Test, " ") ||
		h.Interval != spec.Healthcheck.Interval || h.Retries != spec.Healthcheck.Retries {
		t.Errorf("image health check %+v, the Dockerfile's %+v", h, spec.Healthcheck)
	}
}

// freeAddr returns a loopback address with a port free at the time of
// the call.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// listenEnv is the image's environment with QUIRE_ADDR moved to addr, as
// a runtime's -e does: the test's server must not take the image's port
// on every address of this machine. It fails the test unless the image
// listens on every address at a port it exposes, which is what lets a
// container be reached.
func listenEnv(t *testing.T, c v1.Config, addr string) []string {
	t.Helper()
	host, port, err := net.SplitHostPort(envValue(c.Env, "QUIRE_ADDR"))
	if _, exposed := c.ExposedPorts[port+"/tcp"]; err != nil || host != "0.0.0.0" || !exposed {
		t.Fatalf("image's QUIRE_ADDR %q: want 0.0.0.0 and a port it exposes (%v)", envValue(c.Env, "QUIRE_ADDR"), c.ExposedPorts)
	}
	var env []string
	for _, kv := range c.Env {
		if !strings.HasPrefix(kv, "QUIRE_ADDR=") {
			env = append(env, kv)
		}
	}
	return append(env, "QUIRE_ADDR="+addr)
}

// imageUser resolves the image's USER as a runtime does: uid[:gid], or a
// name looked up in the image's own /etc/passwd.
func imageUser(t *testing.T, rootfs, user string) *syscall.Credential {
	t.Helper()
	u, g, hasGroup := strings.Cut(user, ":")
	uid, err := strconv.ParseUint(u, 10, 32)
	if err != nil {
		passwd, rerr := os.ReadFile(filepath.Join(rootfs, "etc", "passwd"))
		if rerr != nil {
			t.Fatal(rerr)
		}
		for line := range strings.SplitSeq(string(passwd), "\n") {
			if f := strings.Split(line, ":"); len(f) >= 4 && f[0] == u {
				uid, err = strconv.ParseUint(f[2], 10, 32)
				if !hasGroup {
					g, hasGroup = f[3], true
				}
			}
		}
		if err != nil {
			t.Fatalf("image user %q is not in the image's /etc/passwd", user)
		}
	}
	gid := uid
	if hasGroup {
		if gid, err = strconv.ParseUint(g, 10, 32); err != nil {
			t.Fatalf("image user %q: group %q is not numeric", user, g)
		}
	}
	if uid == 0 {
		t.Fatalf("image user %q is root", user)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}
