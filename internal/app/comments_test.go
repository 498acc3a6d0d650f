package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/quire"
	"quire/internal/service"
)

// blockKeys returns the keys of the blocks a page view draws, in order.
func blockKeys(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<div class="block" data-block="([^"]+)"`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// threadOf returns the HTML of the thread of a comment in a page view.
func threadOf(t *testing.T, body, id string) string {
	t.Helper()
	i := strings.Index(body, `id="comment-`+id+`"`)
	if i < 0 {
		t.Fatalf("no thread of comment %s on the page", id)
	}
	rest := body[i:]
	if j := strings.Index(rest, "</li>\n<li class=\"thread"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// commentIDFrom reads the comment id a form's redirect points at.
func commentIDFrom(t *testing.T, loc string) string {
	t.Helper()
	_, id, ok := strings.Cut(loc, "#comment-")
	if !ok {
		t.Fatalf("the redirect %q names no comment", loc)
	}
	return id
}

// TestCommentsOnPage comments on a block of a page of the space's
// content through the app's forms: the thread shows beside the page
// with its count; a reply with a mention is stored as a user mention and
// drawn as the member's name; reactions count and mark the reader's
// own; the author edits; someone else may not; resolve hides the thread
// and reopen shows it; a block removed from the page leaves its thread
// outdated; delete removes it. Malformed forms answer a 4xx naming the
// field.
func TestCommentsOnPage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		ben := h.newUser(t, "ben@acme.test", "Ben Reviewer", quire.RoleComment)
		rita := h.newUser(t, "rita@acme.test", "Rita Reader", quire.RoleRead)
		ada := h.client(t, h.signIn(t, h.Admin))
		bc := h.client(t, h.signIn(t, ben))
		rc := h.client(t, h.signIn(t, rita))
		pagePath := "/app/s/" + f.Space.ID + "/guides/install"
		base := "/app/s/" + f.Space.ID + "/~/comments"

		st, _, body := h.get(t, ada, pagePath)
		if st != http.StatusOK {
			t.Fatalf("page: %d", st)
		}
		keys := blockKeys(body)
		if len(keys) < 4 || !strings.Contains(body, `id="comments"`) || !strings.Contains(body, "0 comments") {
			t.Fatalf("the page has no comment panel or blocks (%d keys)", len(keys))
		}
		// A reader sees the threads but no composer.
		if _, _, rb := h.get(t, rc, pagePath); !strings.Contains(rb, `id="comments"`) || strings.Contains(rb, `name="body"`) {
			t.Errorf("a reader gets a composer, or no threads")
		}

		form := func(kv ...string) url.Values {
			v := url.Values{"back": {pagePath}, "page": {f.Install}}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return v
		}
		st, loc, body := h.postForm(t, ada, base, form("node", keys[0], "body", "Is **this** right?"))
		if st != http.StatusSeeOther || !strings.HasPrefix(loc, pagePath+"#comment-") {
			t.Fatalf("post: %d to %q\n%s", st, loc, problemText(body))
		}
		id := commentIDFrom(t, loc)
		_, _, body = h.get(t, bc, pagePath)
		th := threadOf(t, body, id)
		if !strings.Contains(body, ">1 comment<") || !strings.Contains(th, `data-block="`+keys[0]+`"`) || !strings.Contains(th, "<strong>this</strong>") {
			t.Errorf("the thread is not drawn on its block with its count:\n%s", th)
		}

		// A reply mentioning Ada, by Ben.
		mention := "[@Ada Admin](/app/o/" + h.Org + "/members/" + h.Admin.ID + ` "mention")`
		if st, loc, body := h.postForm(t, bc, base+"/"+id+"/replies", form("body", "Yes, "+mention+" it is.")); st != http.StatusSeeOther || !strings.HasSuffix(loc, "#comment-"+id) {
			t.Fatalf("reply: %d %q\n%s", st, loc, problemText(body))
		}
		reps, err := h.Svc.Replies(ctx, service.Commenter{User: h.Admin, Level: quire.LevelAdmin}, service.CommentScope{SpaceID: f.Space.ID}, id, quire.Page{})
		if err != nil || len(reps.Items) != 1 {
			t.Fatalf("replies: %v %v", reps, err)
		}
		raw := string(reps.Items[0].Reply.Body)
		if !strings.Contains(raw, `"type":"mention"`) || !strings.Contains(raw, `"kind":"user"`) || !strings.Contains(raw, h.Admin.ID) {
			t.Errorf("the mention is not stored as a user mention: %s", raw)
		}
		_, _, body = h.get(t, ada, pagePath)
		th = threadOf(t, body, id)
		if !regexp.MustCompile(`<a href="/app/o/` + h.Org + `/members/` + h.Admin.ID + `" class="mention">@Ada Admin</a>`).MatchString(th) {
			t.Errorf("the mention is not drawn as the member's name:\n%s", th)
		}
		// Reactions: Ben's thumbs up shows as his, not Ada's.
		if st, _, body := h.postForm(t, bc, base+"/"+id+"/react", form("reaction", "thumbsup", "on", "1")); st != http.StatusSeeOther {
			t.Fatalf("react: %d\n%s", st, problemText(body))
		}
		_, _, body = h.get(t, bc, pagePath)
		if !strings.Contains(threadOf(t, body, id), `aria-pressed="true" aria-label="Thumbs up, 1 reaction"`) {
			t.Errorf("Ben's reaction is not his")
		}
		_, _, body = h.get(t, ada, pagePath)
		if !strings.Contains(threadOf(t, body, id), `aria-pressed="false" aria-label="Thumbs up, 1 reaction"`) {
			t.Errorf("Ada sees Ben's reaction as hers, or not at all")
		}
		if st, _, _ := h.postForm(t, bc, base+"/"+id+"/react", form("reaction", "thumbsup", "on", "0")); st != http.StatusSeeOther {
			t.Fatalf("unreact: %d", st)
		}
		_, _, body = h.get(t, ada, pagePath)
		if !strings.Contains(threadOf(t, body, id), `aria-label="Thumbs up, 0 reactions"`) {
			t.Errorf("the reaction taken back still counts")
		}

		// Edit: the author may, someone else may not.
		if st, _, body := h.postForm(t, ada, base+"/"+id+"/edit", form("body", "Is *that* right?")); st != http.StatusSeeOther {
			t.Fatalf("edit: %d\n%s", st, problemText(body))
		}
		if st, _, body := h.postForm(t, bc, base+"/"+id+"/edit", form("body", "Taken over")); st != http.StatusForbidden || !strings.Contains(body, "only the author") {
			t.Errorf("someone else's edit: %d\n%s", st, problemText(body))
		}
		_, _, body = h.get(t, ada, pagePath)
		if th := threadOf(t, body, id); !strings.Contains(th, "<em>that</em>") || !strings.Contains(th, "(edited)") {
			t.Errorf("the edit does not show:\n%s", th)
		}

		// Resolve hides the thread and uncounts it; reopen brings it back.
		if st, _, _ := h.postForm(t, bc, base+"/"+id+"/resolve", form()); st != http.StatusSeeOther {
			t.Fatalf("resolve: %d", st)
		}
		_, _, body = h.get(t, ada, pagePath)
		if th := threadOf(t, body, id); !strings.Contains(body, ">0 comments<") || !strings.Contains(th, " hidden>") || !strings.Contains(th, "Resolved by Ben Reviewer") {
			t.Errorf("the resolved thread is not hidden and uncounted:\n%s", th)
		}
		if _, _, body = h.get(t, ada, pagePath+"?resolved=1"); strings.Contains(threadOf(t, body, id), " hidden>") {
			t.Errorf("Show resolved does not show it")
		}
		if st, _, _ := h.postForm(t, ada, base+"/"+id+"/reopen", form()); st != http.StatusSeeOther {
			t.Fatalf("reopen: %d", st)
		}
		if _, _, body = h.get(t, ada, pagePath); !strings.Contains(body, ">1 comment<") {
			t.Errorf("the reopened thread does not count")
		}

		// Malformed forms.
		for _, c := range []struct {
			path string
			form url.Values
			who  *http.Client
			st   int
			says string
		}{
			{base, form("node", "nosuchblock", "body", "Hi"), ada, http.StatusBadRequest, "node: no block"},
			{base, form("node", keys[0], "body", "  "), ada, http.StatusBadRequest, "body: must not be empty"},
			{base, form("body", strings.Repeat("x", 10001)), ada, http.StatusBadRequest, "body: must be at most 10000 characters"},
			{base, url.Values{"node": {keys[0]}, "body": {"Hi"}}, ada, http.StatusBadRequest, "page: required with node"},
			{base, form("page", "nosuchpage", "body", "Hi"), ada, http.StatusBadRequest, "page: no page"},
			{base, form("body", "[@X](/app/o/"+h.Org+`/members/nosuchuser "mention")`), ada, http.StatusBadRequest, "body: mentions"},
			{base + "/" + id + "/react", form("reaction", "skull", "on", "1"), ada, http.StatusBadRequest, "reaction: choose one of the offered reactions"},
			{base + "/" + id + "/react", form("reaction", "heart", "on", "maybe"), ada, http.StatusBadRequest, "on: must be 1"},
			{base + "/" + id + "/replies", form("body", ""), ada, http.StatusBadRequest, "body: must not be empty"},
			{base + "/nosuchcomment/replies", form("body", "Hi"), ada, http.StatusNotFound, "There is nothing here"},
			{base + "/nosuchcomment/delete", form(), ada, http.StatusNotFound, "There is nothing here"},
			{base + "/" + id + "/delete", form(), bc, http.StatusForbidden, "only the author of a comment or a space admin"},
		} {
			st, _, body := h.postForm(t, c.who, c.path, c.form)
			if st != c.st || !strings.Contains(body, c.says) {
				t.Errorf("POST %s %v: %d, want %d saying %q\n%s", c.path, c.form, st, c.st, c.says, problemText(body))
			}
		}

		// The script's posts get the threads' HTML.
		st, _, body = h.do(t, ada, http.MethodPost, base+"/"+id+"/react", strings.NewReader(form("reaction", "heart", "on", "1").Encode()), http.Header{
			"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {h.URL}, "Sec-Fetch-Site": {"same-origin"}, "X-Quire-Fragment": {"threads"}})
		if st != http.StatusOK || !strings.HasPrefix(body, `<section id="comments"`) || !strings.Contains(body, `aria-pressed="true" aria-label="Heart, 1 reaction"`) {
			t.Errorf("the fragment answer: %d\n%.300s", st, body)
		}

		// Mention suggestions.
		st, _, body = h.get(t, bc, base+"/members.json?q=ada")
		var choices []struct{ ID, Name, Markdown string }
		if err := json.Unmarshal([]byte(body), &choices); st != http.StatusOK || err != nil || len(choices) != 1 || choices[0].ID != h.Admin.ID || choices[0].Markdown != mention {
			t.Errorf("suggestions for ada: %d %s", st, body)
		}
		if st, _, _ := h.get(t, rc, base+"/members.json?q=ada"); st != http.StatusForbidden {
			t.Errorf("a reader's suggestions: %d, want 403", st)
		}

		// The block removed from the page: the thread is outdated.
		md := "## Requirements\n\nA computer with zebrafish.\n\n## Steps\n\nRun the installer.\n"
		h.writeAndMerge(t, f.Space.ID, "Shorter", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Install, Document: &service.DocumentInput{Markdown: &md}})
		_, _, body = h.get(t, ada, pagePath)
		if i := strings.Index(body, ">Outdated</h3>"); i < 0 || !strings.Contains(body[i:], `id="comment-`+id+`"`) || !strings.Contains(threadOf(t, body, id), "Outdated</span>") {
			t.Errorf("the thread of a removed block is not listed as outdated")
		}

		// Delete: the author may.
		if st, loc, _ := h.postForm(t, ada, base+"/"+id+"/delete", form()); st != http.StatusSeeOther || loc != pagePath+"#comments" {
			t.Fatalf("delete: %d %q", st, loc)
		}
		if _, _, body = h.get(t, ada, pagePath); strings.Contains(body, `id="comment-`+id+`"`) || !strings.Contains(body, "No comments yet.") {
			t.Errorf("the deleted thread still shows")
		}
	})
}

