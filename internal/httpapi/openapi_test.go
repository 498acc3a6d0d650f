package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// openAPITestTimeout is the fetch timeout of the test servers' OpenAPI
// specifications.
const openAPITestTimeout = 2 * time.Second

// readSpecDoc reads a test document of internal/apiref.
func readSpecDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "apiref", "testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// specServer serves files at paths, with ETag and Last-Modified, and
// counts the full answers and the 304s.
type specServer struct {
	mu    sync.Mutex
	files map[string]string
	full  atomic.Int64
	same  atomic.Int64
	URL   string
}

// newSpecServer starts a specServer on 127.0.0.1.
func newSpecServer(t *testing.T, files map[string]string) *specServer {
	t.Helper()
	s := &specServer{files: files}
	srv := serveLocal(t, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		text, ok := s.files[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		sum := sha256.Sum256([]byte(text))
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		if r.Header.Get("If-None-Match") == etag {
			s.same.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		s.full.Add(1)
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "application/yaml")
		_, _ = w.Write([]byte(text))
	})
	s.URL = srv
	return s
}

// set replaces the text served at path.
func (s *specServer) set(path, text string) {
	s.mu.Lock()
	s.files[path] = text
	s.mu.Unlock()
}

// serveLocal starts a test server answering with h and returns its URL.
func serveLocal(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// specPath returns the API path of a specification.
func (ts *testServer) specPath(slug string, suffix ...string) string {
	return ts.OrgPath("/openapi/" + slug + strings.Join(suffix, ""))
}

// waitSpec waits until the specification has completed a processing
// other than the one recorded at after (a lastProcessedAt, or "").
func (ts *testServer) waitSpec(t *testing.T, slug, after string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		spec := ts.must(t, http.StatusOK, "GET", ts.specPath(slug), ts.token(cRead), nil)
		if str(spec, "processingState") == "complete" && str(spec, "lastProcessedAt") != after {
			return spec
		}
		if time.Now().After(deadline) {
			t.Fatalf("specification %s not processed: %v", slug, spec)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// versionCount returns the number of versions of a specification.
func (ts *testServer) versionCount(t *testing.T, slug string) int {
	t.Helper()
	l := ts.must(t, http.StatusOK, "GET", ts.specPath(slug, "/versions"), ts.token(cRead), nil)
	items, _ := l["items"].([]any)
	return len(items)
}

func TestOpenAPIFromTextAndURL(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		// From text.
		spec := ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), ts.token(cCreate),
			map[string]any{"slug": "pets-31", "source": map[string]any{"text": readSpecDoc(t, "petstore-3.1.yaml")}})
		wantFields(t, spec, map[string]any{"object": "openapi-spec", "slug": "pets-31", "processingState": "pending",
			"visibility": "private", "permissions.edit": true})
		spec = ts.waitSpec(t, "pets-31", "")
		if str(spec, "lastVersion") == "" || spec["lastProcessErrorCode"] != nil {
			t.Fatalf("text spec: %v", spec)
		}
		if n := ts.versionCount(t, "pets-31"); n != 1 {
			t.Errorf("text spec has %d versions", n)
		}
		ts.mustError(t, http.StatusConflict, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "pets-31", "source": map[string]any{"text": "openapi: 3.0.0"}})

		// From a URL, with a relative $ref to a second file.
		srv := newSpecServer(t, map[string]string{
			"/api/openapi.yaml":     readSpecDoc(t, "petstore-3.0.yaml"),
			"/api/schemas/pet.yaml": readSpecDoc(t, "schemas/pet.yaml"),
		})
		spec = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "pets", "source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}})
		wantFields(t, spec, map[string]any{"sourceURL": srv.URL + "/api/openapi.yaml"})
		spec = ts.waitSpec(t, "pets", "")
		first := str(spec, "lastVersion")
		if first == "" || spec["lastProcessErrorCode"] != nil {
			t.Fatalf("URL spec: %v", spec)
		}
		content := ts.must(t, http.StatusOK, "GET", ts.specPath("pets", "/versions/latest/content"), ts.token(cRead), nil)
		fsys, _ := content["filesystem"].(map[string]any)
		if len(fsys) != 2 || fsys["openapi.yaml"] == nil || fsys["schemas/pet.yaml"] == nil || content["main"] != "openapi.yaml" {
			t.Fatalf("filesystem: %v", content)
		}
		byID := ts.must(t, http.StatusOK, "GET", ts.specPath("pets", "/versions/"+first+"/content"), ts.token(cRead), nil)
		if byID["url"] == nil {
			t.Errorf("content by id: %v", byID)
		}

		// Refresh: an unchanged source makes no version, and its main
		// file is asked for conditionally.
		processed := str(spec, "lastProcessedAt")
		ts.Clock.Advance(2 * time.Hour)
		if n, err := ts.OpenAPI.Refresh(t.Context()); err != nil || n != 1 {
			t.Fatalf("refresh queued %d: %v", n, err)
		}
		spec = ts.waitSpec(t, "pets", processed)
		if str(spec, "lastVersion") != first || ts.versionCount(t, "pets") != 1 {
			t.Errorf("an unchanged source made a version: %v", spec)
		}
		if srv.same.Load() == 0 {
			t.Error("the refresh did not send the ETag of the last answer")
		}
		// A changed referenced file makes a second version.
		srv.set("/api/schemas/pet.yaml", readSpecDoc(t, "schemas/pet.yaml")+"  color:\n    type: string\n")
		processed = str(spec, "lastProcessedAt")
		ts.Clock.Advance(2 * time.Hour)
		if _, err := ts.OpenAPI.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		spec = ts.waitSpec(t, "pets", processed)
		second := str(spec, "lastVersion")
		if second == first || ts.versionCount(t, "pets") != 2 {
			t.Fatalf("a changed file made no version: %v", spec)
		}
		l := ts.must(t, http.StatusOK, "GET", ts.specPath("pets", "/versions"), ts.token(cRead), nil)
		if str(l, "items.0.id") != second || str(l, "items.1.id") != first {
			t.Errorf("versions not newest first: %v", l)
		}
		latest := ts.must(t, http.StatusOK, "GET", ts.specPath("pets", "/versions/latest"), ts.token(cRead), nil)
		wantFields(t, latest, map[string]any{"object": "openapi-spec-version", "id": second})
		ts.mustError(t, http.StatusNotFound, "GET", ts.specPath("pets", "/versions/nope"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", ts.specPath("nope", "/versions"), admin, nil)
	})
}

