package app_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"quire/internal/app"
	"quire/internal/fetch"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
)

// openAPIOf keeps the OpenAPI specifications service of each harness.
type openAPIOf struct {
	mu sync.Mutex
	m  map[*harness]*service.OpenAPISpecs
}

// option gives the app and the API of a harness the OpenAPI
// specifications service, fetching through a client that reaches the
// servers the tests start on loopback. The harness's queue started
// before options apply, so it runs no processing: the tests run each
// job themselves (openAPIProcess), as the queue's worker would.
func (o *openAPIOf) option() harnessOption {
	return func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		specs := service.NewOpenAPISpecs(h.Svc, fetch.New(fetch.Config{AllowLocal: true}), service.OpenAPIOptions{})
		acfg.OpenAPI, cfg.OpenAPI = specs, specs
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.m == nil {
			o.m = map[*harness]*service.OpenAPISpecs{}
		}
		o.m[h] = specs
	}
}

// of returns the specifications service of a harness.
func (o *openAPIOf) of(h *harness) *service.OpenAPISpecs {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[h]
}

// openAPIProcess runs the processing job of a specification's current
// generation and returns the specification as it left it.
func openAPIProcess(t *testing.T, h *harness, specs *service.OpenAPISpecs, slug string) *quire.OpenAPISpec {
	t.Helper()
	ctx := context.Background()
	spec, err := specs.Get(ctx, h.Org, slug)
	if err != nil {
		t.Fatal(err)
	}
	if err := specs.RunJob(ctx, service.OpenAPIJob{Spec: spec.ID, Generation: spec.Generation}); err != nil {
		t.Fatal(err)
	}
	if spec, err = specs.Get(ctx, h.Org, slug); err != nil {
		t.Fatal(err)
	}
	return spec
}

// specFiles serves the files of specifications on loopback; a test
// changes them between fetches.
type specFiles struct {
	mu    sync.Mutex
	files map[string]string
}

// set puts a file at a path.
func (s *specFiles) set(path, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]string{}
	}
	s.files[path] = text
}

