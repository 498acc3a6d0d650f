package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestEditorBrowser edits a page as a writer would: "Edit" opens their
// draft change request, a paragraph is edited in place and autosaved,
// then drawn; a block is edited by keyboard alone; another writer's save
// of the same block meanwhile shows both versions, and the writer keeps
// theirs by choosing; the page's Markdown mode previews as it is typed.
// Screenshots of the editor, the conflict and the Markdown mode.
func TestEditorBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	ctx := context.Background()
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	sp := h.URL + "/app/s/" + f.Space.ID

	b.Viewport(1280, 900, false)
	b.Open(sp+"/guides/install", http.StatusOK)
	b.H1("Install")
	b.Click("button", "Edit")
	b.WaitFor(`location.pathname.indexOf("/~/changes/") > 0 && document.querySelector("[data-edit-page]")`)
	b.H1("Install")

	// Edit the first paragraph in place: autosave, then close with Save.
	b.Click("button", "Edit block")
	b.WaitFor(`document.querySelector(".block-editor textarea")`)
	b.Fill("textbox", "Markdown of the block", "How to install Quire, edited in place.")
	b.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Saved"`)
	b.Click("button", "Save")
	b.WaitFor(`!document.querySelector(".block-editor") && document.querySelector("main .body").textContent.indexOf("How to install Quire, edited in place.") >= 0`)

	// The same block by keyboard alone: focus its control, Enter opens,
	// typing, Ctrl+Enter saves.
	b.JS(`document.querySelector("a.block-edit").focus(); ""`)
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.WaitFor(`document.activeElement && document.activeElement.matches(".block-editor textarea")`)
	b.Do(chromedp.KeyEvent(kb.End), chromedp.KeyEvent(" By keyboard."))
	b.Do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(2)))
	b.WaitFor(`!document.querySelector(".block-editor") && document.querySelector("main .body").textContent.indexOf("By keyboard.") >= 0`)

	// A conflict: open the block, another writer saves it meanwhile.
	b.Click("button", "Edit block")
	b.WaitFor(`document.querySelector(".block-editor textarea")`)
	n := strings.TrimPrefix(b.JS(`location.pathname`), "/app/s/"+f.Space.ID+"/~/changes/")
	n = n[:strings.Index(n, "/")]
	key := b.JS(`document.querySelector(".block[data-block]").getAttribute("data-block")`)
	src, err := h.Svc.PageBlocks(ctx, service.ContentRef{SpaceID: f.Space.ID, ChangeRequest: n}, f.Install, key, 1)
	if err != nil {
		t.Fatal(err)
	}
	other := h.newUser(t, "otto@acme.test", "Otto Other", quire.RoleEdit)
	ch, err := service.ReplaceBlocks(f.Space.ID, f.Install, key, 1, src.Base, "Otto's version.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, other, f.Space.ID, n, []service.ContentChange{ch}); err != nil {
		t.Fatal(err)
	}
	b.Fill("textbox", "Markdown of the block", "My version.")
	b.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Conflict"`)
	if !b.Has("button", "Keep mine") || !b.Has("button", "Take theirs") {
		t.Fatalf("the conflict offers no choice")
	}
	if !strings.Contains(b.JS(`document.querySelector(".edit-conflict").textContent`), "Otto's version.") {
		t.Fatalf("the conflict does not show their version")
	}
	b.Shoot("app-editor-conflict-desktop-light.png")
	b.Click("button", "Keep mine")
	b.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Saved"`)
	b.Click("button", "Save")
	b.WaitFor(`!document.querySelector(".block-editor") && document.querySelector("main .body").textContent.indexOf("My version.") >= 0`)
	if got, _ := h.Svc.PageBlocks(ctx, service.ContentRef{SpaceID: f.Space.ID, ChangeRequest: n}, f.Install, key, 1); got == nil || strings.TrimSpace(got.Markdown) != "My version." {
		t.Fatalf("keeping mine saved %v", got)
	}

	// The page's Markdown mode: the preview follows the text.
	b.Click("link", "Edit as Markdown")
	b.WaitFor(`document.querySelector("form[data-markdown-form]")`)
	b.Fill("textbox", "Markdown", "# Previewed heading\n\nText.\n")
	b.WaitFor(`document.querySelector(".preview-body").textContent.indexOf("Previewed heading") >= 0`)
	b.WaitFor(`document.querySelector("form[data-markdown-form] [role=status]").textContent === "Saved"`)
	b.ShootViews("app-editor-markdown", "form[data-markdown-form] textarea")

	// The block editor open, at both widths in both themes: each change
	// of theme opens the page again, so the block is opened again.
	b.Click("link", "Install")
	b.WaitFor(`document.querySelector("[data-edit-page]")`)
	for _, v := range []struct {
		theme, view string
		width       int64
	}{{"light", "desktop", 1280}, {"dark", "desktop", 1280}, {"dark", "phone", 390}, {"light", "phone", 390}} {
		b.Viewport(v.width, 844, v.width < 800)
		b.Theme(v.theme)
		b.Click("button", "Edit block")
		b.WaitFor(`document.querySelector(".block-editor textarea")`)
		b.Shoot("app-editor-block-" + v.view + "-" + v.theme + ".png")
	}
}
