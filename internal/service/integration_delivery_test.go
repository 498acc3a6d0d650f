package service

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"quire/internal/quire"
)

// failingRunner fails every run with err.
type failingRunner struct{ err error }

// RunScript implements quire.ScriptRunner.
func (r failingRunner) RunScript(context.Context, string, quire.ScriptRequest) (quire.ScriptRun, error) {
	return quire.ScriptRun{}, r.err
}

// runFailure is a run's error that says whether it is lasting.
type runFailure struct{ lasting bool }

func (e runFailure) Error() string { return fmt.Sprintf("stopped (lasting: %v)", e.lasting) }
func (e runFailure) Lasting() bool { return e.lasting }

// TestScriptFailuresRetriedOnlyWhenTheyMayPass checks that a failed run
// is tried again unless the runner says the same run would fail again.
func TestScriptFailuresRetriedOnlyWhenTheyMayPass(t *testing.T) {
	t.Parallel()
	svc := New(nil)
	for _, c := range []struct {
		name  string
		err   error
		retry bool
	}{
		{"an exception", errors.New("ReferenceError: x is not defined"), true},
		{"a limit that may pass", fmt.Errorf("run: %w", runFailure{lasting: false}), true},
		{"a lasting limit", fmt.Errorf("run: %w", runFailure{lasting: true}), false},
	} {
		n := NewIntegrations(svc, nil, failingRunner{c.err}, IntegrationOptions{})
		d := n.toScript(context.Background(), &quire.Integration{Name: "x"}, quire.ScriptRequest{})
		if !d.failed || d.retry != c.retry {
			t.Errorf("%s: failed %v, retry %v; want failed, retry %v", c.name, d.failed, d.retry, c.retry)
		}
	}
}
