package jsruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
	"quire/internal/quire"

	"quire/internal/testutil"
)

// conformanceDir is the Node package holding the official CLI and the
// sample integrations.
const conformanceDir = "../../conformance"

var builds sync.Map // integration name → *bundle

// bundle is one integration built once per test binary.
type bundle struct {
	once   sync.Once
	script string
	err    error
	skip   string
}

// buildIntegration builds conformance/integrations/name as `gitbook
// publish` does, with the esbuild the official CLI depends on, and
// returns the bundle. It installs the conformance package (npm ci) when
// its node_modules lack the CLI, and skips the test only when Node or
// npm is not installed.
func buildIntegration(t testing.TB, name string) string {
	t.Helper()
	v, _ := builds.LoadOrStore(name, &bundle{})
	b := v.(*bundle)
	b.once.Do(func() {
		if _, err := exec.LookPath("node"); err != nil {
			b.skip = "node is not installed: the official GitBook CLI cannot build the sample integration"
			return
		}
		if _, err := os.Stat(filepath.Join(conformanceDir, "node_modules", "@gitbook", "cli", "package.json")); err != nil {
			if _, err := exec.LookPath("npm"); err != nil {
				b.skip = "npm is not installed: cannot install the official GitBook CLI in conformance/"
				return
			}
			cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
			cmd.Dir = conformanceDir
			if out, err := cmd.CombinedOutput(); err != nil {
				b.err = errorsJoin("npm ci in conformance/", err, out)
				return
			}
		}
		f, err := os.CreateTemp("", "quire-jsruntime-*.js")
		if err != nil {
			b.err = err
			return
		}
		f.Close()
		out := f.Name()
		defer os.Remove(out)
		cmd := exec.Command("node", "integrations/build.mjs", filepath.Join("integrations", name), out)
		cmd.Dir = conformanceDir
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.err = errorsJoin("building "+name, err, msg)
			return
		}
		data, err := os.ReadFile(out)
		b.script, b.err = string(data), err
	})
	if b.skip != "" {
		testutil.Missing(t, b.skip)
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.script
}

