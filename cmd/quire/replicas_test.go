package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"crypto/rand"
	"encoding/hex"

	_ "github.com/jackc/pgx/v5/stdlib"

	"quire/internal/testutil"
)

// TestReplicasNumberChangeRequests runs two quire serve processes on one
// PostgreSQL database and creates change requests through both at once:
// the numbers must be exactly 1..n, with no gap and no repeat.
func TestReplicasNumberChangeRequests(t *testing.T) {
	first, second, token, orgID := startReplicas(t)
	space := postJSON(t, first.url+"/v1/orgs/"+orgID+"/spaces", token, `{"title":"Replicas"}`)
	spaceID := space["id"].(string)

	const perServer, workers = 20, 4
	var (
		mu      sync.Mutex
		numbers []int
		wg      sync.WaitGroup
	)
	for _, srv := range []*server{first, second} {
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(srv *server) {
				defer wg.Done()
				for i := 0; i < perServer/workers; i++ {
					cr := postJSON(t, srv.url+"/v1/spaces/"+spaceID+"/change-requests", token, `{"subject":"x"}`)
					mu.Lock()
					numbers = append(numbers, int(cr["number"].(float64)))
					mu.Unlock()
				}
			}(srv)
		}
	}
	wg.Wait()
	sort.Ints(numbers)
	for i, n := range numbers {
		if n != i+1 {
			t.Fatalf("numbers are not 1..%d without gaps: %v", len(numbers), numbers)
		}
	}
	sp := getJSON(t, second.url+"/v1/spaces/"+spaceID, token)
	if got := int(sp["changeRequests"].(float64)); got != len(numbers) {
		t.Fatalf("space counts %d change requests, want %d", got, len(numbers))
	}
}

// server is a running quire serve process.
type server struct {
	url, data string
	// stop ends the process gracefully and waits for it; it may be
	// called more than once.
	stop func()
}

// startServer starts quire serve on a free port and waits until it is
// ready; the process is stopped when the test ends.
func startServer(t *testing.T, bin, dbURL string) *server {
	t.Helper()
	return startServerEnv(t, bin, dbURL, nil)
}

// startServerEnv is startServer with env added to the process's
// environment.
func startServerEnv(t *testing.T, bin, dbURL string, env []string) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	data := t.TempDir()
	var logs testutil.SyncBuffer
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data", data, "--database", dbURL)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		})
	}
	t.Cleanup(stop)
	s := &server{url: "http://" + addr, data: data, stop: stop}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(s.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server at %s did not become ready:\n%s", addr, logs.String())
		}
	}
}

// readToken reads the admin token the first server wrote.
func readToken(t *testing.T, data string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(data, "admin-token"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// freshDatabase creates a database on the server at base and drops it when
// the test ends.
func freshDatabase(t *testing.T, base string) string {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "quire_replicas_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// getJSON does an authenticated GET and decodes the object answered.
func getJSON(t *testing.T, u, token string) map[string]any {
	t.Helper()
	return doJSON(t, http.MethodGet, u, token, "")
}

// postJSON does an authenticated POST and decodes the object answered.
func postJSON(t *testing.T, u, token, body string) map[string]any {
	t.Helper()
	return doJSON(t, http.MethodPost, u, token, body)
}

// doJSON sends a request and decodes a 2xx JSON object answer.
func doJSON(t *testing.T, method, u, token, body string) map[string]any {
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return nil
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode/100 != 2 {
		t.Errorf("%s %s: %d %v %v", method, u, resp.StatusCode, out, err)
		return map[string]any{"number": float64(-1)}
	}
	return out
}

// TestReplicasMergeWithoutRetry merges change requests of one space through
// two quire serve processes at once, each adding its own page: none
// conflicts with another, so every merge answers merged, none is told to
// try again, and main ends with every page.
func TestReplicasMergeWithoutRetry(t *testing.T) {
	first, second, token, orgID := startReplicas(t)
	spaceID := postJSON(t, first.url+"/v1/orgs/"+orgID+"/spaces", token, `{"title":"Replicas"}`)["id"].(string)
	const perServer = 10
	var crs []string
	for i := range 2 * perServer {
		path := first.url + "/v1/spaces/" + spaceID + "/change-requests"
		cr := postJSON(t, path, token, `{"subject":"x"}`)["id"].(string)
		postJSON(t, path+"/"+cr+"/content", token,
			`{"changes":[{"operation":"insert_page","title":"Page `+strconv.Itoa(i)+`","document":{"markdown":"Text."}}]}`)
		crs = append(crs, cr)
	}
	if t.Failed() {
		t.FailNow()
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, cr := range crs {
		srv := []*server{first, second}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res := postJSON(t, srv.url+"/v1/spaces/"+spaceID+"/change-requests/"+cr+"/merge", token, "")
			if res["result"] != "merge" {
				t.Errorf("merge of %s through %s: %v", cr, srv.url, res)
			}
		}()
	}
	close(start)
	wg.Wait()
	pages := getJSON(t, second.url+"/v1/spaces/"+spaceID+"/content/pages", token)
	if got, _ := pages["pages"].([]any); len(got) != len(crs) {
		t.Fatalf("main has %d pages, want %d", len(got), len(crs))
	}
}

// startReplicas builds quire and starts two serve processes on one fresh
// PostgreSQL database; it returns them, the admin token and the
// organization made on first start. It skips the test when
// QUIRE_TEST_POSTGRES_URL is not set.
func startReplicas(t *testing.T) (first, second *server, token, orgID string) {
	t.Helper()
	base := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("QUIRE_TEST_POSTGRES_URL is not set")
	}
	dbURL := freshDatabase(t, base)
	bin := filepath.Join(t.TempDir(), "quire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	first = startServer(t, bin, dbURL)
	token = readToken(t, first.data)
	second = startServer(t, bin, dbURL)
	orgs := getJSON(t, first.url+"/v1/orgs", token)
	orgID = orgs["items"].([]any)[0].(map[string]any)["id"].(string)
	return first, second, token, orgID
}