// TestCommentsOnChangeRequest comments on a change request's page and on
// the change request as a whole, and counts the open ones per change
// request; the space's own page does not show them.
func TestCommentsOnChangeRequest(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		ada := h.client(t, h.signIn(t, h.Admin))
		n := strconv.Itoa(f.Open)
		crPage := "/app/s/" + f.Space.ID + "/~/changes/" + n + "/guides/install"
		base := "/app/s/" + f.Space.ID + "/~/changes/" + n + "/comments"
		_, _, body := h.get(t, ada, crPage)
		keys := blockKeys(body)
		if len(keys) == 0 || !strings.Contains(body, `action="`+base+`"`) {
			t.Fatalf("the change request's page has no composer posting to its comments")
		}
		st, loc, body := h.postForm(t, ada, base, url.Values{"back": {crPage}, "page": {f.Install}, "node": {keys[0]}, "body": {"Quickly?"}})
		if st != http.StatusSeeOther || !strings.HasPrefix(loc, crPage+"#comment-") {
			t.Fatalf("post: %d %q\n%s", st, loc, problemText(body))
		}
		// On the change request as a whole; back outside the space is
		// not followed.
		st, loc, body = h.postForm(t, ada, base, url.Values{"back": {"https://evil.test/"}, "body": {"Looks good overall."}})
		if st != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/s/"+f.Space.ID+"/~/changes/"+n+"#comment-") {
			t.Fatalf("post on the change request: %d %q\n%s", st, loc, problemText(body))
		}
		_, _, body = h.get(t, ada, crPage)
		if !strings.Contains(body, "Quickly?") || strings.Contains(body, "Looks good overall.") || !strings.Contains(body, ">1 comment<") {
			t.Errorf("the change request's page shows the wrong threads")
		}
		if _, _, body = h.get(t, ada, "/app/s/"+f.Space.ID+"/guides/install"); strings.Contains(body, "Quickly?") {
			t.Errorf("the space's page shows a change request's comment")
		}
		// The change request's own page holds its conversation: the
		// comment on it as a whole, with a composer posting there.
		if _, _, body = h.get(t, ada, "/app/s/"+f.Space.ID+"/~/changes/"+n); !strings.Contains(body, "Looks good overall.") ||
			strings.Contains(body, "Quickly?") || !strings.Contains(body, `action="`+base+`"`) {
			t.Errorf("the change request's page does not show its conversation")
		}
		cr, err := h.Svc.ChangeRequest(ctx, f.Space.ID, n)
		if err != nil {
			t.Fatal(err)
		}
		if got := app.OpenCommentCounts([]*quire.ChangeRequest{cr}); got[cr.ID] != 2 {
			t.Errorf("open comment counts: %v, want 2", got)
		}
	})
}