func TestOpenAPIVersionsAndFormats(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		// PUT creates (201), then updates (200).
		ts.must(t, http.StatusCreated, "PUT", ts.specPath("swagger"), admin,
			map[string]any{"source": map[string]any{"text": readSpecDoc(t, "petstore-2.0.json")}})
		spec := ts.waitSpec(t, "swagger", "")
		if spec["lastProcessErrorCode"] != nil || ts.versionCount(t, "swagger") != 1 {
			t.Fatalf("swagger 2.0: %v", spec)
		}
		// The same document again, reformatted: no new version.
		ts.must(t, http.StatusOK, "PUT", ts.specPath("swagger"), admin,
			map[string]any{"source": map[string]any{"text": strings.ReplaceAll(readSpecDoc(t, "petstore-2.0.json"), "\n", "\n  ")}})
		spec = ts.waitSpec(t, "swagger", str(spec, "lastProcessedAt"))
		if ts.versionCount(t, "swagger") != 1 {
			t.Errorf("a reformatted document made a version")
		}
		// A broken document: PARSE_ERROR with the line, the last good
		// version kept.
		good := str(spec, "lastVersion")
		ts.must(t, http.StatusOK, "PATCH", ts.specPath("swagger"), admin, map[string]any{"visibility": "private",
			"source": map[string]any{"text": "swagger: \"2.0\"\ninfo:\n  title: x\n  version: 1\npaths:\n  /a: [\n"}})
		spec = ts.waitSpec(t, "swagger", str(spec, "lastProcessedAt"))
		wantFields(t, spec, map[string]any{"lastProcessErrorCode": "PARSE_ERROR", "lastVersion": good,
			"lastProcessedErrors.0.line": 6, "lastProcessedErrors.0.file": "openapi.yaml", "lastProcessedErrorCount": 1})
		if !strings.Contains(str(spec, "lastProcessedErrors.0.message"), "line 6") {
			t.Errorf("message without the line: %v", spec["lastProcessedErrors"])
		}
		// Something that is not an OpenAPI document.
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "notes", "source": map[string]any{"text": "title: notes\nitems: [1, 2]\n"}})
		spec = ts.waitSpec(t, "notes", "")
		wantFields(t, spec, map[string]any{"lastProcessErrorCode": "PARSE_ERROR", "lastProcessedErrors.0.code": "not-openapi"})
		if spec["lastVersion"] != nil {
			t.Errorf("a broken document made a version: %v", spec)
		}
		ts.mustError(t, http.StatusNotFound, "GET", ts.specPath("notes", "/versions/latest"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", ts.specPath("notes", "/versions/latest/content"), admin, nil)
		// OpenAPI 3.0 given as text with a relative $ref cannot read it.
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "refs", "source": map[string]any{"text": readSpecDoc(t, "petstore-3.0.yaml")}})
		spec = ts.waitSpec(t, "refs", "")
		if str(spec, "lastProcessErrorCode") != "PARSE_ERROR" || !strings.Contains(str(spec, "lastProcessedErrors.0.message"), "schemas/pet.yaml") {
			t.Errorf("text with a relative ref: %v", spec)
		}
		// Delete: 205, then 204.
		ts.must(t, http.StatusResetContent, "DELETE", ts.specPath("notes"), admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", ts.specPath("notes"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", ts.specPath("notes"), admin, nil)
		l := ts.must(t, http.StatusOK, "GET", ts.OrgPath("/openapi"), ts.token(cRead), nil)
		wantFields(t, l, map[string]any{"count": 2, "items.0.slug": "swagger", "items.0.permissions.edit": false})
	})
}

