package main

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// testChroot extracts the image's root filesystem from its layers and
// runs the image's entrypoint and command in it, with the image's
// environment, working directory and user, as a runtime would: the
// binary must find everything it needs in the image.
func testChroot(t *testing.T, img v1.Image, c v1.Config) {
	rootfs := filepath.Join(t.TempDir(), "rootfs")
	extract(t, img, rootfs)
	mountKernelFiles(t, rootfs)
	cred := imageUser(t, rootfs, c.User)
	addr := freeAddr(t)
	env := listenEnv(t, c, addr)

	logPath := filepath.Join(t.TempDir(), "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the server holds its own descriptor
	logs := func() string {
		b, _ := os.ReadFile(logPath)
		return string(b)
	}
	srv := inImage(rootfs, c, env, cred, append(append([]string(nil), c.Entrypoint...), c.Cmd...))
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		t.Fatalf("starting %q in the image: %v", srv.Args, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		_ = srv.Process.Signal(os.Interrupt)
		<-exited
	})
	base := "http://" + addr
	waitHealthy(t, base, exited, logs)

	// The image's own health check, run as a runtime runs it.
	if len(c.Healthcheck.Test) < 2 || c.Healthcheck.Test[0] != "CMD" {
		t.Fatalf("health check %q: want CMD and a command", c.Healthcheck.Test)
	}
	check := inImage(rootfs, c, env, cred, c.Healthcheck.Test[1:])
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("the image's health check %q failed: %v\n%s", c.Healthcheck.Test, err, out)
	}

	// The server runs as the image's user and keeps its data in the
	// volume.
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("\nUid:\t%d\t%d\t", cred.Uid, cred.Uid); !strings.Contains(string(status), want) {
		t.Errorf("the server does not run as uid %d:\n%s", cred.Uid, status)
	}
	tokenPath := filepath.Join(rootfs, envValue(c.Env, "QUIRE_DATA"), "admin-token")
	st, err := os.Stat(tokenPath)
	if err != nil {
		t.Fatalf("no admin token in the image's data directory: %v\n%s", err, logs())
	}
	if uid := st.Sys().(*syscall.Stat_t).Uid; uid != cred.Uid {
		t.Errorf("%s belongs to uid %d, want the image's user %d", tokenPath, uid, cred.Uid)
	}
	token, err := os.ReadFile(tokenPath)
	if err != nil {
		t.Fatal(err)
	}
	checkPDF(t, base, strings.TrimSpace(string(token)))
	if strings.Contains(logs(), "no CJK fonts found") {
		t.Errorf("the server did not find the image's CJK fonts:\n%s", logs())
	}
}

// inImage is a command run in the image's root filesystem, with the
// image's working directory and the given environment and user.
func inImage(rootfs string, c v1.Config, env []string, cred *syscall.Credential, args []string) *exec.Cmd {
	// The path is the image's: it is looked up after the chroot.
	cmd := &exec.Cmd{Path: args[0], Args: args, Env: env, Dir: c.WorkingDir}
	if cmd.Dir == "" {
		cmd.Dir = "/"
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootfs, Credential: cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

// mountKernelFiles mounts in rootfs what a container runtime gives every
// container and an image does not hold: /proc (the server finds its own
// executable there) and the common devices of /dev (/dev/null for the
// processes it starts). Devices are bound one file at a time, so that
// removing the directory can never reach the host's /dev. They are
// unmounted when the test ends.
func mountKernelFiles(t *testing.T, rootfs string) {
	t.Helper()
	mount := func(source, target, fstype string, flags uintptr) {
		if err := syscall.Mount(source, target, fstype, flags, ""); err != nil {
			t.Fatalf("mounting %s at %s: %v", source, target, err)
		}
		t.Cleanup(func() {
			if err := syscall.Unmount(target, syscall.MNT_DETACH); err != nil {
				t.Errorf("unmounting %s: %v", target, err)
			}
		})
	}
	proc := filepath.Join(rootfs, "proc")
	if err := os.MkdirAll(proc, 0o555); err != nil {
		t.Fatal(err)
	}
	mount("proc", proc, "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC)
	if err := os.MkdirAll(filepath.Join(rootfs, "dev"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dev := range []string{"null", "zero", "random", "urandom"} {
		target := filepath.Join(rootfs, "dev", dev)
		if err := os.WriteFile(target, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		mount("/dev/"+dev, target, "", syscall.MS_BIND)
	}
}

// waitHealthy waits until base answers /healthz with 200, failing the
// test if the server exits first.
func waitHealthy(t *testing.T, base string, exited chan error, logs func() string) {
	t.Helper()
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the image's server exited before answering /healthz: %v\n%s", err, logs())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// extract writes the image's flattened file system into dir, with the
// modes and owners of its layers; dir itself becomes 0755, as a
// container's root is.
func extract(t *testing.T, img v1.Image, dir string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(rc)
	type dirMode struct {
		path string
		mode os.FileMode
	}
	var dirs []dirMode
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Clean(h.Name)
		if !filepath.IsLocal(name) {
			t.Fatalf("image entry %q leaves the root", h.Name)
		}
		p := filepath.Join(dir, name)
		mode := h.FileInfo().Mode()
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o700); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dirMode{p, mode})
		case tar.TypeReg:
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Chmod(p, mode)
			}
			if err != nil {
				t.Fatal(err)
			}
		case tar.TypeSymlink:
			if err := os.Symlink(h.Linkname, p); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("image entry %q has type %q, which this test does not extract", h.Name, h.Typeflag)
		}
		if err := os.Lchown(p, h.Uid, h.Gid); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range dirs {
		if err := os.Chmod(d.path, d.mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
