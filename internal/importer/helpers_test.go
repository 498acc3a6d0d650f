package importer_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
	"quire/internal/importer"
	"quire/internal/quire"
)

// quiet is a logger that drops everything.
var quiet = slog.New(slog.DiscardHandler)

// resource is one file a test site serves.
type resource struct {
	contentType string
	body        string
}

// site is a test server serving fixed resources and counting requests per
// path.
type site struct {
	*fetchtest.Server
	mu   sync.Mutex
	hits map[string]int
}

// serve starts a site; paths not in files answer 404.
func serve(t *testing.T, files map[string]resource) *site {
	t.Helper()
	s := &site{hits: map[string]int{}}
	s.Server = fetchtest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		res, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", res.contentType)
		_, _ = w.Write([]byte(res.body))
	})
	return s
}

// hit is how many times path was requested.
func (s *site) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// newImporter is an Importer allowed to reach the test servers.
func newImporter(opts importer.Options) *importer.Importer {
	opts.Logger = quiet
	return importer.New(fetch.New(fetch.Config{AllowLocal: true, Logger: quiet}), opts)
}

// run imports and fails the test on error.
func run(t *testing.T, im *importer.Importer, src importer.Source, url string) *importer.Result {
	t.Helper()
	res, err := im.Import(context.Background(), src, url)
	if err != nil {
		t.Fatalf("import %s %s: %v", src, url, err)
	}
	return res
}

// wantInvalid checks that err is a quire.Invalid on field whose message
// holds each of want.
func wantInvalid(t *testing.T, err error, field string, want ...string) {
	t.Helper()
	var qe *quire.Error
	if !errors.As(err, &qe) || qe.Code != quire.EINVALID || qe.Field != field {
		t.Fatalf("got %v, want an invalid %q error", err, field)
	}
	for _, w := range want {
		if !strings.Contains(qe.Message, w) {
			t.Errorf("message %q does not hold %q", qe.Message, w)
		}
	}
}

// wantContains checks that the file at path exists and holds each of want.
func wantContains(t *testing.T, files importer.Files, path string, want ...string) {
	t.Helper()
	b, ok := files[path]
	if !ok {
		t.Fatalf("no %s among %v", path, keys(files))
	}
	for _, w := range want {
		if !strings.Contains(string(b), w) {
			t.Errorf("%s does not hold %q:\n%s", path, w, b)
		}
	}
}

// keys lists the paths of files.
func keys(files importer.Files) []string {
	var out []string
	for k := range files {
		out = append(out, k)
	}
	return out
}

// html is a page with a title and a body.
func html(title, body string) resource {
	return resource{"text/html; charset=utf-8", "<!doctype html><html><head><title>" + title +
		" | Site</title></head><body>" + body + "</body></html>"}
}

// png is a tiny image.
var png = resource{"image/png", "\x89PNG\r\n\x1a\nfake image bytes"}

// guardedClient is a client with the default guard, refusing loopback addresses.
func guardedClient() *fetch.Client { return fetch.New(fetch.Config{Logger: quiet}) }
