package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
	"quire/internal/quire"
)

// get is a plain request for scripts that ignore theirs.
var get = quire.ScriptRequest{Method: http.MethodGet, URL: "https://integrations.quire.test/v1"}

func run(t *testing.T, r *Runner, script string) (quire.ScriptRun, error) {
	t.Helper()
	return r.RunScript(context.Background(), script, get)
}

func TestThrowingScriptFailsWithItsLogs(t *testing.T) {
	r := New(Config{})
	res, err := run(t, r, `
function explode() { throw new Error("boom"); }
export default {
	async fetch() {
		console.log("before");
		console.error("about to fail");
		explode();
	},
};`)
	var se *ScriptError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *ScriptError", err)
	}
	if se.Message != "Error: boom" || !strings.Contains(se.Stack, "explode") {
		t.Errorf("error = %q, stack %q", se.Message, se.Stack)
	}
	if quire.IsLastingScriptError(err) {
		t.Error("an exception is said to be lasting: it may come from a request that passes next time")
	}
	if res.Response != nil {
		t.Errorf("a failed run answered %+v", res.Response)
	}
	if !hasLog(res.Logs, quire.ScriptLogInfo, "before") || !hasLog(res.Logs, quire.ScriptLogError, "about to fail") {
		t.Errorf("logs = %+v", res.Logs)
	}
}

func TestUnhandledRejectionsAreLogged(t *testing.T) {
	res, err := run(t, New(Config{}), `
export default {
	async fetch() {
		Promise.reject(new Error("forgotten"));
		const handled = Promise.reject(new Error("handled later"));
		await null;
		handled.catch(() => {});
		return new Response("ok");
	},
};`)
	if err != nil {
		t.Fatal(err)
	}
	if !hasLog(res.Logs, quire.ScriptLogError, "Uncaught (in promise) Error: forgotten") || hasLog(res.Logs, quire.ScriptLogError, "handled later") {
		t.Errorf("logs = %+v", res.Logs)
	}
}

func TestScriptThrowingWhileLoading(t *testing.T) {
	res, err := run(t, New(Config{}), `console.warn("loading"); throw new TypeError("bad module"); export default {};`)
	var se *ScriptError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "bad module") {
		t.Fatalf("err = %v", err)
	}
	if !hasLog(res.Logs, quire.ScriptLogWarn, "loading") {
		t.Errorf("logs = %+v", res.Logs)
	}
}

func TestSyntaxErrorAndMissingHandler(t *testing.T) {
	r := New(Config{})
	for name, script := range map[string]string{
		"syntax":     `export default { fetch( };`,
		"no default": `export const x = 1;`,
		"no fetch":   `export default { hello() {} };`,
	} {
		_, err := run(t, r, script)
		if !errors.As(err, new(*ScriptError)) {
			t.Errorf("%s: err = %v, want a *ScriptError", name, err)
		}
		if !quire.IsLastingScriptError(err) {
			t.Errorf("%s: a script that cannot load is not said to be lasting", name)
		}
	}
}

func TestCPULimitStopsAnEndlessLoop(t *testing.T) {
	r := New(Config{CPUTime: 200 * time.Millisecond, WallTime: time.Minute})
	for name, script := range map[string]string{
		"synchronous": `export default { fetch() { console.log("spinning"); while (true) {} } };`,
		"after await": `export default { async fetch() { await null; for (;;) {} } };`,
		"in a timer":  `export default { fetch() { return new Promise(() => setTimeout(() => { while (true) {} }, 1)); } };`,
		"at load":     `while (true) {} export default {};`,
	} {
		done := make(chan struct{})
		var res quire.ScriptRun
		var err error
		go func() {
			defer close(done)
			res, err = run(t, r, script)
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the CPU limit did not stop the script", name)
		}
		if !errors.Is(err, ErrCPUTime) || !quire.IsLastingScriptError(err) {
			t.Errorf("%s: err = %v, want ErrCPUTime, lasting", name, err)
		}
		if name == "synchronous" && !hasLog(res.Logs, quire.ScriptLogInfo, "spinning") {
			t.Errorf("%s: logs = %+v", name, res.Logs)
		}
	}
}

func TestMemoryLimitStopsAHog(t *testing.T) {
	r := New(Config{Memory: 64 << 20, CPUTime: time.Minute, WallTime: 2 * time.Minute})
	_, err := run(t, r, `
export default {
	fetch() {
		const keep = [];
		for (;;) keep.push(new Array(100000).fill(keep.length));
	},
};`)
	if !errors.Is(err, ErrMemory) {
		t.Fatalf("err = %v, want ErrMemory", err)
	}
}

