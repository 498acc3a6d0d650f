package app_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestPageSettingsKeepCover checks that saving a page's settings without
// touching its cover keeps a cover by address with its dark image and
// position, offered as the current cover.
func TestPageSettingsKeepCover(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	o := newOpsSpace(t, h, false)
	cover := quire.PageCover{Ref: &quire.ContentRef{Kind: quire.RefURL, URL: "https://img.example/light.png"},
		RefDark: &quire.ContentRef{Kind: quire.RefURL, URL: "https://img.example/dark.png"}, YPos: 0.4}
	if _, _, err := h.Svc.UpdateChangeRequestContent(context.Background(), h.Admin, o.Space, o.CR.ID, []service.ContentChange{
		{Operation: service.OpUpdatePage, Page: o.B, Fields: service.PageFields{Cover: &service.CoverInput{Copy: &cover}}}}); err != nil {
		t.Fatal(err)
	}
	admin := h.client(t, h.signIn(t, h.Admin))
	st, _, body := h.get(t, admin, o.Ops+"/"+o.B+"/settings")
	if st != http.StatusOK || !strings.Contains(body, `<option value="current" selected>Current cover (https://img.example/light.png)</option>`) {
		t.Fatalf("the settings do not offer the current cover: %d\n%s", st, body)
	}
	form := url.Values{"title": {"B"}, "slug": {"b"}, "cover": {"current"}, "show_cover": {"on"}, "width": {"default"}}
	if st, _, body := h.postForm(t, admin, o.Ops+"/"+o.B+"/settings", form); st != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", st, problemText(body))
	}
	c := pageNamed(t, h, o.Ref, "B").Cover
	if c == nil || c.Ref == nil || *c.Ref != *cover.Ref || c.RefDark == nil || *c.RefDark != *cover.RefDark || c.YPos != cover.YPos {
		t.Errorf("after saving, the cover is %+v, want %+v", c, cover)
	}
	form.Set("cover", "")
	if st, _, body := h.postForm(t, admin, o.Ops+"/"+o.B+"/settings", form); st != http.StatusSeeOther {
		t.Fatalf("save without cover: %d\n%s", st, problemText(body))
	}
	if c := pageNamed(t, h, o.Ref, "B").Cover; c != nil {
		t.Errorf("No cover kept the cover %+v", c)
	}
}

