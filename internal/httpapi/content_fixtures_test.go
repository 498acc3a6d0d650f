package httpapi

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Builders of content changes for updateChangeRequestContent.

// md is a page body given as Markdown.
func md(text string) map[string]any { return map[string]any{"markdown": text} }

// insertPage is an insert_page change; extra adds fields (ref, into, at,
// title...).
func insertPage(title, markdown string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "title": title, "document": md(markdown)}
	return withPairs(c, extra...)
}

// updatePage is an update_page change of the page id (or batch ref).
func updatePage(page string, extra ...any) map[string]any {
	return withPairs(map[string]any{"operation": "update_page", "page": page}, extra...)
}

// deletePage is a delete_page change.
func deletePage(page string) map[string]any {
	return map[string]any{"operation": "delete_page", "page": page}
}

// revertPage is a revert_page change.
func revertPage(page string, extra ...any) map[string]any {
	return withPairs(map[string]any{"operation": "revert_page", "page": page}, extra...)
}

// insertFiles is an insert_files change.
func insertFiles(files ...map[string]any) map[string]any {
	list := make([]any, 0, len(files))
	for _, f := range files {
		list = append(list, f)
	}
	return map[string]any{"operation": "insert_files", "files": list}
}

// inlineFile is a file of an insert_files change given in base64.
func inlineFile(name string, data []byte, extra ...any) map[string]any {
	return withPairs(map[string]any{"name": name, "base64": base64.StdEncoding.EncodeToString(data)}, extra...)
}

// withPairs sets key/value pairs on a map.
func withPairs(m map[string]any, kv ...any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// pngBytes encodes a w×h PNG image.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: uint8(40 * x), G: uint8(60 * y), B: 200, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatalf("encode png: %v", err)
	}
	return b.Bytes()
}

// crPath returns the API path of a change request plus a suffix.
func crPath(space, cr, suffix string) string {
	return "/v1/spaces/" + space + "/change-requests/" + cr + suffix
}

// writeContent applies changes to a change request as the admin and
// returns the detailed answer (compat=false).
func (ts *testServer) writeContent(t *testing.T, space, cr string, changes ...map[string]any) map[string]any {
	t.Helper()
	return ts.writeContentAs(t, ts.token(cAdmin), space, cr, changes...)
}

// writeContentAs applies changes as the caller with token.
func (ts *testServer) writeContentAs(t *testing.T, token, space, cr string, changes ...map[string]any) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "POST", crPath(space, cr, "/content?compat=false"), token,
		map[string]any{"changes": changes})
}

// changedPage returns the page id of the i-th outcome of a detailed
// content write answer.
func changedPage(t *testing.T, res map[string]any, i int) string {
	t.Helper()
	id := str(res, "changes."+itoa(i)+".page.id")
	if id == "" {
		t.Fatalf("change %d of the answer names no page: %v", i, res["changes"])
	}
	return id
}

// insertedFileID returns the id of the i-th inserted file of a detailed
// content write answer.
func insertedFileID(t *testing.T, res map[string]any, i int) string {
	t.Helper()
	id := str(res, "insertedFiles."+itoa(i)+".file.id")
	if id == "" {
		t.Fatalf("answer has no inserted file %d: %v", i, res["insertedFiles"])
	}
	return id
}

// itoa formats an index.
func itoa(i int) string { return strconv.Itoa(i) }

// mergeCR merges a change request as the admin and checks that it merged.
func (ts *testServer) mergeCR(t *testing.T, space, cr string) map[string]any {
	t.Helper()
	res := ts.must(t, http.StatusOK, "POST", crPath(space, cr, "/merge"), ts.token(cAdmin), nil)
	if res["result"] != "merge" {
		t.Fatalf("merge of %s: %v", cr, res)
	}
	return res
}

// spaceRevision reads a space's current revision id.
func (ts *testServer) spaceRevision(t *testing.T, space string) string {
	t.Helper()
	return str(ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space, ts.token(cAdmin), nil), "revision")
}

// crRevision reads a change request's current revision id.
func (ts *testServer) crRevision(t *testing.T, space, cr string) string {
	t.Helper()
	return str(ts.must(t, http.StatusOK, "GET", crPath(space, cr, ""), ts.token(cAdmin), nil), "revision")
}

// pageMarkdown reads a page's content as Markdown at a content base path
// (/v1/spaces/{s}, .../change-requests/{c} or .../revisions/{r}).
func (ts *testServer) pageMarkdown(t *testing.T, base, page string) string {
	t.Helper()
	p := ts.must(t, http.StatusOK, "GET", pageRoute(base, page)+"?format=markdown", ts.token(cAdmin), nil)
	s, ok := p["markdown"].(string)
	if !ok {
		t.Fatalf("page %s has no markdown: %v", page, p)
	}
	return s
}

// pageRoute is the page-by-id read under a content base path: spaces and
// change requests read under /content/page, revisions under /page.
func pageRoute(base, page string) string {
	if strings.Contains(base, "/revisions/") {
		return base + "/page/" + page
	}
	return base + "/content/page/" + page
}

// contentFixture is a space whose main content and one open change request
// hold pages and a file.
type contentFixture struct {
	Space string
	// Main content, also in the change request.
	MainRevision        string
	Page, Child         string // "Guide" and its child "Setup"
	PagePath, ChildPath string
	File                string
	// The change request, which also adds the page Draft.
	CR, CRRevision string
	Draft          string
}

// newContentFixture fills a space: a first change request adds two pages
// and a file and is merged, a second one adds a page and changes one.
func (ts *testServer) newContentFixture(t *testing.T, space string) *contentFixture {
	t.Helper()
	f := &contentFixture{Space: space}
	first := str(ts.newChangeRequest(t, space, "Initial content"), "id")
	res := ts.writeContent(t, space, first,
		insertPage("Guide", "The guide.", "ref", "guide"),
		insertPage("Setup", "How to set up.", "into", "guide"),
		insertFiles(inlineFile("logo.png", pngBytes(t, 2, 2))))
	f.Page, f.Child, f.File = changedPage(t, res, 0), changedPage(t, res, 1), insertedFileID(t, res, 0)
	f.PagePath, f.ChildPath = "guide", "guide/setup"
	f.MainRevision = str(ts.mergeCR(t, space, first), "revision")
	f.CR = str(ts.newChangeRequest(t, space, "More content"), "id")
	res = ts.writeContent(t, space, f.CR,
		insertPage("Draft", "Not yet merged."),
		updatePage(f.Page, "document", md("The guide, revised.")))
	f.Draft = changedPage(t, res, 0)
	f.CRRevision = str(res, "changeRequest.revision")
	return f
}