func TestOpenAPIFetchFailures(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		silent := serveLocal(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "silent", "source": map[string]any{"url": silent + "/openapi.yaml"}})
		spec := ts.waitSpec(t, "silent", "")
		wantFields(t, spec, map[string]any{"lastProcessErrorCode": "FETCH_TIMEOUT"})
		if !strings.Contains(str(spec, "lastProcessedErrors.0.message"), silent) {
			t.Errorf("timeout message: %v", spec["lastProcessedErrors"])
		}
		missing := newSpecServer(t, map[string]string{"/openapi.yaml": readSpecDoc(t, "petstore-3.0.yaml")})
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "missing", "source": map[string]any{"url": missing.URL + "/openapi.yaml"}})
		spec = ts.waitSpec(t, "missing", "")
		wantFields(t, spec, map[string]any{"lastProcessErrorCode": "FETCH_ERROR", "lastProcessedErrors.0.file": "openapi.yaml"})
		if msg := str(spec, "lastProcessedErrors.0.message"); !strings.Contains(msg, "404") || !strings.Contains(msg, "schemas/pet.yaml") {
			t.Errorf("missing file message: %s", msg)
		}
		html := newSpecServer(t, map[string]string{"/docs": "<html><body>Not a spec</body></html>"})
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "html", "source": map[string]any{"url": html.URL + "/docs"}})
		spec = ts.waitSpec(t, "html", "")
		wantFields(t, spec, map[string]any{"lastProcessErrorCode": "PARSE_ERROR"})
	})
}

func TestOpenAPIFileLinks(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		text := readSpecDoc(t, "petstore-3.1.yaml")
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), admin,
			map[string]any{"slug": "pets", "source": map[string]any{"text": text}})
		spec := ts.waitSpec(t, "pets", "")
		if spec["urls"].(map[string]any)["published"] != nil {
			t.Errorf("a private specification has a published URL: %v", spec["urls"])
		}
		content := ts.must(t, http.StatusOK, "GET", ts.specPath("pets", "/versions/latest/content"), ts.token(cRead), nil)
		link := strings.TrimPrefix(str(content, "url"), testBaseURL)
		if !strings.Contains(link, "signature=") {
			t.Fatalf("private link not signed: %s", link)
		}
		r := ts.send(t, "GET", link, "", nil)
		if r.Status != http.StatusOK || !bytes.Equal(r.Body, []byte(text)) {
			t.Fatalf("signed link: %d %s", r.Status, r.Body)
		}
		unsigned, _, _ := strings.Cut(link, "?")
		ts.mustError(t, http.StatusForbidden, "GET", unsigned, "", nil)
		ts.mustError(t, http.StatusForbidden, "GET", strings.Replace(link, "signature=", "signature=x", 1), "", nil)
		// Public: the unsigned link and the published URL work.
		spec = ts.must(t, http.StatusOK, "PATCH", ts.specPath("pets"), admin, map[string]any{"visibility": "public"})
		published := strings.TrimPrefix(str(spec, "urls.published"), testBaseURL)
		for _, u := range []string{unsigned, published} {
			if r := ts.send(t, "GET", u, "", nil); r.Status != http.StatusOK || !bytes.Equal(r.Body, []byte(text)) {
				t.Errorf("public link %s: %d", u, r.Status)
			}
		}
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/openapi-files/nope/latest", "", nil)
	})
}