// TestPageSettingsRefusedKeepsTyped checks that a refused settings form
// comes back with what was typed, not what is stored, its error naming
// the field.
func TestPageSettingsRefusedKeepsTyped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	o := newOpsSpace(t, h, false)
	admin := h.client(t, h.signIn(t, h.Admin))
	form := url.Values{"title": {"Typed title"}, "slug": {"Not A Slug"}, "emoji": {"🐝"}, "icon": {"bee"},
		"description": {"Typed description"}, "hidden": {"on"}, "cover": {""}, "show_outline": {"on"}, "width": {"wide"}}
	st, _, body := h.postForm(t, admin, o.Ops+"/"+o.B+"/settings", form)
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "Slug must be a URL path segment") {
		t.Fatalf("refused: %d\n%s", st, problemText(body))
	}
	for _, want := range []string{`value="Typed title"`, `value="Not A Slug" aria-describedby="set-slug-help" aria-invalid="true"`,
		`value="🐝"`, `value="bee"`, `>Typed description</textarea>`, `id="set-hidden" type="checkbox" name="hidden" checked`,
		`id="set-show-outline" type="checkbox" name="show_outline" checked`, `<option value="wide" selected>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refused form lost %s", want)
		}
	}
	if strings.Contains(body, `id="set-show-title" type="checkbox" name="show_title" checked`) {
		t.Errorf("the refused form shows the stored title setting, not the typed one")
	}
	form.Set("slug", "")
	form.Set("width", "huge")
	if st, _, body := h.postForm(t, admin, o.Ops+"/"+o.B+"/settings", form); st != http.StatusUnprocessableEntity ||
		!strings.Contains(body, `Width must be default (normal) or wide.`) || !strings.Contains(body, `id="set-width" name="width" aria-invalid="true"`) {
		t.Errorf("width: %d\n%s", st, problemText(body))
	}
	if b := pageNamed(t, h, o.Ref, "B"); b.Title != "B" || b.Hidden {
		t.Errorf("refused forms wrote: %+v", b)
	}
}

// settingsMultipart is the settings form as a browser sends it with a
// file chosen: the fields, and the image under cover_upload.
func settingsMultipart(t *testing.T, form url.Values, name string, data []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, vs := range form {
		for _, v := range vs {
			if err := w.WriteField(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	part, err := w.CreateFormFile("cover_upload", name)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	return w.FormDataContentType(), b.Bytes()
}

// TestPageSettingsCoverUpload checks that an image chosen in the page
// settings is added to the content and becomes the page's cover in one
// write, and that a file that is not an image, an empty one or one over
// the upload limit is refused naming the cover, writing nothing.
func TestPageSettingsCoverUpload(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	o := newOpsSpace(t, h, false)
	admin := h.client(t, h.signIn(t, h.Admin))
	path := o.Ops + "/" + o.B + "/settings"
	form := url.Values{"title": {"B"}, "slug": {"b"}, "cover": {""}, "show_cover": {"on"}, "width": {"default"}}

	for _, c := range []struct {
		name, file string
		data       []byte
		status     int
		want       string
	}{
		{"not an image", "notes.txt", []byte("plain words"), http.StatusUnprocessableEntity, "Cover must be an image"},
		{"empty", "empty.png", nil, http.StatusUnprocessableEntity, "Cover the image is empty"},
		{"too large", "big.png", append(pngBytes(t), make([]byte, service.MaxInlineFileBytes)...), http.StatusRequestEntityTooLarge, "cover: the image is larger than"},
	} {
		ct, body := settingsMultipart(t, form, c.file, c.data)
		// A body over the limit is not read to its end: it is refused
		// whole, naming the cover; the others come back as the form.
		st, out := h.postBody(t, admin, path, ct, body)
		form := c.status == http.StatusRequestEntityTooLarge ||
			strings.Contains(out, `id="set-cover-upload" type="file" name="cover_upload" accept="image/*" aria-invalid="true"`)
		if st != c.status || !strings.Contains(out, c.want) || !form {
			t.Errorf("%s: %d, want %d naming the cover\n%s", c.name, st, c.status, problemText(out))
		}
	}
	if b := pageNamed(t, h, o.Ref, "B"); b.Cover != nil {
		t.Fatalf("refused uploads set a cover: %+v", b.Cover)
	}

	ct, body := settingsMultipart(t, form, "Hero.png", pngBytes(t))
	if st, out := h.postBody(t, admin, path, ct, body); st != http.StatusSeeOther {
		t.Fatalf("upload: %d\n%s", st, problemText(out))
	}
	c := pageNamed(t, h, o.Ref, "B").Cover
	if c == nil || c.Ref == nil || c.Ref.Kind != quire.RefFile {
		t.Fatalf("the cover after the upload is %+v", c)
	}
	content, err := h.Svc.Content(context.Background(), o.Ref)
	if err != nil {
		t.Fatal(err)
	}
	files, err := content.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, f := range files {
		found = found || f.ID == c.Ref.File && f.Name == "Hero.png" && f.ContentType == "image/png"
	}
	if !found {
		t.Errorf("the cover %s is not the uploaded image among the files %+v", c.Ref.File, files)
	}
	st, _, page := h.get(t, admin, path)
	if st != http.StatusOK || !strings.Contains(page, `<option value="`+c.Ref.File+`" selected>Hero.png</option>`) {
		t.Errorf("the settings do not show the uploaded cover chosen: %d", st)
	}
}
