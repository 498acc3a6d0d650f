package main

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// newestMigration is the newest migration file of the PostgreSQL schema,
// relative to the repository's root.
func newestMigration(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join("internal", "store", "postgres", "migrations")
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return filepath.ToSlash(filepath.Join(dir, names[len(names)-1]))
}

// git runs git in dir and returns its trimmed output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// previousRelease builds the quire binary as it was just before the newest
// migration was added: the last binary whose schema is one migration
// behind. It skips the test when the source is not a Git checkout with
// its history (a release tarball, a shallow clone), except in CI, where
// the checkout has its history and the test must run.
func previousRelease(t *testing.T) (bin string, commit string) {
	t.Helper()
	root, err := git(".", "rev-parse", "--show-toplevel")
	if err == nil {
		var shallow string
		shallow, err = git(root, "rev-parse", "--is-shallow-repository")
		if err == nil && shallow == "true" {
			err = errors.New("the clone is shallow")
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the upgrade test needs the Git history of the source: %v", err)
		}
		t.Skipf("the upgrade test needs the Git history of the source: %v", err)
	}
	added, err := git(root, "log", "-1", "--diff-filter=A", "--format=%H", "--", newestMigration(t, root))
	if err != nil || added == "" {
		t.Fatalf("finding the commit that added %s: %q %v", newestMigration(t, root), added, err)
	}
	commit, err = git(root, "rev-parse", added+"^")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "src")
	archive := exec.Command("git", "archive", "--format=tar", commit)
	archive.Dir = root
	out, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := archive.Start(); err != nil {
		t.Fatal(err)
	}
	if err := untar(out, src); err != nil {
		t.Fatal(err)
	}
	if err := archive.Wait(); err != nil {
		t.Fatalf("git archive %s: %v", commit, err)
	}
	bin = filepath.Join(t.TempDir(), "quire-previous")
	build := exec.Command("go", "build", "-o", bin, "./cmd/quire")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building quire at %s: %v\n%s", commit, err, out)
	}
	return bin, commit
}

// untar writes the regular files and directories of a tar stream under
// dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) {
			return fmt.Errorf("untar: %q leaves the directory", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if err = errors.Join(err, f.Close()); err != nil {
				return err
			}
		}
	}
}

// balancer sends each request to one of the replicas it holds, as a load
// balancer in front of them does, and drains a replica before it is taken
// away: no new request goes to it and the ones under way finish.
type balancer struct {
	mu       sync.Mutex
	live     []*server
	inflight map[*server]int
	drained  *sync.Cond
	next     int
}

// newBalancer returns a balancer over servers.
func newBalancer(servers ...*server) *balancer {
	b := &balancer{live: servers, inflight: map[*server]int{}}
	b.drained = sync.NewCond(&b.mu)
	return b
}

// pick returns the next live replica, counted as busy until done is
// called.
func (b *balancer) pick() (s *server, done func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s = b.live[b.next%len(b.live)]
	b.next++
	b.inflight[s]++
	return s, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inflight[s]--
		b.drained.Broadcast()
	}
}

// add puts a replica behind the balancer.
func (b *balancer) add(s *server) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live = append(b.live, s)
}

// remove takes a replica away and waits until its requests are done.
func (b *balancer) remove(s *server) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, l := range b.live {
		if l == s {
			b.live = append(b.live[:i], b.live[i+1:]...)
			break
		}
	}
	for b.inflight[s] > 0 {
		b.drained.Wait()
	}
}

// upgradeLoad is the traffic of the rolling upgrade: spaces created,
// read, renamed and listed through the balancer, every answer checked.
type upgradeLoad struct {
	b            *balancer
	token, orgID string

	mu       sync.Mutex
	requests int
	failures []string
	spaces   map[string]string // id → title last set
}

// do sends one request through the balancer and decodes a 2xx JSON
// answer; anything else is a failure.
func (l *upgradeLoad) do(method, path, body string) map[string]any {
	s, done := l.b.pick()
	defer done()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		l.fail("%v", err)
		return nil
	}
	req.Header.Set("Authorization", "Bearer "+l.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	l.mu.Lock()
	l.requests++
	l.mu.Unlock()
	if err != nil {
		l.fail("%s %s via %s: %v", method, path, s.url, err)
		return nil
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode/100 != 2 {
		l.fail("%s %s via %s: %d %v %v", method, path, s.url, resp.StatusCode, out, err)
		return nil
	}
	return out
}

// fail records a failed request.
func (l *upgradeLoad) fail(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, fmt.Sprintf(format, args...))
}

