package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain lets the test binary stand for the quire executable when a
// server under test starts it again to run an integration script.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandboxCommand {
		os.Exit(Main(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestScriptSandboxCommand checks that the executable serve starts for
// scripts answers the hidden command, and refuses what is not a run.
func TestScriptSandboxCommand(t *testing.T) {
	sb, err := scriptSandbox()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sb.Path, sb.Args...)
	cmd.Stdin = strings.NewReader("not a run")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), "reading the run") {
		t.Errorf("err = %v, stderr %q: want the sandbox to refuse input that is no run", err, stderr.String())
	}
}