// TestAllocationsAreBounded checks the built-ins that would allocate or
// loop natively (where the watchdog cannot interrupt) on one huge
// length: each throws a RangeError, or the memory limit stops the run.
func TestAllocationsAreBounded(t *testing.T) {
	r := New(Config{Memory: 64 << 20, CPUTime: 20 * time.Second, WallTime: 30 * time.Second})
	for _, body := range []string{
		`let s = "x"; for (;;) s += s;`,
		`return new Response("x".repeat(1e10));`,
		`"".padStart(1e10);`,
		`new Uint8Array(4e9);`,
		`new ArrayBuffer(4e9);`,
		`new Array(1e9).indexOf(1);`,
		`Array.from({ length: 1e9 });`,
		`const a = []; a.length = 4e9; a.fill(1);`,
		`const a = []; a.length = 4e9; a.map((x) => x);`,
		`const a = []; a.length = 4e9; a.join();`,
		`const a = []; a.length = 4e9; String(a);`,
		`const a = []; a.length = 4e9; Array.prototype.fill.call(a, 1);`,
		`const a = []; a.length = 4e9; Math.max.apply(null, a);`,
		`const a = []; a.length = 4e9; Math.max(...a);`,
		`const a = []; a.length = 4e9; for (const x of a) {}`,
		`const a = []; a.length = 4e9; JSON.stringify({ a });`,
		`const a = []; a.length = 4e9; new Set(a);`,
		`const a = []; a.length = 4e9; new Uint8Array(a);`,
	} {
		_, err := run(t, r, `export default { fetch() { `+body+` } };`)
		var se *ScriptError
		if !errors.Is(err, ErrMemory) && !(errors.As(err, &se) && strings.HasPrefix(se.Message, "RangeError")) {
			t.Errorf("%s: err = %v, want a RangeError or ErrMemory", body, err)
		}
	}
}

// TestGuardedBuiltinsStillWork checks that the wrapped constructors and
// methods behave as the originals for ordinary use.
func TestGuardedBuiltinsStillWork(t *testing.T) {
	res, err := run(t, New(Config{}), `
export default {
	fetch() {
		class List extends Array {}
		class Bytes extends Uint8Array {}
		return Response.json([
			[] instanceof Array,
			Array.isArray(new Array(3)),
			new Array(1, 2).length,
			Array(3).length,
			Uint8Array.from({ length: 3 }) instanceof Uint8Array,
			new Uint8Array(2).constructor === Uint8Array,
			new Uint8Array([1, 2, 3]).map((x) => x * 2).join("-"),
			[1, 2].map((x) => x).constructor === Array,
			List.from([1]) instanceof List,
			new Bytes(2).length,
			Math.max(...[1, 5, 2]),
			JSON.stringify({ a: [1, { b: 2 }] }, null, 0),
			JSON.stringify({ a: 1, b: 2 }, ["a"]),
			JSON.stringify({ a: 1 }, (k, v) => (k === "a" ? 2 : v)),
			"ab".repeat(2) + "x".padStart(3, "-"),
		]);
	},
};`)
	if err != nil {
		t.Fatal(err)
	}
	want := `[true,true,2,3,true,true,"2-4-6",true,true,2,5,"{\"a\":[1,{\"b\":2}]}","{\"a\":1}","{\"a\":2}","abab--x"]`
	if string(res.Response.Body) != want {
		t.Errorf("got  %s\nwant %s", res.Response.Body, want)
	}
}

func TestBodiesAreBounded(t *testing.T) {
	r := New(Config{MaxBody: 1024})
	_, err := run(t, r, `export default { fetch() { return new Response("x".repeat(2048)); } };`)
	var se *ScriptError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "RangeError") {
		t.Fatalf("err = %v, want the RangeError of a body over the limit", err)
	}
	req := get
	req.Body = make([]byte, 2048)
	if _, err := r.RunScript(context.Background(), `export default { fetch() { return new Response("ok"); } };`, req); err == nil {
		t.Fatal("a request body over the limit was accepted")
	}
}

func TestFetchGoesThroughTheGuard(t *testing.T) {
	allowed := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.Header.Get("X-Token"))
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	refused := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {})
	r := New(Config{Doer: fetch.NewHTTPClient(fetch.Config{Guard: fetchtest.Only(fetchtest.Addr(t, allowed.URL))})})
	script := `
export default {
	async fetch() {
		const ok = await fetch(ALLOWED + "/x", { method: "POST", headers: { "X-Token": "t" }, body: "hi" });
		console.log("allowed", ok.status, ok.headers.get("x-seen"), JSON.stringify(await ok.json()));
		try {
			await fetch(REFUSED + "/y");
			return new Response("reached", { status: 200 });
		} catch (e) {
			console.error(String(e));
			return new Response("refused", { status: 502 });
		}
	},
};`
	script = strings.NewReplacer("ALLOWED", `"`+allowed.URL+`"`, "REFUSED", `"`+refused.URL+`"`).Replace(script)
	res, err := run(t, r, script)
	if err != nil {
		t.Fatalf("run: %v (logs %+v)", err, res.Logs)
	}
	if res.Response.Status != http.StatusBadGateway || refused.Hits.Load() != 0 {
		t.Fatalf("status %d, refused server hits %d", res.Response.Status, refused.Hits.Load())
	}
	if !hasLog(res.Logs, quire.ScriptLogInfo, `allowed 418 t {"ok":true}`) {
		t.Errorf("logs = %+v", res.Logs)
	}
	if !hasLog(res.Logs, quire.ScriptLogError, "TypeError: fetch failed: "+refused.URL+"/y") {
		t.Errorf("logs = %+v", res.Logs)
	}
}

