package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
)

// quiet is a logger that drops everything.
var quiet = slog.New(slog.DiscardHandler)

// text answers with s.
func text(s string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, s) }
}

// get fetches rawURL and reads the whole body.
func get(ctx context.Context, c *fetch.Client, rawURL string) (string, error) {
	resp, err := c.Get(ctx, rawURL)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// wantFetchError checks that err is the bare *fetch.Error for rawURL.
func wantFetchError(t *testing.T, what string, err error, rawURL string) {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		t.Fatalf("%s: got %v, want a *fetch.Error", what, err)
	}
	if want := "could not fetch " + rawURL; err.Error() != want {
		t.Errorf("%s: message %q, want %q", what, err.Error(), want)
	}
}

func TestRefusesLocalAddresses(t *testing.T) {
	srv := fetchtest.Serve(t, text("secret"))
	port := fetchtest.Addr(t, srv.URL).Port()
	c := fetch.New(fetch.Config{Logger: quiet})
	for _, u := range []string{
		srv.URL + "/metrics",
		fmt.Sprintf("http://localhost:%d/", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port),
		fmt.Sprintf("http://127.1:%d/", port),
		fmt.Sprintf("http://2130706433:%d/", port),
	} {
		_, err := get(context.Background(), c, u)
		wantFetchError(t, u, err, u)
	}
	if n := srv.Hits.Load(); n != 0 {
		t.Errorf("the local server was reached %d times", n)
	}
}

func TestAllowLocal(t *testing.T) {
	srv := fetchtest.Serve(t, text("hello"))
	c := fetch.New(fetch.Config{AllowLocal: true, Logger: quiet})
	got, err := get(context.Background(), c, srv.URL+"/x")
	if err != nil || got != "hello" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestRedirectIsCheckedAgain(t *testing.T) {
	inner := fetchtest.Serve(t, text("secret"))
	outer := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/metrics", http.StatusFound)
	})
	c := fetch.New(fetch.Config{Guard: fetchtest.Only(fetchtest.Addr(t, outer.URL)), Logger: quiet})
	_, err := get(context.Background(), c, outer.URL+"/file")
	wantFetchError(t, "redirect to a refused address", err, outer.URL+"/file")
	if outer.Hits.Load() != 1 || inner.Hits.Load() != 0 {
		t.Errorf("hits: outer %d (want 1), inner %d (want 0)", outer.Hits.Load(), inner.Hits.Load())
	}

	// The same redirect is followed when the target is allowed.
	c = fetch.New(fetch.Config{AllowLocal: true, Logger: quiet})
	if got, err := get(context.Background(), c, outer.URL+"/file"); err != nil || got != "secret" {
		t.Errorf("allowed redirect: %q, %v", got, err)
	}
}

func TestRedirectLimit(t *testing.T) {
	var srv *fetchtest.Server
	srv = fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv.URL+r.URL.Path+"x", http.StatusFound)
	})
	c := fetch.New(fetch.Config{AllowLocal: true, MaxRedirects: 3, Logger: quiet})
	_, err := get(context.Background(), c, srv.URL+"/r")
	wantFetchError(t, "endless redirects", err, srv.URL+"/r")
	if n := srv.Hits.Load(); n != 4 {
		t.Errorf("%d requests for 3 redirects, want 4", n)
	}
}

func TestErrorsDoNotTellWhy(t *testing.T) {
	open := fetchtest.Serve(t, text("hello"))
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	allowed := fetchtest.Addr(t, closedURL)
	c := fetch.New(fetch.Config{Guard: fetchtest.Only(allowed), Logger: quiet})

	otherPort := fmt.Sprintf("http://127.0.0.1:%d/", allowed.Port()+1)
	for what, u := range map[string]string{
		"closed port":                        closedURL + "/f",
		"refused address with an open port":  open.URL + "/f",
		"refused address with another port":  otherPort,
		"refused address, closed port":       strings.Replace(closedURL, "127.0.0.1", "127.0.0.2", 1) + "/f",
		"scheme other than http and https":   "ftp://example.com/f",
		"no host":                            "http:///f",
		"refused address through a file URL": "file:///etc/passwd",
	} {
		_, err := get(context.Background(), c, u)
		wantFetchError(t, what, err, u)
	}
	if n := open.Hits.Load(); n != 0 {
		t.Errorf("the refused server was reached %d times", n)
	}
}

func TestStatusIsTold(t *testing.T) {
	srv := fetchtest.Serve(t, http.NotFound)
	c := fetch.New(fetch.Config{AllowLocal: true, Logger: quiet})
	_, err := get(context.Background(), c, srv.URL+"/gone")
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Status != "404 Not Found" {
		t.Fatalf("got %v, want a *fetch.Error with the status", err)
	}
}

// stall returns a handler that answers nothing until the client gives up
// or the test ends; with head set it sends the headers and a first byte.
func stall(t *testing.T, head bool) http.HandlerFunc {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return func(w http.ResponseWriter, r *http.Request) {
		if head {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte("x"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
}

func TestTimeout(t *testing.T) {
	for _, head := range []bool{false, true} {
		srv := fetchtest.Serve(t, stall(t, head))
		c := fetch.New(fetch.Config{AllowLocal: true, Timeout: 50 * time.Millisecond, Logger: quiet})
		_, err := get(context.Background(), c, srv.URL+"/slow")
		wantFetchError(t, fmt.Sprintf("stalled server (headers sent: %v)", head), err, srv.URL+"/slow")
	}
}

func TestContextEndsTheFetch(t *testing.T) {
	srv := fetchtest.Serve(t, stall(t, false))
	c := fetch.New(fetch.Config{AllowLocal: true, Logger: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for srv.Hits.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := get(ctx, c, srv.URL+"/slow")
	wantFetchError(t, "cancelled request", err, srv.URL+"/slow")
}

func TestSizeCap(t *testing.T) {
	srv := fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := len(r.URL.Path) - 1
		if r.URL.Query().Has("length") {
			w.Header().Set("Content-Length", fmt.Sprint(n))
		} else {
			// Flushing first forces a chunked body of unknown length.
			w.(http.Flusher).Flush()
		}
		_, _ = io.WriteString(w, strings.Repeat("a", n))
	})
	c := fetch.New(fetch.Config{AllowLocal: true, MaxBytes: 10, Logger: quiet})
	for _, q := range []string{"", "?length"} {
		if got, err := get(context.Background(), c, srv.URL+"/"+strings.Repeat("a", 10)+q); err != nil || len(got) != 10 {
			t.Errorf("10 bytes%s: %d bytes, %v", q, len(got), err)
		}
		_, err := get(context.Background(), c, srv.URL+"/"+strings.Repeat("a", 11)+q)
		var tl *fetch.TooLargeError
		if !errors.As(err, &tl) || tl.Max != 10 || !errors.Is(err, fetch.ErrTooLarge) {
			t.Errorf("11 bytes%s: got %v, want too large", q, err)
		}
	}
}

func TestFailureIsLoggedAtDebug(t *testing.T) {
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String() + "/f"
	ln.Close()
	c := fetch.New(fetch.Config{Logger: log})
	if _, err := get(context.Background(), c, u); err == nil {
		t.Fatal("fetched a refused address")
	}
	if !strings.Contains(logged.String(), "destination address refused") {
		t.Errorf("the reason is not logged: %s", logged.String())
	}
}