// serve starts the server, on 127.0.0.1, closed at the end of the test.
func (s *specFiles) serve(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		text, ok := s.files[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/yaml")
		_, _ = w.Write([]byte(text))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// specUpload is the add form as a browser sends it with a file.
func specUpload(t *testing.T, slug, url, name string, data []byte) (string, []byte) {
	t.Helper()
	return multipartForm(t, [][2]string{{"slug", slug}, {"url", url}}, name, data)
}

// petstoreV2 is petstore with a second operation.
const petstoreV2 = petstore + `  /pets/{petId}:
    get:
      summary: Find a pet
      operationId: findPet
      parameters:
        - name: petId
          in: path
          required: true
          schema:
            type: integer
      responses:
        "200":
          description: The pet
`

// brokenRefMain refers to a file whose YAML breaks on its line 3.
const (
	brokenRefMain = `openapi: 3.0.3
info:
  title: Zoo
  version: 1.0.0
paths:
  /animals:
    get:
      responses:
        "200":
          description: The animals
          content:
            application/json:
              schema:
                $ref: "./schemas.yaml#/Animal"
`
	brokenSchemas = "Animal:\n  type: object\n  properties: [\n"
)

// TestOpenAPIForms drives the specifications' forms as a browser without
// script would: adding by URL and by file, each page showing its
// processing until complete; a specification whose file breaks shows
// the file and line; Refresh now fetches the URL again and makes a new
// version; visibility changes; delete asks, then deletes. Bad input is
// refused naming its field and stores nothing; people below create are
// refused.
func TestOpenAPIForms(t *testing.T) {
	t.Parallel()
	var oas openAPIOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		specs := oas.of(h)
		var files specFiles
		files.set("/petstore.yaml", petstore)
		files.set("/zoo/openapi.yaml", brokenRefMain)
		files.set("/zoo/schemas.yaml", brokenSchemas)
		origin := files.serve(t)
		admin := h.client(t, h.signIn(t, h.Admin))
		list := "/app/o/" + h.Org + "/openapi"

		status, _, body := h.get(t, admin, list)
		if status != http.StatusOK || !strings.Contains(body, "Add a specification") || !strings.Contains(body, `enctype="multipart/form-data"`) {
			t.Fatalf("the list offers no form to add (%d)", status)
		}

		// By URL: the page shows it pending, reloading itself, until it
		// is processed.
		status, loc, body := h.postForm(t, admin, list, url.Values{"slug": {"petstore"}, "url": {origin + "/petstore.yaml"}})
		if status != http.StatusSeeOther || loc != list+"/petstore?done=added" {
			t.Fatalf("add by URL: %d to %q\n%s", status, loc, problemText(body))
		}
		_, _, body = h.get(t, admin, loc)
		for _, want := range []string{"The specification was added.", `<span class="badge">pending</span> Waiting to be processed`,
			`<meta http-equiv="refresh" content="3">`, "No version yet", ">Refresh now</button>"} {
			if !strings.Contains(body, want) {
				t.Errorf("the page of a new specification does not show %q", want)
			}
		}
		if spec := openAPIProcess(t, h, specs, "petstore"); spec.State != quire.OpenAPIComplete || spec.LastVersion == "" {
			t.Fatalf("processed: %+v", spec)
		}
		_, _, body = h.get(t, admin, list+"/petstore")
		if !strings.Contains(body, `<span class="badge">complete</span> Processed`) || strings.Contains(body, "http-equiv") ||
			strings.Count(body, "(latest)") != 1 || !strings.Contains(body, ">petstore.yaml</a>") {
			t.Errorf("the processed specification's page:\n%s", problemText(body))
		}

		// By file: no URL to fetch again.
		ct, up := specUpload(t, "uploaded", "", "petstore.yaml", []byte(petstore))
		if status, body := h.postBody(t, admin, list, ct, up); status != http.StatusSeeOther {
			t.Fatalf("add by file: %d\n%s", status, problemText(body))
		}
		if spec := openAPIProcess(t, h, specs, "uploaded"); spec.SourceText != petstore || spec.SourceURL != "" || spec.LastVersion == "" {
			t.Fatalf("the uploaded specification: %+v", spec)
		}
		_, _, body = h.get(t, admin, list+"/uploaded")
		if !strings.Contains(body, "Uploaded text") || !strings.Contains(body, ">complete<") || strings.Contains(body, "Refresh now") {
			t.Errorf("the uploaded specification's page:\n%s", problemText(body))
		}
		status, _, body = h.postForm(t, admin, list+"/uploaded/refresh", nil)
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Source is an uploaded file: there is no URL to fetch again.") {
			t.Errorf("refreshing an upload: %d\n%s", status, problemText(body))
		}

		// A file that breaks: the problem with its file and line.
		if status, _, _ := h.postForm(t, admin, list, url.Values{"slug": {"zoo"}, "url": {origin + "/zoo/openapi.yaml"}}); status != http.StatusSeeOther {
			t.Fatalf("add zoo: %d", status)
		}
		if spec := openAPIProcess(t, h, specs, "zoo"); spec.ErrorCode != quire.OpenAPIParseError || len(spec.Errors) == 0 {
			t.Fatalf("zoo: %+v", spec)
		}
		_, _, body = h.get(t, admin, list+"/zoo")
		for _, want := range []string{`<span class="badge badge-danger">failed</span> Failed: the source is not a valid OpenAPI document`,
			"Problems of the last processing", "(schemas.yaml, line 3"} {
			if !strings.Contains(body, want) {
				t.Errorf("the failed specification's page does not show %q\n%s", want, problemText(body))
			}
		}
		_, _, body = h.get(t, admin, list)
		if !strings.Contains(body, ">failed</span>") || !strings.Contains(body, ">complete</span>") {
			t.Errorf("the list does not show the states")
		}

		// Refresh now: the URL's new text makes a second version.
		files.set("/petstore.yaml", petstoreV2)
		status, loc, _ = h.postForm(t, admin, list+"/petstore/refresh", nil)
		if status != http.StatusSeeOther || loc != list+"/petstore?done=refresh" {
			t.Fatalf("refresh: %d to %q", status, loc)
		}
		if _, _, body = h.get(t, admin, loc); !strings.Contains(body, ">pending</span>") || !strings.Contains(body, "being fetched again") {
			t.Errorf("the refreshed specification is not shown pending")
		}
		openAPIProcess(t, h, specs, "petstore")
		_, versions, err := specs.Versions(ctx, h.Org, "petstore", quire.Page{Limit: 10})
		if err != nil || len(versions.Items) != 2 {
			t.Fatalf("versions after the refresh: %v %d", err, len(versions.Items))
		}
		_, _, body = h.get(t, admin, list+"/petstore")
		if strings.Count(body, ">petstore.yaml</a>") != 2 || strings.Count(body, "(latest)") != 1 {
			t.Errorf("the page does not list both versions")
		}

		// Visibility.
		status, loc, _ = h.postForm(t, admin, list+"/petstore/visibility", url.Values{"visibility": {"public"}})
		if status != http.StatusSeeOther || loc != list+"/petstore?done=visibility" {
			t.Fatalf("visibility: %d to %q", status, loc)
		}
		if spec, _ := specs.Get(ctx, h.Org, "petstore"); spec.Visibility != quire.OpenAPIPublic {
			t.Fatalf("visibility is %q", spec.Visibility)
		}
		_, _, body = h.get(t, admin, loc)
		if !strings.Contains(body, "Public: anyone may read its files") || !strings.Contains(body, `<option value="public" selected>`) {
			t.Errorf("the page does not show the specification public")
		}

		// Delete: asked first without a script, then done.
		status, _, body = h.postForm(t, admin, list+"/zoo/delete", nil)
		if status != http.StatusOK || !strings.Contains(body, "Delete the specification “zoo”?") {
			t.Fatalf("delete without confirming: %d", status)
		}
		if _, err := specs.Get(ctx, h.Org, "zoo"); err != nil {
			t.Fatalf("the specification went before the confirmation: %v", err)
		}
		status, loc, _ = h.postForm(t, admin, list+"/zoo/delete", url.Values{"confirm": {"yes"}})
		if status != http.StatusSeeOther || loc != list+"?done=deleted" {
			t.Fatalf("delete: %d to %q", status, loc)
		}
		if _, err := specs.Get(ctx, h.Org, "zoo"); !quire.IsNotFound(err) {
			t.Fatalf("zoo after delete: %v", err)
		}
		if status, _, _ := h.get(t, admin, list+"/zoo"); status != http.StatusNotFound {
			t.Errorf("the deleted specification's page: %d", status)
		}
	}, oas.option())
}

