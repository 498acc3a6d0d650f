package app_test

import (
	"context"
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