// dispatch builds the request the integrations dispatcher sends: POST
// <base>/v1 with the event and the environment as multipart fields.
func dispatch(t testing.TB, event, env any) quire.ScriptRequest {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for name, v := range map[string]any{"event": event, "environment": env} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteField(name, string(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return quire.ScriptRequest{
		Method: http.MethodPost,
		URL:    "https://integrations.quire.test/v1",
		Header: http.Header{"Content-Type": {w.FormDataContentType()}},
		Body:   body.Bytes(),
	}
}

// recorded is one request the fake API server received.
type recorded struct {
	method, path, auth, contentType string
	body                            []byte
}

func TestCommentOnMergeIntegration(t *testing.T) {
	script := buildIntegration(t, "comment-on-merge")
	if !strings.Contains(script, "export") {
		t.Fatalf("the CLI build is not an ES module:\n%.200s", script)
	}

	var mu sync.Mutex
	var got []recorded
	api := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, recorded{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), body})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"comment","id":"c-1"}`)
	})
	eachMode(t, func(t *testing.T, sandbox *Sandbox) {
		mu.Lock()
		got = nil
		mu.Unlock()
		runner := New(Config{Sandbox: sandbox, Doer: fetch.NewHTTPClient(fetch.Config{Guard: fetchtest.Only(fetchtest.Addr(t, api.URL))})})
		commentOnMerge(t, runner, api.URL, func() []recorded {
			mu.Lock()
			defer mu.Unlock()
			return got
		})
	})
}

// commentOnMerge runs the comment-on-merge bundle on a merge and checks
// the comment it posted to apiURL (recorded lists what apiURL got) and
// its logs.
func commentOnMerge(t *testing.T, runner *Runner, apiURL string, recorded func() []recorded) {
	t.Helper()
	script := buildIntegration(t, "comment-on-merge")

	event := map[string]any{
		"eventId":        "ev-1",
		"type":           "space_content_updated",
		"spaceId":        "space-1",
		"installationId": "inst-1",
		"revisionId":     "rev-42",
	}
	env := map[string]any{
		"apiEndpoint": apiURL,
		"apiTokens":   map[string]any{"installation": "installation-token", "integration": "integration-token"},
		"integration": map[string]any{"name": "comment-on-merge", "version": 1},
		"installation": map[string]any{
			"id": "inst-1", "status": "active", "configuration": map[string]any{},
		},
	}
	run, err := runner.RunScript(context.Background(), script, dispatch(t, event, env))
	if err != nil {
		t.Fatalf("run failed: %v\nlogs: %v", err, run.Logs)
	}
	if run.Response == nil || run.Response.Status != http.StatusOK {
		t.Fatalf("response = %+v, logs %v", run.Response, run.Logs)
	}

	got := recorded()
	if len(got) != 1 {
		t.Fatalf("API got %d requests, want 1: %+v", len(got), got)
	}
	c := got[0]
	if c.method != http.MethodPost || c.path != "/v1/spaces/space-1/comments" {
		t.Errorf("comment request = %s %s", c.method, c.path)
	}
	if c.auth != "Bearer installation-token" {
		t.Errorf("Authorization = %q, want the installation token", c.auth)
	}
	if !strings.HasPrefix(c.contentType, "application/json") {
		t.Errorf("Content-Type = %q", c.contentType)
	}
	var posted struct {
		Body struct {
			Markdown string `json:"markdown"`
		} `json:"body"`
	}
	if err := json.Unmarshal(c.body, &posted); err != nil || posted.Body.Markdown != "Merged revision rev-42" {
		t.Errorf("comment body = %s (%v)", c.body, err)
	}

	wantLogs := []string{"space space-1 moved to revision rev-42", "posted comment c-1"}
	for _, want := range wantLogs {
		if !hasLog(run.Logs, quire.ScriptLogInfo, want) {
			t.Errorf("logs lack %q at info: %v", want, run.Logs)
		}
	}
	if !hasLog(run.Logs, quire.ScriptLogInfo, "[integrations] [ev-1] space_content_updated") {
		t.Errorf("logs lack the runtime's own line: %v", run.Logs)
	}
}

// TestIntegrationUnhandledEvent checks the runtime's own answer for an
// event the integration does not handle, and that a bundle is reusable
// across runs.
func TestIntegrationUnhandledEvent(t *testing.T) {
	eachMode(t, func(t *testing.T, sandbox *Sandbox) { integrationUnhandledEvent(t, New(Config{Sandbox: sandbox})) })
}

func integrationUnhandledEvent(t *testing.T, runner *Runner) {
	script := buildIntegration(t, "comment-on-merge")
	env := map[string]any{
		"apiEndpoint": "https://api.quire.test",
		"apiTokens":   map[string]any{"integration": "integration-token"},
		"integration": map[string]any{"name": "comment-on-merge", "version": 1},
	}
	for range 2 {
		run, err := runner.RunScript(context.Background(), script, dispatch(t, map[string]any{"eventId": "ev-2", "type": "space_view", "spaceId": "s"}, env))
		if err != nil {
			t.Fatalf("run failed: %v (logs %v)", err, run.Logs)
		}
		if run.Response.Status != http.StatusNotAcceptable || !bytes.Contains(run.Response.Body, []byte(`does not handle \"space_view\" events`)) {
			t.Fatalf("response = %d %s", run.Response.Status, run.Response.Body)
		}
	}
}

func hasLog(logs []quire.ScriptLog, level quire.ScriptLogLevel, msg string) bool {
	for _, l := range logs {
		if l.Level == level && strings.Contains(l.Message, msg) {
			return true
		}
	}
	return false
}

func errorsJoin(what string, err error, out []byte) error {
	return fmt.Errorf("%s: %w\n%s", what, err, out)
}
