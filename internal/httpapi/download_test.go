package httpapi

import (
	"bytes"
	"testing"
)

// TestDownloadActiveTypes checks that files a browser would render or run
// download as sandboxed attachments, and that other files stay inline.
func TestDownloadActiveTypes(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		reader := ts.token(cRead)
		sp := ts.newSpace(t, "Files")
		cr := str(ts.newChangeRequest(t, sp, "Add files"), "id")
		body := []byte("<script>alert(1)</script>")
		files := []struct {
			name, contentType string
			active            bool
		}{
			{"page.html", "", true},
			{"logo.svg", "", true},
			{"feed.xml", "", true},
			{"app.js", "", true},
			{"page.xhtml", "", true},
			{"notes", "text/html; charset=utf-8", true},
			{"atom", "application/atom+xml", true},
			{"odd", "not a type", true},
			{"image.png", "image/png", false},
			{"notes.txt", "", false},
		}
		var in []map[string]any
		for _, f := range files {
			m := inlineFile(f.name, body)
			if f.contentType != "" {
				m["contentType"] = f.contentType
			}
			in = append(in, m)
		}
		res := ts.writeContent(t, sp, cr, insertFiles(in...))
		rev := str(res, "changeRequest.revision")
		for i, f := range files {
			id := insertedFileID(t, res, i)
			r := ts.send(t, "GET", "/v1/spaces/"+sp+"/revisions/"+rev+"/files/"+id+"/download", reader, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, body) {
				t.Errorf("%s: %d %s", f.name, r.Status, r.Body)
				continue
			}
			disp, csp := r.Header.Get("Content-Disposition"), r.Header.Get("Content-Security-Policy")
			if f.active && (disp != `attachment; filename=`+quoteName(f.name) || csp != "sandbox") {
				t.Errorf("%s (%s): Content-Disposition %q, Content-Security-Policy %q; want a sandboxed attachment",
					f.name, r.Header.Get("Content-Type"), disp, csp)
			}
			if !f.active && (disp != `inline; filename=`+quoteName(f.name) || csp != "") {
				t.Errorf("%s (%s): Content-Disposition %q, Content-Security-Policy %q; want inline",
					f.name, r.Header.Get("Content-Type"), disp, csp)
			}
			if cc := r.Header.Get("Cache-Control"); cc == "no-store" || cc == "" {
				t.Errorf("%s: Cache-Control %q, want the download's own caching", f.name, cc)
			}
		}
	})
}

// quoteName renders a file name as Content-Disposition writes it.
func quoteName(name string) string {
	if bytes.ContainsAny([]byte(name), " ()<>@,;:\\\"/[]?=") {
		return `"` + name + `"`
	}
	return name
}

// TestAPINotCached checks that JSON answers of the API, errors included,
// are marked not to be cached.
func TestAPINotCached(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, c := range []struct {
			path, token string
			status      int
		}{
			{"/v1/user", ts.token(cRead), 200},
			{"/v1/orgs/" + ts.Org + "/spaces", ts.token(cRead), 200},
			{"/v1/user", "", 401},
			{"/v1/spaces/nosuchspace", ts.token(cRead), 404},
			{"/v1/no/such/endpoint", ts.token(cRead), 404},
			{"/v1/openapi.json", "", 200},
		} {
			r := ts.send(t, "GET", c.path, c.token, nil)
			if r.Status != c.status {
				t.Errorf("%s: status %d, want %d", c.path, r.Status, c.status)
			}
			if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s (%d): Cache-Control %q, want no-store", c.path, r.Status, cc)
			}
		}
	})
}
