package httpapi

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
	"quire/internal/service"
)

// quietLogger drops everything.
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// fetchFrom returns a service option for a fetcher that refuses every
// non-public address except allowed.
func fetchFrom(allowed netip.AddrPort) service.Option {
	return service.WithFetcher(fetch.New(fetch.Config{Logger: quietLogger(), Guard: fetchtest.Only(allowed)}))
}

// urlFile is an insert_files file fetched from u.
func urlFile(name, u string) map[string]any { return map[string]any{"name": name, "url": u} }

// contentWriteRefused posts changes to a new change request, expects a 400
// and checks that the change request did not move; it returns the message.
func (ts *testServer) contentWriteRefused(t *testing.T, changes ...map[string]any) string {
	t.Helper()
	sp := ts.newSpace(t, "Files")
	cr := str(ts.newChangeRequest(t, sp, "Files"), "id")
	before := ts.crRevision(t, sp, cr)
	msg := ts.mustError(t, http.StatusBadRequest, "POST", crPath(sp, cr, "/content"), ts.token(cAdmin),
		map[string]any{"changes": changes})
	if after := ts.crRevision(t, sp, cr); after != before {
		t.Errorf("a refused write moved the change request from %s to %s", before, after)
	}
	return msg
}

func TestContentFetchRefusesLocalAddresses(t *testing.T) {
	t.Parallel()
	secret := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secret") })
	redirect := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, secret.URL+"/metrics", http.StatusFound)
	})
	ts := newTestServer(t, engineSQLite, fetchFrom(fetchtest.Addr(t, redirect.URL)))

	port := fetchtest.Addr(t, secret.URL).Port()
	for _, u := range []string{
		secret.URL + "/metrics",
		fmt.Sprintf("http://localhost:%d/metrics", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/metrics", port),
		ts.URL + "/v1/user",
		redirect.URL + "/file",
	} {
		msg := ts.contentWriteRefused(t, insertFiles(urlFile("f.txt", u)))
		wantContains(t, msg, "changes[0].files[0].url")
		wantContains(t, msg, "could not fetch "+u)
	}
	if n := secret.Hits.Load(); n != 0 {
		t.Errorf("the refused server was reached %d times", n)
	}
	if n := redirect.Hits.Load(); n != 1 {
		t.Errorf("the allowed server was reached %d times, want 1", n)
	}
}

func TestContentFetchErrorsAreAlike(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	open := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "open") })
	ts := newTestServer(t, engineSQLite, fetchFrom(fetchtest.Addr(t, closed.URL)))

	// A closed port the guard allows, a listening port it refuses, a port
	// it refuses that is closed: the messages differ only in the URL.
	urls := []string{closed.URL + "/f", open.URL + "/f", strings.Replace(closed.URL, "127.0.0.1", "127.0.0.2", 1) + "/f"}
	var first string
	for i, u := range urls {
		msg := strings.ReplaceAll(ts.contentWriteRefused(t, insertFiles(urlFile("f.txt", u))), u, "<url>")
		if i == 0 {
			first = msg
		} else if msg != first {
			t.Errorf("message for %s differs:\n%s\n%s", u, msg, first)
		}
		for _, leak := range []string{"refused", "dial", "127.0.0", "connect", "port"} {
			if strings.Contains(msg, leak) {
				t.Errorf("message for %s tells %q: %s", u, leak, msg)
			}
		}
	}
	if n := open.Hits.Load(); n != 0 {
		t.Errorf("the refused server was reached %d times", n)
	}
}

func TestContentFetchTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	stalled := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) })
	ts := newTestServer(t, engineSQLite, service.WithFetcher(fetch.New(fetch.Config{
		AllowLocal: true, Timeout: 50 * time.Millisecond, Logger: quietLogger()})))
	msg := ts.contentWriteRefused(t, insertFiles(urlFile("slow.txt", stalled.URL+"/slow")))
	wantContains(t, msg, "changes[0].files[0].url")
	wantContains(t, msg, "could not fetch "+stalled.URL+"/slow")
}

func TestContentFetchSizeCaps(t *testing.T) {
	t.Parallel()
	// /N answers N bytes, without a Content-Length when the query has
	// "chunked".
	files := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/"), &n)
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, strings.Repeat("x", n))
	})
	ts := newTestServer(t, engineSQLite,
		service.WithFetcher(fetch.New(fetch.Config{AllowLocal: true, MaxBytes: 100, Logger: quietLogger()})),
		service.WithFetchBudget(250))
	f := func(n int, q string) map[string]any {
		return urlFile(fmt.Sprintf("f%d.txt", n), fmt.Sprintf("%s/%d%s", files.URL, n, q))
	}

	for _, q := range []string{"", "?chunked"} {
		msg := ts.contentWriteRefused(t, insertFiles(f(10, q), f(101, q)))
		wantContains(t, msg, "changes[0].files[1].url")
		wantContains(t, msg, "larger than 100 bytes")

		msg = ts.contentWriteRefused(t, insertFiles(f(100, q), f(100, q)), insertFiles(f(51, q)))
		wantContains(t, msg, "changes[1].files[0].url")
		wantContains(t, msg, "at most 250 bytes")
	}

	// Within both caps, inline files not counted.
	sp := ts.newSpace(t, "Files")
	cr := str(ts.newChangeRequest(t, sp, "Files"), "id")
	res := ts.writeContent(t, sp, cr, insertFiles(f(100, ""), f(100, "?chunked")),
		insertFiles(f(50, ""), inlineFile("big.txt", make([]byte, 300))))
	if got, _ := res["insertedFiles"].([]any); len(got) != 4 {
		t.Fatalf("insertedFiles: %v", res["insertedFiles"])
	}
}
