package app_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestCommentsBrowser discusses a hint of a change request's page in a
// real browser, two people taking turns: Ada comments on the hint
// through its "Comment on this block" button; Ben sees the count,
// replies mentioning Ada (picked from the "@" suggestions) and reacts;
// Ada resolves the thread. Then the hint is removed from the change
// request and the thread shows as outdated. Screenshots of the page with
// its threads at desktop and phone widths, light and dark.
func TestCommentsBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	ctx := context.Background()
	ben := h.newUser(t, "ben@acme.test", "Ben Reviewer", quire.RoleComment)
	n := strconv.Itoa(f.Open)
	withHint := "How to install Quire quickly.\n\n{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n\nRun the installer.\n"
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, f.Space.ID, n, []service.ContentChange{
		{Operation: service.OpUpdatePage, Page: f.Install, Document: &service.DocumentInput{Markdown: &withHint}}}); err != nil {
		t.Fatal(err)
	}
	page := h.URL + "/app/s/" + f.Space.ID + "/~/changes/" + n + "/guides/install"
	b := newBrowser(t)
	b.Viewport(1280, 900, false)

	// Ada comments on the hint.
	h.signInBrowser(t, b, h.Admin)
	b.Open(page, http.StatusOK)
	b.H1("Install")
	hint := b.JS(`document.querySelector(".block .hint").closest(".block").getAttribute("data-block")`)
	if hint == "" {
		t.Fatal("no hint block on the page")
	}
	b.JS(`(function(){var btn=document.querySelector('[data-block="` + hint + `"] .block-comment');btn.focus();btn.click();return ""})()`)
	if got := b.JS(`document.activeElement.id + " " + document.getElementById("comment-node").value`); got != "comment-body "+hint {
		t.Fatalf("the block's button did not open the composer on it: %q", got)
	}
	b.Fill("textbox", "New comment", "Should this be a **danger** hint?")
	b.Click("button", "Comment")
	b.WaitFor(`document.querySelectorAll("[data-thread]").length === 1 && document.querySelector("[data-comment-count]").textContent === "1 comment"`)
	if !strings.Contains(b.JS(`document.querySelector("[data-thread]").getAttribute("data-block")`), hint) {
		t.Errorf("the thread is not on the hint")
	}

	// Ben sees the count, replies mentioning Ada and reacts.
	b.Forget()
	h.signInBrowser(t, b, ben)
	b.Open(page, http.StatusOK)
	b.H1("Install")
	if !b.Has("link", "1 comment") || !b.Has("button", "1 comment on this block") {
		t.Errorf("Ben does not see the count")
	}
	b.Click("button", "1 comment on this block")
	b.WaitFor(`document.querySelector('[data-block="` + hint + `"]').classList.contains("block-highlight")`)
	b.Fill("textbox", "Reply to Ada Admin", "Agreed, @ad")
	b.WaitFor(`document.querySelector('[role=listbox][aria-label="Members to mention"] [role=option]')`)
	b.JS(`(function(){var t=document.activeElement;t.dispatchEvent(new KeyboardEvent("keydown",{key:"Enter",bubbles:true}));return ""})()`)
	if v := b.JS(`document.activeElement.value`); !strings.Contains(v, `[@Ada Admin](/app/o/`+h.Org+`/members/`+h.Admin.ID+` "mention")`) {
		t.Fatalf("choosing the suggestion wrote %q", v)
	}
	b.JS(`(function(){var t=document.activeElement;t.value+="let us change it.";return ""})()`)
	b.Click("button", "Reply")
	b.WaitFor(`document.querySelector(".replies a.mention") && document.querySelector(".replies a.mention").textContent === "@Ada Admin"`)
	if b.JS(`document.activeElement.getAttribute("aria-label") || document.activeElement.id`) == "" {
		t.Errorf("the focus was lost after replying")
	}
	b.Click("button", "Thumbs up, 0 reactions")
	b.WaitFor(`document.querySelector('[aria-label="Thumbs up, 1 reaction"]') && document.querySelector('[aria-label="Thumbs up, 1 reaction"]').getAttribute("aria-pressed") === "true"`)

	// Ada sees both, and the screenshots are taken with the thread open.
	b.Forget()
	h.signInBrowser(t, b, h.Admin)
	b.Open(page, http.StatusOK)
	b.H1("Install")
	if !b.Has("button", "Thumbs up, 1 reaction") || !b.Has("link", "@Ada Admin") {
		t.Errorf("Ada does not see Ben's reply and reaction")
	}
	b.ShootViews("app-comments", "[data-thread]")
	b.Open(page, http.StatusOK)
	b.Click("button", "Resolve")
	b.WaitFor(`document.querySelector("[data-comment-count]").textContent === "0 comments" && document.querySelector("[data-thread]").hidden`)
	b.Click("button", "Show resolved (1)")
	b.WaitFor(`!document.querySelector("[data-thread]").hidden`)
	if !b.Has("button", "Reopen") {
		t.Errorf("the resolved thread offers no Reopen")
	}

	// The hint is removed: the thread is outdated.
	without := "How to install Quire quickly.\n\nRun the installer.\n"
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, f.Space.ID, n, []service.ContentChange{
		{Operation: service.OpUpdatePage, Page: f.Install, Document: &service.DocumentInput{Markdown: &without}}}); err != nil {
		t.Fatal(err)
	}
	b.Open(page+"?resolved=1", http.StatusOK)
	b.H1("Install")
	b.WaitFor(`document.querySelector(".threads-outdated [data-thread]")`)
	if !strings.Contains(b.JS(`document.querySelector(".threads-outdated [data-thread]").textContent`), "Outdated") {
		t.Errorf("the thread of the removed hint is not marked outdated")
	}
	b.Shoot("app-comments-outdated.png")
}
