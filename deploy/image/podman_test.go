package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// podmanPatience bounds the wait for the container to answer.
const podmanPatience = 60 * time.Second

// testPodman loads the image into podman and runs it as a container,
// with the image's own entrypoint, user and health check; skipped where
// podman is missing or cannot run any container on this machine.
func testPodman(t *testing.T, tarPath, bin string, ref name.Tag, c v1.Config) {
	podman, err := exec.LookPath("podman")
	if err != nil {
		t.Skip("podman is not installed (Debian package podman): the image is not run in a container runtime")
	}
	opts := podmanOptions(t, podman, bin)
	run := func(args ...string) string {
		t.Helper()
		var stderr strings.Builder
		cmd := exec.CommandContext(t.Context(), podman, args...)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("podman %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	run("load", "-i", tarPath)
	t.Cleanup(func() { _ = exec.Command(podman, "rmi", "-f", ref.String()).Run() })

	addr := freeAddr(t)
	// Named, so that it and its volume are removed even when it fails to
	// start.
	id := strings.ReplaceAll(ref.TagStr(), ".", "-")
	id = "quire-image-test-" + id
	t.Cleanup(func() { _ = exec.Command(podman, "rm", "-f", "-v", id).Run() })
	args := append([]string{"run", "-d", "--name", id, "--network", "host", "-e", "QUIRE_ADDR=" + addr}, opts...)
	run(append(args, ref.String())...)

	logs := func() string {
		out, _ := exec.Command(podman, "logs", id).CombinedOutput()
		return string(out)
	}
	base := "http://" + addr
	for deadline := time.Now().Add(podmanPatience); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) || run("inspect", "-f", "{{.State.Running}}", id) != "true" {
			t.Fatalf("the container did not answer /healthz:\n%s", logs())
		}
	}
	if out, err := exec.Command(podman, "healthcheck", "run", id).CombinedOutput(); err != nil {
		t.Errorf("podman healthcheck run: %v\n%s", err, out)
	}
	pid := run("inspect", "-f", "{{.State.Pid}}", id)
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	uid, _, _ := strings.Cut(c.User, ":")
	if !strings.Contains(string(status), "\nUid:\t"+uid+"\t") {
		t.Errorf("the container's server does not run as the image's user %s:\n%s", c.User, status)
	}
	data := run("inspect", "-f", `{{range .Mounts}}{{if eq .Destination "/data"}}{{.Source}}{{end}}{{end}}`, id)
	token, err := os.ReadFile(filepath.Join(data, "admin-token"))
	if err != nil {
		t.Fatalf("admin token in the container's /data volume (%s): %v\n%s", data, err, logs())
	}
	checkPDF(t, base, strings.TrimSpace(string(token)))
}

// podmanOptions returns the options of podman run under which a container
// runs on this machine: none, or where the default runtime cannot set
// its resource limits or cgroups here, runc with limits this process
// already has. It runs the static binary alone in a bare root file
// system to find out, so that a failure of the image itself is never
// taken for the machine's, and skips the test when nothing runs.
func podmanOptions(t *testing.T, podman, bin string) []string {
	t.Helper()
	root := t.TempDir()
	if err := os.Link(bin, filepath.Join(root, "quire")); err != nil {
		t.Fatal(err)
	}
	variants := [][]string{nil}
	if _, err := exec.LookPath("runc"); err == nil {
		variants = append(variants, []string{"--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"})
	}
	var failures []string
	for _, opts := range variants {
		args := append(append([]string{"run", "--rm", "--network", "host"}, opts...), "--rootfs", root, "/quire", "version")
		out, err := exec.CommandContext(t.Context(), podman, args...).CombinedOutput()
		if err == nil {
			t.Logf("podman runs a container here with the options %q", opts)
			return opts
		}
		failures = append(failures, fmt.Sprintf("podman %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out))))
	}
	t.Skipf("podman cannot run a container on this machine:\n%s", strings.Join(failures, "\n"))
	return nil
}
