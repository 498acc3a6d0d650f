package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// pngBytes is a small PNG image.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// multipartFile is a multipart body holding a file under field, with its
// content type.
func multipartFile(t *testing.T, field, name, ctype string, data []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name=%q; filename=%q`, field, name)}
	if ctype != "" {
		h["Content-Type"] = []string{ctype}
	}
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	return w.FormDataContentType(), b.Bytes()
}

// postBody sends a body to a path from the app's own origin.
func (h *harness) postBody(t *testing.T, c *http.Client, path, ctype string, body []byte) (int, string) {
	t.Helper()
	status, _, out := h.do(t, c, http.MethodPost, path, bytes.NewReader(body), http.Header{
		"Content-Type": {ctype}, "Origin": {h.URL}, "Sec-Fetch-Site": {"same-origin"}})
	return status, out
}

// toolAnswer is what the Markdown tools' addresses answer.
type toolAnswer struct {
	Markdown string      `json:"markdown"`
	File     *quire.File `json:"file"`
	Error    string      `json:"error"`
	Field    string      `json:"field"`
}

func readAnswer(t *testing.T, body string) toolAnswer {
	t.Helper()
	var a toolAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, body)
	}
	return a
}

// TestEditFilesUpload uploads an image and a PDF into a change request:
// each answers the Markdown that shows it, which, saved in a page, draws
// the stored file from the app's file address; and every bad upload is
// a 4xx naming the file field, storing nothing.
func TestEditFilesUpload(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		base := "/app/s/" + f.Space.ID + "/~/edit/"
		filesOf := func(n string) string { return base + n + "/files" }
		open := strconv.Itoa(f.Open)

		ct, body := multipartFile(t, "file", "Screen shot.png", "image/png", pngBytes(t))
		status, out := h.postBody(t, admin, filesOf(open), ct, body)
		if status != http.StatusOK {
			t.Fatalf("upload: %d %s", status, out)
		}
		img := readAnswer(t, out)
		if img.File == nil || img.File.ContentType != "image/png" || img.File.Width != 3 || img.File.Height != 2 {
			t.Fatalf("stored file: %+v", img.File)
		}
		if want := "![Screen shot](" + img.File.ID + ")\n"; img.Markdown != want {
			t.Fatalf("markdown %q, want %q", img.Markdown, want)
		}
		ct, body = multipartFile(t, "file", "guide [v2].pdf", "", []byte("%PDF-1.4 a tiny document"))
		status, out = h.postBody(t, admin, filesOf(open), ct, body)
		if status != http.StatusOK {
			t.Fatalf("upload: %d %s", status, out)
		}
		pdf := readAnswer(t, out)
		if pdf.File.ContentType != "application/pdf" || !strings.HasPrefix(pdf.Markdown, `{% file src="`+pdf.File.ID+`" %}`) {
			t.Fatalf("pdf: %+v %q", pdf.File, pdf.Markdown)
		}
		// Saved in a page, the Markdown draws the stored files at the
		// app's file addresses of the change request's revision.
		md := "Intro.\n\n" + img.Markdown + "\n" + pdf.Markdown
		if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, f.Space.ID, open, []service.ContentChange{
			{Operation: service.OpUpdatePage, Page: f.Install, Document: &service.DocumentInput{Markdown: &md}}}); err != nil {
			t.Fatal(err)
		}
		cr, err := h.Svc.ChangeRequest(ctx, f.Space.ID, open)
		if err != nil {
			t.Fatal(err)
		}
		status, _, page := h.get(t, admin, "/app/s/"+f.Space.ID+"/~/changes/"+open+"/guides/install")
		if status != http.StatusOK {
			t.Fatalf("page: %d", status)
		}
		fileURL := "/app/s/" + f.Space.ID + "/~/files/" + cr.Revision + "/"
		if !regexp.MustCompile(`<img[^>]+src="` + regexp.QuoteMeta(fileURL+img.File.ID) + `"`).MatchString(page) {
			t.Fatalf("the page draws no image of the upload at %s", fileURL+img.File.ID)
		}
		if !strings.Contains(page, fileURL+pdf.File.ID) || !strings.Contains(page, "guide [v2].pdf") {
			t.Fatalf("the page draws no file block of the PDF")
		}
		if status, _, got := h.get(t, admin, fileURL+img.File.ID); status != http.StatusOK || got != string(pngBytes(t)) {
			t.Fatalf("file address: %d", status)
		}

		// Bad uploads.
		big := bytes.Repeat([]byte("x"), service.MaxInlineFileBytes+1)
		archived, err := h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space.ID, "Abandoned")
		if err != nil {
			t.Fatal(err)
		}
		st := quire.CRArchived
		if _, err := h.Svc.UpdateChangeRequest(ctx, f.Space.ID, archived.ID, service.ChangeRequestPatch{Status: &st}); err != nil {
			t.Fatal(err)
		}
		locked, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Locked", EditMode: quire.EditModeLocked})
		if err != nil {
			t.Fatal(err)
		}
		lockedLive := "/app/s/" + locked.Space.ID + "/~/edit/live/files"
		ctPNG, okBody := multipartFile(t, "file", "a.png", "image/png", pngBytes(t))
		ctBig, bigBody := multipartFile(t, "file", "big.bin", "", big)
		ctOther, otherBody := multipartFile(t, "other", "a.png", "image/png", pngBytes(t))
		for _, c := range []struct {
			name, path, ctype string
			body              []byte
			status            int
			says              string
		}{
			{"too large", filesOf(open), ctBig, bigBody, http.StatusRequestEntityTooLarge, "file: the file is larger than 1 MB"},
			{"no file", filesOf(open), ctOther, otherBody, http.StatusBadRequest, "file: choose a file to upload"},
			{"not multipart", filesOf(open), "application/x-www-form-urlencoded", []byte("file=abc"), http.StatusBadRequest, "file: send the file as multipart/form-data"},
			{"malformed multipart", filesOf(open), "multipart/form-data; boundary=zzz", []byte("--zzz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nunterminated"), http.StatusBadRequest, "file: the upload is not a valid multipart body"},
			{"no boundary", filesOf(open), "multipart/form-data", okBody, http.StatusBadRequest, "file: the upload is not a valid multipart body"},
			{"unknown change request", filesOf("999"), ctPNG, okBody, http.StatusNotFound, "change request not found"},
			{"not a target", filesOf("draft"), ctPNG, okBody, http.StatusNotFound, "There is nothing here"},
			{"live in a space edited through change requests", lockedLive, ctPNG, okBody, http.StatusBadRequest, "not live"},
			{"archived change request", filesOf(strconv.Itoa(archived.Number)), ctPNG, okBody, http.StatusBadRequest, "archived"},
		} {
			status, out := h.postBody(t, admin, c.path, c.ctype, c.body)
			if status != c.status || !strings.Contains(out, c.says) {
				t.Errorf("%s: %d %s, want %d saying %q", c.name, status, out, c.status, c.says)
			}
		}
		after, err := h.Svc.ChangeRequest(ctx, f.Space.ID, open)
		if err != nil {
			t.Fatal(err)
		}
		if after.Revision != cr.Revision {
			t.Fatalf("a refused upload wrote the change request")
		}
	})
}

// TestEditFilesLive uploads into a live space's main content: one merged
// change holding the file.
func TestEditFilesLive(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		if f.Space.EditMode != quire.EditModeLive {
			t.Fatalf("the fixture's space is %q, not live", f.Space.EditMode)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		ct, body := multipartFile(t, "file", "notes.txt", "text/plain", []byte("hello"))
		status, out := h.postBody(t, admin, "/app/s/"+f.Space.ID+"/~/edit/live/files", ct, body)
		if status != http.StatusOK {
			t.Fatalf("%d %s", status, out)
		}
		a := readAnswer(t, out)
		sp, err := h.Store.Space(ctx, f.Space.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.SpaceFile(ctx, f.Space.ID, sp.Revision, a.File.ID); err != nil {
			t.Fatalf("the live space's revision holds no uploaded file: %v", err)
		}
	})
}

// TestEditConvert converts pasted HTML: a web page's selection, a Word
// document's and a Google Docs document's clipboard markup, keeping
// marks, headings, lists, tables and links, and dropping scripts, styles
// and office markup.
func TestEditConvert(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		path := "/app/s/" + f.Space.ID + "/~/edit/" + strconv.Itoa(f.Open) + "/convert"
		convert := func(html string) (int, toolAnswer) {
			status, _, out := h.postForm(t, admin, path, url.Values{"html": {html}})
			return status, readAnswer(t, out)
		}
		for _, c := range convertCases {
			status, a := convert(c.html)
			if status != http.StatusOK {
				t.Errorf("%s: %d %s", c.name, status, a.Error)
				continue
			}
			for _, want := range c.want {
				if !strings.Contains(a.Markdown, want) {
					t.Errorf("%s: no %q in\n%s", c.name, want, a.Markdown)
				}
			}
			for _, not := range c.not {
				if strings.Contains(a.Markdown, not) {
					t.Errorf("%s: %q kept in\n%s", c.name, not, a.Markdown)
				}
			}
		}
		for _, c := range []struct {
			name, path, html string
			status           int
			says             string
		}{
			{"empty", path, "  ", http.StatusBadRequest, "html: paste some HTML"},
			{"too large", path, strings.Repeat("<p>x</p>", service.MaxPastedHTMLBytes/8+1), http.StatusRequestEntityTooLarge, "html: the pasted content is too large"},
			{"unknown change request", "/app/s/" + f.Space.ID + "/~/edit/999/convert", "<p>x</p>", http.StatusNotFound, "not found"},
		} {
			status, _, out := h.postForm(t, admin, c.path, url.Values{"html": {c.html}})
			if status != c.status || !strings.Contains(out, c.says) {
				t.Errorf("%s: %d %s, want %d saying %q", c.name, status, out, c.status, c.says)
			}
		}
		locked, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Locked", EditMode: quire.EditModeLocked})
		if err != nil {
			t.Fatal(err)
		}
		status, _, out := h.postForm(t, admin, "/app/s/"+locked.Space.ID+"/~/edit/live/convert", url.Values{"html": {"<p>x</p>"}})
		if status != http.StatusBadRequest || !strings.Contains(out, "not live") {
			t.Errorf("live in a locked space: %d %s", status, out)
		}
		// A form that is not a form.
		status, out = h.postBody(t, admin, path, "application/x-www-form-urlencoded", []byte("html=%zz"))
		if status != http.StatusBadRequest || !strings.Contains(out, "html: send the HTML as a form field") {
			t.Errorf("malformed form: %d %s", status, out)
		}
	})
}
