package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/testutil"
)

// disabled reports whether the page's button named name is disabled.
func disabled(b *testutil.BrowserPage, name string) bool {
	return b.JS(`String([...document.querySelectorAll("button")].some(e => e.textContent.trim() === `+
		`"`+name+`" && e.disabled))`) == "true"
}

// TestReviewBrowser has two people in two browsers: the writer marks a
// change request ready and asks the reviewer; the reviewer finds it
// waiting for their review and requests changes with a comment, which
// the writer sees; the reviewer approves and merges under a rule needing
// their approval (Merge disabled before it), and the merged change
// request links to the published page. Screenshots of the change
// request page and the list at desktop and phone widths, light and dark.
func TestReviewBrowser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	f := newCRFixture(t, h)
	ctx := context.Background()
	rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{{Rule: quire.RuleSpecificReviewers, Users: []string{f.Reviewer.ID}}}}
	if _, err := h.Svc.UpdateSpace(ctx, h.Admin, f.Space, quire.SpaceUpdate{MergeRules: &rules}); err != nil {
		t.Fatal(err)
	}
	crURL := h.URL + f.path(f.CR, "")

	writer := newBrowser(t)
	h.signInBrowser(t, writer, f.Writer)
	writer.Open(h.URL+"/app/s/"+f.Space, http.StatusOK)
	writer.Click("link", "Change requests")
	writer.H1("Change requests")
	writer.Click("link", "Better intro")
	writer.H1("Better intro")
	writer.Click("button", "Ready for review")
	waitNotice(t, writer, "cr-open")
	writer.Fill("combobox", "Request a review from", "user:"+f.Reviewer.ID)
	writer.Click("button", "Request review")
	waitNotice(t, writer, "cr-reviewers")
	if !writer.Has("button", "Remove Rob Reviewer as reviewer") {
		t.Fatal("the requested reviewer is not listed")
	}

	reviewer := newBrowser(t)
	h.signInBrowser(t, reviewer, f.Reviewer)
	reviewer.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	reviewer.Click("link", "Change requests")
	reviewer.H1("Change requests")
	reviewer.Click("link", "Waiting for my review")
	reviewer.WaitFor(`location.search.includes("who=review")`)
	reviewer.ShootViews("app-change-requests", "table.cr-list")
	reviewer.Click("link", "Better intro")
	reviewer.H1("Better intro")
	if !disabled(reviewer, "Merge") {
		t.Fatal("Merge is enabled before the required approval")
	}
	if !strings.Contains(reviewer.JS(`document.querySelector("#cr-merge-reason").textContent`), "Needs approval from Rob Reviewer") {
		t.Error("the disabled Merge button does not say why")
	}
	reviewer.Fill("textbox", "Comment", "Say who the reader is.")
	reviewer.Click("button", "Request changes")
	waitNotice(t, reviewer, "cr-changes-requested")

	writer.Open(crURL, http.StatusOK)
	if !strings.Contains(writer.JS(`document.querySelector(".cr-reviews").textContent`), "Say who the reader is.") {
		t.Fatal("the writer does not see the requested changes")
	}
	if !strings.Contains(writer.JS(`document.querySelector(".cr-reviews").textContent`), "Changes requested") {
		t.Error("the review's verdict is not shown")
	}

	reviewer.Open(crURL, http.StatusOK)
	reviewer.Click("button", "Approve")
	waitNotice(t, reviewer, "cr-approved")
	if disabled(reviewer, "Merge") {
		t.Fatal("Merge is still disabled after the approval")
	}
	reviewer.ShootViews("app-change-request", "#cr-merge")
	reviewer.Click("button", "Merge")
	waitNotice(t, reviewer, "cr-merged")
	reviewer.Click("link", "Intro on the published site")
	reviewer.WaitFor(`document.body.textContent.includes("Hello, reader.")`)
	if strings.Contains(reviewer.JS(`location.pathname`), "/app/") {
		t.Errorf("the published link led into the app: %s", reviewer.JS(`location.href`))
	}
	reviewer.Open(crURL, http.StatusOK)
	reviewer.ShootViews("app-change-request-merged", ".cr-merged")
}