// worker creates a space, then reads, renames and lists, until stop is
// closed.
func (l *upgradeLoad) worker(w int, stop <-chan struct{}) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		title := fmt.Sprintf("Space %d-%d", w, i)
		sp := l.do(http.MethodPost, "/v1/orgs/"+l.orgID+"/spaces", `{"title":"`+title+`"}`)
		id, _ := sp["id"].(string)
		if id == "" {
			continue
		}
		l.mu.Lock()
		l.spaces[id] = title
		l.mu.Unlock()
		if got := l.do(http.MethodGet, "/v1/spaces/"+id, ""); got != nil && got["title"] != title {
			l.fail("space %s reads %v, want %q", id, got["title"], title)
		}
		title += " renamed"
		if l.do(http.MethodPatch, "/v1/spaces/"+id, `{"title":"`+title+`"}`) != nil {
			l.mu.Lock()
			l.spaces[id] = title
			l.mu.Unlock()
		}
		l.do(http.MethodGet, "/v1/orgs/"+l.orgID+"/spaces?limit=20", "")
	}
}

// requestCount is how many requests were sent so far.
func (l *upgradeLoad) requestCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requests
}

// TestRollingUpgrade upgrades two replicas on one PostgreSQL database one
// at a time, from the binary before the newest migration to this one,
// while clients keep writing through a balancer that drains a replica
// before it stops. The new replica migrates the schema while an old one
// still serves on it; not one request may fail, and every write made
// before, during and after is there at the end.
func TestRollingUpgrade(t *testing.T) {
	base := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("QUIRE_TEST_POSTGRES_URL is not set")
	}
	oldBin, commit := previousRelease(t)
	newBin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The load is a load test: no rate limit of the new binary may answer
	// it 429 on a machine fast enough to pass the default (the previous
	// binary ignores the variable when it has no such limit).
	asNew := []string{asCommandEnv + "=1", "QUIRE_RATE_LIMIT=0"}
	dbURL := freshDatabase(t, base)

	oldA := startServerEnv(t, oldBin, dbURL, asNew[1:])
	token := readToken(t, oldA.data)
	oldB := startServerEnv(t, oldBin, dbURL, asNew[1:])
	orgs := getJSON(t, oldA.url+"/v1/orgs", token)
	orgID := orgs["items"].([]any)[0].(map[string]any)["id"].(string)

	// The new binary sees exactly the newest migration pending, and its
	// dry run changes nothing.
	plan := migrationPlan(t, newBin, asNew, dbURL)
	if len(plan.Pending) != 1 {
		t.Fatalf("the binary of %s leaves %d migrations pending, want 1: %+v", commit, len(plan.Pending), plan)
	}
	if again := migrationPlan(t, newBin, asNew, dbURL); again.From != plan.From || len(again.Pending) != 1 {
		t.Fatalf("the dry run changed the schema: %+v then %+v", plan, again)
	}

	b := newBalancer(oldA, oldB)
	load := &upgradeLoad{b: b, token: token, orgID: orgID, spaces: map[string]string{}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load.worker(w, stop)
		}()
	}
	// settle lets the load run until n more requests have been answered;
	// a load that stops answering altogether fails the test.
	settle := func(n int) {
		target, last, since := load.requestCount()+n, load.requestCount(), time.Now()
		for got := last; got < target; got = load.requestCount() {
			if got != last {
				last, since = got, time.Now()
			} else if time.Since(since) > time.Minute {
				close(stop)
				wg.Wait()
				t.Fatalf("no request answered for a minute; failures: %v", load.failures)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	settle(50)

	// Replace B: drained and stopped, then the new binary starts, migrates
	// the schema while A (old) serves, and joins.
	b.remove(oldB)
	oldB.stop()
	newB := startServerEnv(t, newBin, dbURL, asNew)
	b.add(newB)
	if after := migrationPlan(t, newBin, asNew, dbURL); len(after.Pending) != 0 || after.From != plan.To {
		t.Fatalf("after the new replica started the schema is at %d with %d pending, want %d", after.From, len(after.Pending), plan.To)
	}
	settle(100) // an old and a new replica side by side on the new schema

	b.remove(oldA)
	oldA.stop()
	newA := startServerEnv(t, newBin, dbURL, asNew)
	b.add(newA)
	settle(50)
	close(stop)
	wg.Wait()

	if len(load.failures) > 0 {
		t.Fatalf("%d of %d requests failed during the upgrade; first ones:\n%s", len(load.failures), load.requests,
			strings.Join(load.failures[:min(5, len(load.failures))], "\n"))
	}
	for id, title := range load.spaces {
		if got := getJSON(t, newA.url+"/v1/spaces/"+id, token); got["title"] != title {
			t.Errorf("space %s is %v after the upgrade, want %q", id, got["title"], title)
		}
	}
	t.Logf("%d requests, %d spaces, from %s (schema %d) to this binary (schema %d)", load.requests, len(load.spaces), commit[:12], plan.From, plan.To)
}

// migrationPlan runs "quire migrate --dry-run" and decodes what it prints.
func migrationPlan(t *testing.T, bin string, env []string, dbURL string) (plan struct {
	From, To int64
	Pending  []struct {
		Version       int64
		Name, Summary string
	}
}) {
	t.Helper()
	cmd := exec.Command(bin, "migrate", "--dry-run", "--database", dbURL)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("migrate --dry-run: %v %s", err, out)
	}
	if err := json.Unmarshal(out, &plan); err != nil {
		t.Fatalf("migrate --dry-run printed %q: %v", out, err)
	}
	return plan
}