// TestOpenAPIFormsMalformed sends the forms wrong: each answer names the
// field, and nothing is stored.
func TestOpenAPIFormsMalformed(t *testing.T) {
	t.Parallel()
	var oas openAPIOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		specs := oas.of(h)
		if _, err := specs.Create(ctx, h.Org, "petstore", service.OpenAPISource{Text: petstore}); err != nil {
			t.Fatal(err)
		}
		before := openAPIFacts(t, h, specs)
		admin := h.client(t, h.signIn(t, h.Admin))
		list := "/app/o/" + h.Org + "/openapi"
		form := func(kv ...string) url.Values {
			v := url.Values{}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return v
		}
		for _, c := range []struct {
			name, path string
			form       url.Values
			status     int
			says       string
		}{
			{"empty slug", list, form("slug", " ", "url", "https://api.example/openapi.yaml"), http.StatusUnprocessableEntity, "Slug must not be empty."},
			{"bad slug", list, form("slug", "Pet Store", "url", "https://api.example/openapi.yaml"), http.StatusUnprocessableEntity, "Slug must be lowercase letters and digits"},
			{"long slug", list, form("slug", strings.Repeat("a", 101), "url", "https://api.example/openapi.yaml"), http.StatusUnprocessableEntity, "Slug must be at most 100 characters."},
			{"slug taken", list, form("slug", "petstore", "url", "https://api.example/openapi.yaml"), http.StatusConflict, "Slug is taken by another specification"},
			{"no source", list, form("slug", "zoo"), http.StatusUnprocessableEntity, "Source give a URL or choose a file."},
			{"bad URL", list, form("slug", "zoo", "url", "ftp://api.example/openapi.yaml"), http.StatusUnprocessableEntity, "URL must be an http or https URL."},
			{"not a URL", list, form("slug", "zoo", "url", "openapi.yaml"), http.StatusUnprocessableEntity, "URL must be an http or https URL."},
			{"long URL", list, form("slug", "zoo", "url", "https://api.example/"+strings.Repeat("a", 2048)), http.StatusUnprocessableEntity, "URL must be at most 2048 characters."},
			{"bad visibility", list + "/petstore/visibility", form("visibility", "secret"), http.StatusUnprocessableEntity, "Visibility choose private or public."},
			{"no visibility", list + "/petstore/visibility", nil, http.StatusUnprocessableEntity, "Visibility choose private or public."},
			{"unknown specification", list + "/nosuch/visibility", form("visibility", "public"), http.StatusNotFound, "There is nothing here"},
			{"refresh unknown", list + "/nosuch/refresh", nil, http.StatusNotFound, "There is nothing here"},
			{"delete unknown", list + "/nosuch/delete", form("confirm", "yes"), http.StatusNotFound, "There is nothing here"},
		} {
			status, _, body := h.postForm(t, admin, c.path, c.form)
			if status != c.status || !strings.Contains(body, c.says) {
				t.Errorf("%s: %d, want %d saying %q\n%s", c.name, status, c.status, c.says, problemText(body))
			}
		}
		// The form keeps what was typed, the field at fault marked.
		_, _, body := h.postForm(t, admin, list, form("slug", "Pet Store", "url", "https://api.example/openapi.yaml"))
		if !strings.Contains(body, `value="Pet Store"`) || !strings.Contains(body, `value="https://api.example/openapi.yaml"`) ||
			!regexp.MustCompile(`id="spec-slug"[^>]*aria-invalid="true"`).MatchString(body) {
			t.Errorf("the refused form is not drawn again as typed")
		}

		// Files: too large (the API's body limit), not text, empty, both
		// a URL and a file.
		for _, c := range []struct {
			name, url string
			data      []byte
			status    int
			says      string
		}{
			{"too large", "", bytes.Repeat([]byte("a"), httpapi.OpenAPISpecMaxBody+1), http.StatusRequestEntityTooLarge, "File is larger than 16 MB"},
			{"not UTF-8", "", []byte{0xff, 0xfe, 'a'}, http.StatusUnprocessableEntity, "File must be a text file (YAML or JSON) in UTF-8."},
			{"blank", "", []byte("  \n"), http.StatusUnprocessableEntity, "File must not be blank."},
			{"URL and file", "https://api.example/openapi.yaml", []byte(petstore), http.StatusUnprocessableEntity, "Source give a URL or a file, not both."},
		} {
			ct, up := specUpload(t, "zoo", c.url, "zoo.yaml", c.data)
			status, body := h.postBody(t, admin, list, ct, up)
			if status != c.status || !strings.Contains(body, c.says) {
				t.Errorf("%s: %d, want %d saying %q\n%s", c.name, status, c.status, c.says, problemText(body))
			}
		}
		status, body := h.postBody(t, admin, list, "multipart/form-data; boundary=zzz", []byte("--zzz\r\nContent-Disposition: form-data; name=\"slug\"\r\n\r\nunterminated"))
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "File the upload is not a valid multipart body.") {
			t.Errorf("a broken multipart body: %d\n%s", status, problemText(body))
		}

		// People below create are refused; an outsider finds nothing.
		ct, up := specUpload(t, "zoo", "", "zoo.yaml", []byte(petstore))
		for _, c := range []struct {
			role   quire.Role
			status int
		}{{quire.RoleRead, http.StatusForbidden}, {quire.RoleEdit, http.StatusForbidden}, {"", http.StatusNotFound}} {
			email, name := "m-"+string(c.role)+"@acme.test", "Member "+string(c.role)
			if c.role == "" {
				email, name = "otto@other.test", "Otto Outsider"
			}
			who := h.client(t, h.signIn(t, h.newUser(t, email, name, c.role)))
			if status, _ := h.postBody(t, who, list, ct, up); status != c.status {
				t.Errorf("%q adding: %d, want %d", c.role, status, c.status)
			}
			for _, p := range []string{"/petstore/visibility", "/petstore/refresh", "/petstore/delete"} {
				if status, _, _ := h.postForm(t, who, list+p, form("visibility", "public", "confirm", "yes")); status != c.status {
					t.Errorf("%q on %s: %d, want %d", c.role, p, status, c.status)
				}
			}
			if c.role == quire.RoleRead {
				_, _, page := h.get(t, who, list+"/petstore")
				_, _, l := h.get(t, who, list)
				if strings.Contains(page, "Save visibility") || strings.Contains(page, "Delete specification") || strings.Contains(l, "Add a specification") {
					t.Errorf("a reader is offered the forms")
				}
			}
		}
		if after := openAPIFacts(t, h, specs); after != before {
			t.Fatalf("refused requests changed the specifications:\nbefore: %s\nafter:  %s", before, after)
		}
	}, oas.option())
}

// openAPIFacts describes the organization's specifications.
func openAPIFacts(t *testing.T, h *harness, specs *service.OpenAPISpecs) string {
	t.Helper()
	l, err := specs.List(context.Background(), h.Org, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range l.Items {
		b.WriteString(s.Slug + " " + string(s.Visibility) + " " + string(s.State) + " " + s.SourceURL + ";")
	}
	return b.String()
}

// openAPIRoutesFixture gives the organization the specification the
// route table tests name: petstore, given as text.
func openAPIRoutesFixture(t *testing.T, h *harness, specs *service.OpenAPISpecs) {
	t.Helper()
	if _, err := specs.Create(context.Background(), h.Org, "petstore", service.OpenAPISource{Text: petstore}); err != nil {
		t.Fatal(err)
	}
}
