package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// postUpload sends the import page's upload form as a browser does
// (where the import goes, and a file, none when name is empty) and
// answers the status, the redirect's address and the body.
func (h *harness) postUpload(t *testing.T, c *http.Client, path, into, name string, data []byte) (int, string, string) {
	t.Helper()
	ctype, body := multipartForm(t, [][2]string{{"into", into}}, name, data)
	return h.do(t, c, http.MethodPost, path, bytes.NewReader(body), http.Header{
		"Content-Type": {ctype}, "Origin": {h.URL}, "Sec-Fetch-Site": {"same-origin"}})
}

// zipBytes is a zip of files.
func zipBytes(t *testing.T, files ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		w, err := zw.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestContentImportUpload imports uploaded files from the import page: a
// Markdown file into a new change request and a zip into the space, with
// the counts the service reports; a form without a file, a file of
// another kind, too large, empty or not of the kind its name says, and
// an unknown change request come back naming the field with nothing
// made; a reader is refused.
func TestContentImportUpload(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		hb := newHandbookFixture(t, h)
		id, admin, reader := hb.ID, hb.Admin, hb.Reader
		base := "/app/s/" + id + "/~/import"
		upload := base + "/upload"

		status, _, body := h.get(t, admin, base)
		if status != http.StatusOK || !strings.Contains(body, `action="`+upload+`" enctype="multipart/form-data"`) ||
			!strings.Contains(body, `type="file" name="file"`) || !strings.Contains(body, "At most 1 MB.") {
			t.Fatalf("import page without the upload form: %d\n%s", status, body)
		}

		crCount := func() int {
			t.Helper()
			l, err := h.Svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: id}, quire.Page{})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}
		before, err := h.Store.Space(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what, into, name string
			data             []byte
			status           int
			says             string
		}{
			{"no file", "space", "", nil, http.StatusUnprocessableEntity, "File is missing: choose a Markdown, HTML or zip file."},
			{"another kind", "new", "report.docx", []byte("PK"), http.StatusUnprocessableEntity, `File "report.docx" is not a Markdown, HTML or zip file.`},
			{"too large", "space", "big.md", bytes.Repeat([]byte("a"), service.MaxInlineFileBytes+1), http.StatusRequestEntityTooLarge,
				"File is larger than 1 MB, the most one upload may hold."},
			{"empty", "space", "empty.md", nil, http.StatusUnprocessableEntity, "File empty.md is empty."},
			{"not text", "space", "notes.md", []byte("\x00\x01\x02"), http.StatusUnprocessableEntity, "File notes.md is not a UTF-8 text file."},
			{"not a zip", "space", "pages.zip", []byte("not a zip"), http.StatusUnprocessableEntity, "File pages.zip is not a valid zip archive."},
			{"unknown change request", "nosuchchange", "notes.md", []byte("# Notes\n"), http.StatusUnprocessableEntity,
				"Import into choose one of the listed change requests."},
		} {
			status, _, body := h.postUpload(t, admin, upload, c.into, c.name, c.data)
			if status != c.status || !strings.Contains(body, html.EscapeString(c.says)) {
				t.Errorf("%s: %d, want %d saying %q\n%s", c.what, status, c.status, c.says, body)
				continue
			}
			if c.status == http.StatusUnprocessableEntity && c.into != "nosuchchange" &&
				(!strings.Contains(body, `id="import-file-error"`) || !strings.Contains(body, `aria-invalid="true"`)) {
				t.Errorf("%s: the file field is not marked", c.what)
			}
		}
		if status, _, _ := h.postUpload(t, reader, upload, "space", "notes.md", []byte("# Notes\n")); status != http.StatusForbidden {
			t.Errorf("reader's upload: %d, want 403", status)
		}
		after, err := h.Store.Space(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if n := crCount(); n != 0 || after.Revision != before.Revision {
			t.Fatalf("refused uploads made %d change requests, or moved the space", n)
		}

		// A Markdown file into a new change request.
		status, loc, _ := h.postUpload(t, admin, upload, "new", "release-notes.md", []byte("# Release notes\n\nWhat changed.\n"))
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, base+"?") {
			t.Fatalf("upload: %d %q", status, loc)
		}
		l, err := h.Svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: id}, quire.Page{})
		if err != nil || len(l.Items) != 1 || l.Items[0].Subject != "Import from release-notes.md" {
			t.Fatalf("the upload's change request: %+v %v", l, err)
		}
		status, _, body = h.get(t, admin, loc)
		if status != http.StatusOK || !strings.Contains(body, "Import done: 1 of 1 resource imported.") ||
			!strings.Contains(body, `href="/app/s/`+id+`/~/changes/`+strconv.Itoa(l.Items[0].Number)+`"`) {
			t.Fatalf("page after the upload: %d\n%s", status, body)
		}

		// A zip into the space, merged at once.
		z := zipBytes(t, [2]string{"guide/setup.md", "# Setup\n\nRun it.\n"}, [2]string{"guide/faq.html", "<h1>FAQ</h1><p>Ask.</p>"})
		status, loc, _ = h.postUpload(t, admin, upload, "space", "guide.zip", z)
		if status != http.StatusSeeOther || strings.Contains(loc, "change=") {
			t.Fatalf("zip upload: %d %q", status, loc)
		}
		status, _, body = h.get(t, admin, loc)
		if status != http.StatusOK || !strings.Contains(body, "Import done: 2 of 2 resources imported.") ||
			!strings.Contains(body, "The content is merged into") {
			t.Fatalf("page after the zip upload: %d\n%s", status, body)
		}
		if after, err := h.Store.Space(ctx, id); err != nil || after.Revision == before.Revision {
			t.Fatalf("the zip upload did not move the space: %v", err)
		}
	})
}
