package jsruntime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
	"quire/internal/quire"
)

// Arguments with which the test binary, started again, plays a sandbox
// child, or reports what a child would start with.
const (
	sandboxArg = "script-sandbox"
	probeArg   = "sandbox-probe"
)

// TestMain lets the test binary serve as the sandbox child of the tests.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case sandboxArg:
			if err := ServeSandbox(context.Background(), os.Stdin, os.Stdout); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		case probeArg:
			closeInherited()
			fmt.Printf("env=%d inherited=%d\n", len(os.Environ()), len(inheritedFiles()))
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// testSandbox runs scripts in the test binary started again.
func testSandbox(t *testing.T) *Sandbox {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Sandbox{Path: exe, Args: []string{sandboxArg}}
}

// eachMode runs f with no sandbox and with one.
func eachMode(t *testing.T, f func(t *testing.T, sandbox *Sandbox)) {
	t.Run("in process", func(t *testing.T) { f(t, nil) })
	t.Run("sandboxed", func(t *testing.T) { f(t, testSandbox(t)) })
}

// TestSandboxMemoryLimitIsHard runs scripts that allocate without end,
// each in its own way: every run fails with the lasting memory error,
// and this process, which serves the run, grows by less than twice the
// limit meanwhile (its peak resident size, VmHWM, reset before each
// run).
func TestSandboxMemoryLimitIsHard(t *testing.T) {
	const limit = 64 << 20
	r := New(Config{Memory: limit, CPUTime: 20 * time.Second, WallTime: time.Minute, Sandbox: testSandbox(t)})
	for name, body := range map[string]string{
		"strings doubling": `let s = "x"; for (;;) s = s + s;`,
		"array growth":     `const a = []; for (let i = 0; ; i++) a.push(i * 1.5);`,
		"promise chain": `const keep = [];
			function step(i) { keep.push({ i, s: "step " + i }); return Promise.resolve(i + 1).then(step); }
			return step(0);`,
		"timers": `const keep = [];
			setInterval(() => { for (let i = 0; i < 100; i++) keep.push(new Array(1000).fill(i)); }, 1);
			return new Promise(() => {});`,
		"typed arrays": `const keep = []; for (;;) { const b = new Uint8Array(1 << 20); b.fill(7); keep.push(b); }`,
	} {
		t.Run(name, func(t *testing.T) {
			before := residentSize(t, "VmRSS")
			resetPeakResidentSize(t)
			run, err := r.RunScript(context.Background(), `export default { fetch() { console.log("start"); `+body+` } };`, get)
			peak := residentSize(t, "VmHWM")
			if !errors.Is(err, ErrMemory) || !quire.IsLastingScriptError(err) {
				t.Fatalf("err = %v, want the lasting ErrMemory", err)
			}
			if want := "script went past its memory limit of 64 MiB"; !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q, want it to say %q", err, want)
			}
			if !hasLog(run.Logs, quire.ScriptLogInfo, "start") {
				t.Errorf("logs = %+v, want the line written before", run.Logs)
			}
			if grew := peak - before; grew >= 2*limit {
				t.Errorf("this process grew by %d MiB during the run, limit %d MiB", grew>>20, limit>>20)
			}
			t.Logf("this process grew by %d KiB", (peak-before)>>10)
		})
	}
}

// residentSize reads a size field (VmRSS, VmHWM) of /proc/self/status,
// in bytes.
func residentSize(t *testing.T, field string) int64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// resetPeakResidentSize sets VmHWM back to VmRSS.
func resetPeakResidentSize(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak resident size: %v", err)
	}
}

// TestSandboxedRunFetchesThroughTheParent checks that a sandboxed
// script's fetches go through the Runner's Doer, guard included, and
// that its logs and answer come back whole.
func TestSandboxedRunFetchesThroughTheParent(t *testing.T) {
	api := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Token"))
		_, _ = w.Write([]byte("hello " + r.URL.Query().Get("who")))
	})
	r := New(Config{Sandbox: testSandbox(t), Doer: fetch.NewHTTPClient(fetch.Config{Guard: fetchtest.Only(fetchtest.Addr(t, api.URL))})})
	run, err := r.RunScript(context.Background(), `
export default {
	async fetch(request) {
		const res = await fetch("`+api.URL+`/greet?who=you", { method: "PUT", headers: { "X-Token": "t" }, body: "b" });
		console.log("seen", res.headers.get("X-Seen"));
		let refused = "";
		try { await fetch("http://127.0.0.2:9/"); } catch (e) { refused = String(e); }
		console.warn(refused);
		return new Response(await res.text() + " via " + request.method, { status: 201, headers: { "X-Out": "1" } });
	},
};`, get)
	if err != nil {
		t.Fatalf("run failed: %v (logs %v)", err, run.Logs)
	}
	if run.Response.Status != http.StatusCreated || string(run.Response.Body) != "hello you via GET" || run.Response.Header.Get("X-Out") != "1" {
		t.Errorf("response = %d %v %q", run.Response.Status, run.Response.Header, run.Response.Body)
	}
	if !hasLog(run.Logs, quire.ScriptLogInfo, "seen PUT /greet t") {
		t.Errorf("logs = %v", run.Logs)
	}
	if !hasLog(run.Logs, quire.ScriptLogWarn, "fetch failed: http://127.0.0.2:9/") {
		t.Errorf("the guard did not refuse the other address: logs = %v", run.Logs)
	}
}