func TestFetchCountIsBounded(t *testing.T) {
	srv := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {})
	r := New(Config{MaxFetches: 2, Doer: fetch.NewHTTPClient(fetch.Config{AllowLocal: true})})
	res, err := run(t, r, `
export default {
	async fetch() {
		for (let i = 0; i < 3; i++) {
			try { await fetch("`+srv.URL+`"); } catch (e) { console.error(e.message); }
		}
		return new Response("done");
	},
};`)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Hits.Load() != 2 || !hasLog(res.Logs, quire.ScriptLogError, "at most 2 requests") {
		t.Fatalf("hits %d, logs %+v", srv.Hits.Load(), res.Logs)
	}
}

func TestNoHostAccess(t *testing.T) {
	r := New(Config{})
	res, err := run(t, r, `
export default {
	fetch() {
		const names = ["require", "process", "Deno", "Bun", "module", "exports", "__quire_module", "host"];
		return Response.json(names.filter((n) => typeof globalThis[n] !== "undefined"));
	},
};`)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Response.Body) != "[]" {
		t.Errorf("globals reachable by scripts: %s", res.Response.Body)
	}
	_, err = run(t, r, `import { readFileSync } from "node:fs"; export default { fetch() { return new Response(readFileSync("/etc/passwd")); } };`)
	var se *ScriptError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "require") {
		t.Errorf("importing node:fs: err = %v", err)
	}
	if _, err := run(t, r, `export default { fetch() { return fetch("file:///etc/passwd"); } };`); err == nil {
		t.Error("a file: URL was fetched")
	}
}

func TestEachRunHasAFreshRuntime(t *testing.T) {
	r := New(Config{})
	script := `
globalThis.count = (globalThis.count || 0) + 1;
Array.prototype.polluted = true;
export default { fetch() { return new Response(String(count)); } };`
	for range 2 {
		res, err := run(t, r, script)
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Response.Body) != "1" {
			t.Fatalf("state leaked between runs: count = %s", res.Response.Body)
		}
	}
}

func TestContextCancellationStopsARun(t *testing.T) {
	r := New(Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := r.RunScript(ctx, `export default { fetch() { return new Promise((ok) => setTimeout(() => ok(new Response("late")), 60000)); } };`, get)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
}

func TestHandlerThatNeverAnswers(t *testing.T) {
	_, err := run(t, New(Config{}), `export default { fetch() { return new Promise(() => {}); } };`)
	if !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("err = %v, want ErrNoAnswer", err)
	}
}

func TestWaitUntilIsAwaited(t *testing.T) {
	res, err := run(t, New(Config{}), `
export default {
	fetch(request, env, ctx) {
		ctx.waitUntil(new Promise((ok) => setTimeout(() => { console.log("after the answer"); ok(); }, 10)));
		return new Response("now", { status: 202, headers: { "X-A": "b" } });
	},
};`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Response.Status != http.StatusAccepted || res.Response.Header.Get("X-A") != "b" || string(res.Response.Body) != "now" {
		t.Errorf("response = %+v", res.Response)
	}
	if !hasLog(res.Logs, quire.ScriptLogInfo, "after the answer") {
		t.Errorf("logs = %+v", res.Logs)
	}
}

func TestWallTimeLimit(t *testing.T) {
	r := New(Config{WallTime: 100 * time.Millisecond})
	_, err := run(t, r, `export default { fetch() { return new Promise((ok) => setTimeout(() => ok(new Response("late")), 60000)); } };`)
	if !errors.Is(err, ErrWallTime) || quire.IsLastingScriptError(err) {
		t.Fatalf("err = %v, want ErrWallTime, not lasting", err)
	}
}

func TestConcurrentRuns(t *testing.T) {
	r := New(Config{})
	script := `
export default {
	async fetch(request) {
		const n = Number(new URL(request.url).searchParams.get("n"));
		await new Promise((ok) => setTimeout(ok, 1));
		globalThis.seen = (globalThis.seen || 0) + n;
		return new Response(String(globalThis.seen));
	},
};`
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			req := get
			req.URL = get.URL + "?n=" + strconv.Itoa(i)
			res, err := r.RunScript(context.Background(), script, req)
			if err == nil && string(res.Response.Body) != strconv.Itoa(i) {
				err = fmt.Errorf("run %d answered %s", i, res.Response.Body)
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
