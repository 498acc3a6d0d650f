package app_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// mentionChoices reads the composer's suggestions for q as someone.
func mentionChoices(t *testing.T, h *harness, c *http.Client, spaceID, q string) []struct{ ID, Name, Email, Markdown string } {
	t.Helper()
	st, _, body := h.get(t, c, "/app/s/"+spaceID+"/~/comments/members.json?q="+url.QueryEscape(q))
	var out []struct{ ID, Name, Email, Markdown string }
	if err := json.Unmarshal([]byte(body), &out); st != http.StatusOK || err != nil {
		t.Fatalf("suggestions for %q: %d %v\n%s", q, st, err, body)
	}
	return out
}

// TestMentionSuggestionsAreReaders checks that the composer suggests only
// people who can read the space, with emails for members of the
// organization and none for a guest who may comment; and that a comment
// mentioning someone who cannot read the space is refused, naming the
// field.
func TestMentionSuggestionsAreReaders(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		ben := h.newUser(t, "ben@acme.test", "Ben Reviewer", quire.RoleComment)
		gus := h.newUser(t, "gus@partner.test", "Gus Guest", quire.RoleRead)
		gwen := h.newUser(t, "gwen@partner.test", "Gwen Outside", quire.RoleRead)
		none := quire.Role("")
		for _, u := range []*quire.User{gus, gwen} {
			if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, u.ID, &none); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.Svc.InviteToSpace(ctx, f.Space.ID, quire.RoleComment, []string{gus.ID}, nil); err != nil {
			t.Fatal(err)
		}
		bc := h.client(t, h.signIn(t, ben))
		gc := h.client(t, h.signIn(t, gus))

		ids := func(l []struct{ ID, Name, Email, Markdown string }) map[string]string {
			out := map[string]string{}
			for _, c := range l {
				out[c.ID] = c.Email
			}
			return out
		}
		// A member: the readers, with their emails; not Gwen.
		got := ids(mentionChoices(t, h, bc, f.Space.ID, ""))
		if got[h.Admin.ID] != "ada@acme.test" || got[gus.ID] != "gus@partner.test" {
			t.Errorf("a member's suggestions lack readers or their emails: %v", got)
		}
		if _, ok := got[gwen.ID]; ok {
			t.Errorf("a member is offered a guest who cannot read the space: %v", got)
		}
		// A guest who may comment: the readers, no emails, not Gwen.
		got = ids(mentionChoices(t, h, gc, f.Space.ID, ""))
		if _, ok := got[h.Admin.ID]; !ok {
			t.Errorf("the guest is not offered Ada: %v", got)
		}
		if _, ok := got[gwen.ID]; ok {
			t.Errorf("the guest is offered someone who cannot read the space: %v", got)
		}
		for id, email := range got {
			if email != "" {
				t.Errorf("the guest learns %s's email %q", id, email)
			}
		}
		// Nor does the guest find people by their email.
		if l := mentionChoices(t, h, gc, f.Space.ID, "acme.test"); len(l) != 0 {
			t.Errorf("the guest finds people by email: %v", l)
		}

		// Mentioning Gwen is refused; mentioning Gus is not.
		base := "/app/s/" + f.Space.ID + "/~/comments"
		mention := func(u *quire.User) string {
			return "Hi [@" + u.DisplayName + "](/app/o/" + h.Org + "/members/" + u.ID + ` "mention")`
		}
		form := url.Values{"page": {f.Install}, "body": {mention(gwen)}}
		if st, _, body := h.postForm(t, bc, base, form); st != http.StatusBadRequest || !strings.Contains(body, "body: mentions") || !strings.Contains(body, "cannot read this space") {
			t.Errorf("a mention of someone who cannot read the space: %d\n%s", st, problemText(body))
		}
		form.Set("body", mention(gus))
		if st, _, body := h.postForm(t, bc, base, form); st != http.StatusSeeOther {
			t.Errorf("a mention of a reader: %d\n%s", st, problemText(body))
		}
		// The service refuses it for any caller, not only the app's forms.
		raw := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[` +
			`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + gwen.ID + `"}}}]}]}`)
		_, err := h.Svc.PostComment(ctx, service.Commenter{User: h.Admin, Level: quire.LevelAdmin}, service.CommentScope{SpaceID: f.Space.ID},
			service.CommentInput{Page: f.Install, Body: service.DocumentInput{JSON: raw}})
		if quire.ErrorCode(err) != quire.EINVALID || !strings.Contains(err.Error(), "body") {
			t.Errorf("the service takes a mention of someone who cannot read the space: %v", err)
		}
	})
}