// TestSandboxedRunReportsItsEnd checks the other ends of a sandboxed
// run: an exception with its stack, the CPU time limit, the wall time
// limit, a cancelled context and a script that does not compile.
func TestSandboxedRunReportsItsEnd(t *testing.T) {
	sb := testSandbox(t)
	r := New(Config{Sandbox: sb, CPUTime: 200 * time.Millisecond, WallTime: 5 * time.Second})

	_, err := r.RunScript(context.Background(), `function boom() { throw new Error("boom"); }
export default { fetch() { boom(); } };`, get)
	var se *ScriptError
	if !errors.As(err, &se) || se.Message != "Error: boom" || !strings.Contains(se.Stack, "boom") || quire.IsLastingScriptError(err) {
		t.Errorf("exception: err = %#v", err)
	}

	_, err = r.RunScript(context.Background(), `export default { fetch() { for (;;) {} } };`, get)
	if !errors.Is(err, ErrCPUTime) || !quire.IsLastingScriptError(err) {
		t.Errorf("busy loop: err = %v, want ErrCPUTime", err)
	}

	_, err = r.RunScript(context.Background(), `export default { fetch() { return new Promise((ok) => setTimeout(ok, 60000)); } };`, get)
	if !errors.Is(err, ErrWallTime) || quire.IsLastingScriptError(err) {
		t.Errorf("long wait: err = %v, want ErrWallTime", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = r.RunScript(ctx, `export default { fetch() { return new Promise((ok) => setTimeout(ok, 60000)); } };`, get)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}

	res, err := r.RunScript(context.Background(), `export default { async fetch() {
	try { await fetch("https://example.test/"); } catch (e) { return new Response(String(e)); }
} };`, get)
	if err != nil || !strings.Contains(string(res.Response.Body), "TypeError: fetch is not available") {
		t.Errorf("fetch without a Doer: err = %v, response %+v", err, res.Response)
	}

	_, err = r.RunScript(context.Background(), `export default {`, get)
	if !errors.As(err, &se) || !se.Unloadable {
		t.Errorf("syntax error: err = %v", err)
	}
}

// TestSandboxChildInheritsNothing checks that a child starts with an
// empty environment and, once it has closed what it did not open
// itself, only its three standard files, even when this process holds a
// file open across exec.
func TestSandboxChildInheritsNothing(t *testing.T) {
	t.Setenv("QUIRE_SECRET_FOR_TEST", "secret")
	fd, err := syscall.Open(os.Args[0], syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	cmd := testSandbox(t).command()
	cmd.Args = []string{cmd.Path, probeArg}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "env=0 inherited=0" {
		t.Errorf("child reports %q, want no variables and no file but the standard ones", got)
	}
}

// BenchmarkRun measures one run of the comment-on-merge bundle on an
// event it does not handle, in this process and in a sandbox child (the
// cost of starting the child and compiling the script there).
func BenchmarkRun(b *testing.B) {
	script := buildIntegration(b, "comment-on-merge")
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	env := map[string]any{
		"apiEndpoint": "https://api.quire.test",
		"apiTokens":   map[string]any{"integration": "integration-token"},
		"integration": map[string]any{"name": "comment-on-merge", "version": 1},
	}
	for name, sandbox := range map[string]*Sandbox{"in process": nil, "sandboxed": {Path: exe, Args: []string{sandboxArg}}} {
		b.Run(name, func(b *testing.B) {
			r := New(Config{Sandbox: sandbox})
			req := dispatch(b, map[string]any{"eventId": "ev", "type": "space_view", "spaceId": "s"}, env)
			for b.Loop() {
				if _, err := r.RunScript(context.Background(), script, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
