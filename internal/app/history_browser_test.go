package app_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestHistoryBrowser settles a change request's conflicts in the browser
// (keeping the writer's version of one block and editing another), then
// restores a page from the history. Screenshots of both pages.
func TestHistoryBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newConflictFixture(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	n := strconv.Itoa(f.Mine.Number)
	sp := h.URL + "/app/s/" + f.Space

	b.Viewport(1280, 900, false)
	b.Open(sp+"/~/changes/"+n+"/conflicts", http.StatusOK)
	b.H1("Conflicts with the space’s content")
	b.ShootViews("conflicts", "fieldset.conflict")
	// The conflict on the first block: keep mine. On the second: typing
	// in its Markdown chooses to edit it.
	b.JS(`(function(){var sets=Array.from(document.querySelectorAll("fieldset.conflict"));` +
		`var one=sets.find(function(s){return s.textContent.indexOf("Mine one.")>=0});` +
		`var two=sets.find(function(s){return s.textContent.indexOf("Mine two.")>=0});` +
		`one.querySelector('input[value="ours"]').click();two.id="second";` +
		`var a=two.querySelector("textarea[data-markdown]");a.focus();a.value="Edited two.";` +
		`a.dispatchEvent(new Event("input",{bubbles:true}));return ""})()`)
	if b.JS(`String(document.querySelector("#second input[data-conflict-edit]").checked)`) != "true" {
		t.Fatal("typing in the Markdown did not choose to edit the block")
	}
	b.Click("button", "Save and update from main")
	b.WaitFor(`location.pathname === "/app/s/` + f.Space + `/~/changes/` + n + `"`)
	if got := strings.TrimSpace(pageMarkdown(t, h, f.Space, n, "guide")); got != "Mine one.\nEdited two.\nMine three." {
		t.Fatalf("the change request's page after the choices: %q", got)
	}
	out, err := h.Svc.UpdateChangeRequestFromMain(t.Context(), h.Admin, f.Space, f.Mine.ID)
	if err != nil || len(out.Conflicts) != 0 {
		t.Fatalf("not up to date: %v %+v", err, out)
	}
	if out, err := h.Svc.MergeChangeRequest(t.Context(), h.Admin, f.Space, f.Mine.ID); err != nil || len(out.Conflicts) != 0 {
		t.Fatalf("not mergeable: %v %+v", err, out)
	}

	// The history, and a page restored from it.
	b.Open(sp+"/~/revisions", http.StatusOK)
	b.H1("Revisions")
	b.ShootViews("history", "ol.revision-list")
	b.Open(sp+"/~/revisions/"+f.First+"/guide", http.StatusOK)
	b.Click("button", "Restore this page")
	b.WaitFor(`/\/~\/changes\/\d+$/.test(location.pathname)`)
	loc := b.JS(`location.pathname`)
	num := loc[strings.LastIndex(loc, "/")+1:]
	b.Open(sp+"/~/changes/"+num+"/guide", http.StatusOK)
	b.WaitFor(`document.body.textContent.indexOf("Old two.") >= 0`)
}