// TestMentionNameRoundTrip checks that a mention of someone whose name
// holds brackets reads back, in the edit form, as the same mention.
func TestMentionNameRoundTrip(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		ann := h.newUser(t, "ann@acme.test", `Ann [ops] \ Lee]`, quire.RoleRead)
		ada := h.client(t, h.signIn(t, h.Admin))
		var md string
		for _, c := range mentionChoices(t, h, ada, f.Space.ID, "Ann") {
			if c.ID == ann.ID {
				md = c.Markdown
			}
		}
		if md == "" {
			t.Fatalf("Ann is not suggested")
		}
		pagePath := "/app/s/" + f.Space.ID + "/guides/install"
		base := "/app/s/" + f.Space.ID + "/~/comments"
		form := url.Values{"back": {pagePath}, "page": {f.Install}, "body": {"Ask " + md + " please"}}
		st, loc, body := h.postForm(t, ada, base, form)
		if st != http.StatusSeeOther {
			t.Fatalf("post: %d\n%s", st, problemText(body))
		}
		id := commentIDFrom(t, loc)
		_, _, body = h.get(t, ada, pagePath)
		m := regexp.MustCompile(`(?s)<textarea id="edit-` + regexp.QuoteMeta(id) + `"[^>]*>(.*?)</textarea>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no edit form for the comment")
		}
		edit := html.UnescapeString(m[1])
		if edit != "Ask "+md+" please" {
			t.Errorf("the edit form's Markdown is %q, want %q", edit, "Ask "+md+" please")
		}
		// Saved unchanged, it is still a mention of Ann, drawn by her name.
		if st, _, body := h.postForm(t, ada, base+"/"+id+"/edit", url.Values{"back": {pagePath}, "page": {f.Install}, "body": {strings.TrimPrefix(edit, "\n")}}); st != http.StatusSeeOther {
			t.Fatalf("edit: %d\n%s", st, problemText(body))
		}
		_, _, body = h.get(t, ada, pagePath)
		want := `<a href="/app/o/` + h.Org + `/members/` + ann.ID + `" class="mention">@` + html.EscapeString(ann.DisplayName) + `</a>`
		if th := threadOf(t, body, id); !strings.Contains(th, want) {
			t.Errorf("after the edit the mention is not Ann's:\n%s", th)
		}
	})
}

// TestCommentBackStaysInSpace checks that a comment form returns only to
// a view of its own space, by a plain path of the app.
func TestCommentBackStaysInSpace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	ada := h.client(t, h.signIn(t, h.Admin))
	base := "/app/s/" + f.Space.ID + "/~/comments"
	page := "/app/s/" + f.Space.ID + "/guides/install"
	for _, back := range []string{"https://evil.test/", "//evil.test" + page, page + "\t@evil.test", "/app/s/" + f.Space.ID + "/x\tfoo", page + "#top"} {
		st, loc, body := h.postForm(t, ada, base, url.Values{"back": {back}, "page": {f.Install}, "body": {"Hi"}})
		if st != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/s/"+f.Space.ID+"#comment-") {
			t.Errorf("back %q: %d to %q\n%s", back, st, loc, problemText(body))
		}
	}
}
