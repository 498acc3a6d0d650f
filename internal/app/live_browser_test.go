package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestLiveBrowser keeps a page and a change request open in a real
// browser while someone else works: Ben's comment on the page shows up
// in it without a reload (the window keeps a mark set before), the
// status line says who did what, and the mention in it moves the inbox
// count. While Ada writes a reply the page is left alone and a notice
// offers the update instead. The inbox lists the mentions as they come,
// and marks them read. Ben's merge of the change request Ada looks
// at shows it merged, again without a reload.
func TestLiveBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	ctx := context.Background()
	ben := h.newUser(t, "ben@acme.test", "Ben Reviewer", quire.RoleAdmin)
	benSays := service.Commenter{User: ben, Level: quire.LevelAdmin}
	mention := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[` +
		`{"object":"text","leaves":[{"object":"leaf","text":"Live hello ","marks":[]}]},` +
		`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + h.Admin.ID + `"}}}]}]}`)

	b := newBrowser(t)
	b.Viewport(1280, 900, false)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+"/app/s/"+f.Space.ID+"/guides/install", http.StatusOK)
	b.H1("Install")
	b.JS(`(function(){window.quireMark = 1; return ""})()`)
	if !b.Has("link", "Inbox") {
		t.Fatal("no inbox link")
	}
	// From the stream's first answer on, everything recorded reaches it.
	b.WaitFor(`document.documentElement.getAttribute("data-live") === "open"`)

	if _, err := h.Svc.PostComment(ctx, benSays, service.CommentScope{SpaceID: f.Space.ID},
		service.CommentInput{Page: f.Install, Body: service.DocumentInput{JSON: mention}}); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(`window.quireMark === 1 && document.querySelector("[data-thread]") && document.querySelector("[data-thread]").textContent.indexOf("Live hello") >= 0`)
	b.WaitFor(`document.querySelector("[role=status].visually-hidden").textContent === "Ben Reviewer commented."`)
	if !b.Has("link", "Inbox, 1 unread") {
		t.Error("the mention did not move the inbox count")
	}

	// Ada starts a reply: Ben's next comment waits behind a notice.
	b.Fill("textbox", "Reply to Ben Reviewer", "Thanks")
	second := "Second thought"
	if _, err := h.Svc.PostComment(ctx, benSays, service.CommentScope{SpaceID: f.Space.ID},
		service.CommentInput{Page: f.Install, Body: service.DocumentInput{Markdown: &second}}); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(`document.querySelector(".live-notice")`)
	if n := b.JS(`String(document.querySelectorAll("[data-thread]").length)`); n != "1" {
		t.Fatalf("the page changed under Ada's reply: %s threads", n)
	}
	if v := b.JS(`document.activeElement.value`); v != "Thanks" {
		t.Fatalf("the reply being written is %q", v)
	}
	// Ada gives the reply up; the update is then put in place.
	b.JS(`(function(){var t=document.activeElement;t.value="";t.blur();return ""})()`)
	b.Click("button", "Show")
	b.WaitFor(`window.quireMark === 1 && document.querySelectorAll("[data-thread]").length === 2`)

	// The inbox lists the mention, and the next one arrives while it is
	// open.
	b.Open(h.URL+"/app/inbox", http.StatusOK)
	b.H1("Inbox")
	b.JS(`(function(){window.quireMark = 3; return ""})()`)
	b.WaitFor(`document.documentElement.getAttribute("data-live") === "open"`)
	if n := b.JS(`String(document.querySelectorAll(".inbox-item.unread").length)`); n != "1" {
		t.Fatalf("%s unread notifications listed, want Ben's mention", n)
	}
	if _, err := h.Svc.PostComment(ctx, benSays, service.CommentScope{SpaceID: f.Space.ID},
		service.CommentInput{Page: f.Install, Body: service.DocumentInput{JSON: mention}}); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(`window.quireMark === 3 && document.querySelectorAll(".inbox-item.unread").length === 2`)
	if !b.Has("link", "Inbox, 2 unread") {
		t.Error("the header does not count two unread")
	}
	b.ShootViews("app-inbox", ".inbox-list")
	b.Click("button", "Mark all as read")
	b.WaitFor(`document.querySelectorAll(".inbox-item.unread").length === 0`)
	if !b.Has("link", "Inbox") {
		t.Error("the header still counts unread notifications")
	}

	// The change request page follows its merge.
	n := strconv.Itoa(f.Open)
	b.Open(h.URL+"/app/s/"+f.Space.ID+"/~/changes/"+n, http.StatusOK)
	b.JS(`(function(){window.quireMark = 2; return ""})()`)
	b.WaitFor(`document.documentElement.getAttribute("data-live") === "open"`)
	if _, err := h.Svc.MergeChangeRequest(ctx, ben, f.Space.ID, n); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(`window.quireMark === 2 && document.querySelector("[role=status].visually-hidden").textContent === "Ben Reviewer merged a change."`)
	b.WaitFor(`/\bMerged\b/.test(document.getElementById("main").textContent)`)
	b.Shoot("app-live-cr-merged-desktop-light.png")
}
