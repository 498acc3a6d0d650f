package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// crFixture is a space with one page, a writer's change request editing
// it, and a reviewer; both may edit the space.
type crFixture struct {
	h                *harness
	Space, Page      string
	Writer, Reviewer *quire.User
	W, R, Admin      *http.Client
	CR               *quire.ChangeRequest
}

// newCRFixture builds the fixture: a space published on a public site
// (so a merged change links to its published page) whose page Intro the writer's change
// request #N edits.
func newCRFixture(t *testing.T, h *harness) *crFixture {
	t.Helper()
	ctx := context.Background()
	f := &crFixture{h: h}
	f.Writer = h.newUser(t, "walt@acme.test", "Walt Writer", quire.RoleEdit)
	f.Reviewer = h.newUser(t, "rob@acme.test", "Rob Reviewer", quire.RoleEdit)
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Guide"})
	if err != nil {
		t.Fatal(err)
	}
	f.Space = sv.Space.ID
	sites := service.NewSites(h.Svc)
	site, err := sites.CreateSite(ctx, h.Admin, h.Org, service.SiteCreate{Title: "Guide site", Spaces: []string{f.Space}})
	if err != nil {
		t.Fatal(err)
	}
	name, published, vis := "guide", true, quire.VisibilityPublic
	if _, err := sites.UpdateSite(ctx, h.Org, site.ID, quire.SiteUpdate{Basename: &name, Published: &published, Visibility: &vis}, nil); err != nil {
		t.Fatal(err)
	}
	res := h.writeAndMerge(t, f.Space, "First page", pageChange("intro", "Intro", "intro", "Hello.", nil),
		pageChange("other", "Other", "other", "Elsewhere.", nil))
	f.Page = res[0].PageID
	f.CR = f.writerChange(t, "Better intro", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Page,
		Document: &service.DocumentInput{Markdown: ptr("Hello, reader.")}})
	f.W, f.R = h.client(t, h.signIn(t, f.Writer)), h.client(t, h.signIn(t, f.Reviewer))
	f.Admin = h.client(t, h.signIn(t, h.Admin))
	return f
}

// writerChange opens a change request as the writer with the changes.
func (f *crFixture) writerChange(t *testing.T, subject string, changes ...service.ContentChange) *quire.ChangeRequest {
	t.Helper()
	ctx := context.Background()
	cr, err := f.h.Svc.CreateChangeRequest(ctx, f.Writer, f.Space, subject)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) == 0 {
		return cr
	}
	if _, _, err := f.h.Svc.UpdateChangeRequestContent(ctx, f.Writer, f.Space, cr.ID, changes); err != nil {
		t.Fatal(err)
	}
	return f.current(t, cr)
}

// path is an address of change request cr ("" for its page).
func (f *crFixture) path(cr *quire.ChangeRequest, rest string) string {
	p := "/app/s/" + f.Space + "/~/changes/" + strconv.Itoa(cr.Number)
	if rest != "" {
		p += "/" + rest
	}
	return p
}

// current reads a change request again.
func (f *crFixture) current(t *testing.T, cr *quire.ChangeRequest) *quire.ChangeRequest {
	t.Helper()
	got, err := f.h.Svc.ChangeRequest(context.Background(), f.Space, cr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// post sends a form and wants a redirect to the change request's page
// with the notice.
func (f *crFixture) post(t *testing.T, c *http.Client, cr *quire.ChangeRequest, rest string, form url.Values, notice string) {
	t.Helper()
	status, loc, body := f.h.postForm(t, c, f.path(cr, rest), form)
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, f.path(cr, "")+"?") || !strings.Contains(loc, "notice="+notice) {
		t.Fatalf("POST %s %v: %d to %q, want a redirect with %s\n%s", rest, form, status, loc, notice, problemText(body))
	}
}

// page fetches the change request's page.
func (f *crFixture) page(t *testing.T, c *http.Client, cr *quire.ChangeRequest) string {
	t.Helper()
	status, _, body := f.h.get(t, c, f.path(cr, ""))
	if status != http.StatusOK {
		t.Fatalf("GET change request: %d\n%s", status, problemText(body))
	}
	return body
}

// refused posts a form and wants the status and the page to say says.
func (f *crFixture) refused(t *testing.T, c *http.Client, path string, form url.Values, status int, says string) {
	t.Helper()
	got, _, body := f.h.postForm(t, c, path, form)
	if got != status || !strings.Contains(body, says) {
		t.Fatalf("POST %s %v: %d, want %d saying %q\n%s", path, form, got, status, says, problemText(body))
	}
}

// TestChangeRequestStatusAndDetails moves a change request through its
// statuses and edits its subject and description from the page.
func TestChangeRequestStatusAndDetails(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCRFixture(t, h)
		cr := f.CR
		body := f.page(t, f.W, cr)
		for _, want := range []string{"Better intro", "Ready for review", "Intro", f.path(cr, "diff")} {
			if !strings.Contains(body, want) {
				t.Errorf("the draft's page does not show %q", want)
			}
		}
		for _, step := range []struct {
			to, notice string
			want       quire.ChangeRequestStatus
		}{
			{"open", "cr-open", quire.CROpen},
			{"draft", "cr-draft", quire.CRDraft},
			{"archived", "cr-archived", quire.CRArchived},
			{"open", "cr-reopened", quire.CROpen},
		} {
			f.post(t, f.W, cr, "status", url.Values{"status": {step.to}}, step.notice)
			if got := f.current(t, cr).Status; got != step.want {
				t.Fatalf("after moving to %s: %s", step.to, got)
			}
		}
		f.refused(t, f.W, f.path(cr, "status"), url.Values{"status": {"merged"}}, http.StatusBadRequest, "status: must be draft, open or archived")

		f.post(t, f.W, cr, "details", url.Values{"subject": {" Friendlier intro "}, "description": {"Says **hello** to readers."}}, "cr-details")
		got := f.current(t, cr)
		if got.Subject != "Friendlier intro" || !strings.Contains(string(got.Description), `"object":"document"`) {
			t.Fatalf("details: %q %s", got.Subject, got.Description)
		}
		body = f.page(t, f.W, cr)
		if !strings.Contains(body, "<strong>hello</strong>") || !strings.Contains(body, "Says **hello** to readers.") {
			t.Error("the description is not drawn, or not offered as Markdown to edit")
		}
		f.refused(t, f.W, f.path(cr, "details"), url.Values{"subject": {strings.Repeat("x", 101)}}, http.StatusUnprocessableEntity, "subject: must be at most 100 characters")
		f.post(t, f.W, cr, "details", url.Values{"subject": {"Friendlier intro"}, "description": {""}}, "cr-details")
		if d := f.current(t, cr).Description; len(d) != 0 && string(d) != "null" {
			t.Fatalf("an empty description kept %s", d)
		}
	})
}

// TestChangeRequestReviewAndMerge requests a review, reviews, and merges
// under a rule needing the reviewer's approval: refused before, allowed
// after, with the page saying so; then the merged page links to main and
// to the published page.
func TestChangeRequestReviewAndMerge(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newCRFixture(t, h)
		cr := f.CR
		rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{{Rule: quire.RuleSpecificReviewers, Users: []string{f.Reviewer.ID}}}}
		if _, err := h.Svc.UpdateSpace(ctx, h.Admin, f.Space, quire.SpaceUpdate{MergeRules: &rules}); err != nil {
			t.Fatal(err)
		}
		f.refused(t, f.W, f.path(cr, "reviewers"), url.Values{"reviewer": {""}}, http.StatusBadRequest, "reviewer: choose a person or a team")
		f.refused(t, f.W, f.path(cr, "reviewers"), url.Values{"reviewer": {"user:" + f.Writer.ID}}, http.StatusBadRequest, "reviewer: the author of a change request cannot review it")
		f.post(t, f.W, cr, "reviewers", url.Values{"reviewer": {"user:" + f.Reviewer.ID}}, "cr-reviewers")
		if got := f.current(t, cr).Status; got != quire.CROpen {
			t.Fatalf("a draft asked for review is %s, want open", got)
		}
		body := f.page(t, f.W, cr)
		for _, want := range []string{"Needs approval from Rob Reviewer", `disabled aria-describedby="cr-merge-reason"`, "Waiting"} {
			if !strings.Contains(body, want) {
				t.Errorf("before approval the page does not show %q", want)
			}
		}
		f.refused(t, f.W, f.path(cr, "merge"), nil, http.StatusBadRequest, "the merge rules refuse this merge")

		f.refused(t, f.R, f.path(cr, "reviews"), url.Values{"verdict": {"maybe"}}, http.StatusBadRequest, "verdict: choose Approve or Request changes")
		f.refused(t, f.W, f.path(cr, "reviews"), url.Values{"verdict": {"approve"}}, http.StatusForbidden, "the author of a change request cannot review it")
		f.post(t, f.R, cr, "reviews", url.Values{"verdict": {"request-changes"}, "comment": {"Say *who* is reading."}}, "cr-changes-requested")
		body = f.page(t, f.W, cr)
		if !strings.Contains(body, "Changes requested") || !strings.Contains(body, "<em>who</em>") {
			t.Error("the writer does not see the requested changes with their comment")
		}
		f.post(t, f.R, cr, "reviews", url.Values{"verdict": {"approve"}}, "cr-approved")
		body = f.page(t, f.W, cr)
		if !strings.Contains(body, "<strong>Approved</strong>") || strings.Contains(body, `disabled aria-describedby="cr-merge-reason"`) {
			t.Error("after approval the page does not say Approved with the Merge button enabled")
		}
		f.post(t, f.R, cr, "merge", nil, "cr-merged")
		if got := f.current(t, cr).Status; got != quire.CRMerged {
			t.Fatalf("after merging: %s", got)
		}
		body = f.page(t, f.W, cr)
		for _, want := range []string{"/app/s/" + f.Space + "/intro", h.URL + "/docs/" + f.Space + "/intro", "Intro on the published site"} {
			if !strings.Contains(body, want) {
				t.Errorf("the merged page does not link %q", want)
			}
		}
		status, loc, _ := h.get(t, h.client(t, nil), "/docs/"+f.Space+"/intro")
		if status != http.StatusFound || loc == "" {
			t.Fatalf("the published address: %d to %q", status, loc)
		}
		if status, _, pub := h.get(t, h.client(t, nil), strings.TrimPrefix(loc, h.URL)); status != http.StatusOK || !strings.Contains(pub, "Hello, reader.") {
			t.Errorf("the published page: %d, without the merged text", status)
		}
	})
}

// TestChangeRequestReviewerRemovedAndTeams asks a team, then withdraws
// one request.
func TestChangeRequestReviewerRemovedAndTeams(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newCRFixture(t, h)
		cr := f.CR
		team, err := h.Svc.CreateTeam(ctx, h.Org, "Editors", []string{f.Reviewer.ID, f.Writer.ID})
		if err != nil {
			t.Fatal(err)
		}
		f.post(t, f.W, cr, "reviewers", url.Values{"reviewer": {"team:" + team.ID}}, "cr-reviewers")
		l, err := h.Svc.RequestedReviewers(ctx, f.Space, cr.ID, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].User.ID != f.Reviewer.ID {
			t.Fatalf("asking the team asked %d people, want the reviewer only (not the author)", len(l.Items))
		}
		f.refused(t, f.W, f.path(cr, "reviewers"), url.Values{"reviewer": {"team:nosuchteam"}}, http.StatusBadRequest, "reviewer: no such team")
		f.post(t, f.W, cr, "reviewers/"+f.Reviewer.ID+"/remove", nil, "cr-reviewer-removed")
		if l, _ := h.Svc.RequestedReviewers(ctx, f.Space, cr.ID, quire.Page{}); len(l.Items) != 0 {
			t.Fatal("the request was not withdrawn")
		}
		f.refused(t, f.W, f.path(cr, "reviewers/"+f.Reviewer.ID+"/remove"), nil, http.StatusNotFound, "There is nothing here")
	})
}

// TestChangeRequestUpdateFromMain updates an outdated change request from
// main, once cleanly and once with a conflict, which the page counts and
// links to.
func TestChangeRequestUpdateFromMain(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCRFixture(t, h)
		clash := f.writerChange(t, "Rename intro", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Page,
			Fields: service.PageFields{Title: ptr("Welcome")}})
		h.writeAndMerge(t, f.Space, "Main moves", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Page,
			Fields: service.PageFields{Title: ptr("Start here")}})
		body := f.page(t, f.W, f.CR)
		if !strings.Contains(body, "Update from main") {
			t.Fatal("an outdated change request offers no update from main")
		}
		f.post(t, f.W, f.CR, "update-from-main", nil, "cr-updated")
		if body := f.page(t, f.W, f.CR); strings.Contains(body, "Update from main") {
			t.Error("still outdated after the update")
		}
		f.post(t, f.W, f.CR, "update-from-main", nil, "cr-uptodate")

		status, loc, _ := h.postForm(t, f.W, f.path(clash, "update-from-main"), nil)
		if status != http.StatusSeeOther || !strings.Contains(loc, "conflicts=1") {
			t.Fatalf("update with a conflict: %d %q", status, loc)
		}
		_, _, body = h.get(t, f.W, loc)
		if !strings.Contains(body, "1 conflict with main") || !strings.Contains(body, f.path(clash, "conflicts")) {
			t.Errorf("the page does not count the conflict and link to it\n%s", problemText(body))
		}
		if f.current(t, clash).Revision != clash.Revision {
			t.Error("an update with conflicts changed the change request")
		}
	})
}

// TestChangeRequestLists checks the space's and the organization's lists
// and each filter.
func TestChangeRequestLists(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newCRFixture(t, h)
		f.writerChange(t, "Still drafting")
		merged := f.writerChange(t, "Already in", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Page,
			Fields: service.PageFields{Emoji: ptr("🚀")}})
		// A review asked of a change request merged since waits no more.
		if _, err := h.Svc.RequestReviewers(ctx, f.Writer, f.Space, merged.ID, service.ReviewersRequest{Users: []string{f.Reviewer.ID}}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.MergeChangeRequest(ctx, f.Writer, f.Space, merged.ID); err != nil {
			t.Fatal(err)
		}
		archived, err := h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space, "Abandoned")
		if err != nil {
			t.Fatal(err)
		}
		gone := quire.CRArchived
		if _, err := h.Svc.UpdateChangeRequest(ctx, f.Space, archived.ID, service.ChangeRequestPatch{Status: &gone}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.RequestReviewers(ctx, f.Writer, f.Space, f.CR.ID, service.ReviewersRequest{Users: []string{f.Reviewer.ID}}); err != nil {
			t.Fatal(err)
		}
		space := "/app/s/" + f.Space + "/~/changes"
		org := "/app/o/" + h.Org + "/changes"
		for _, c := range []struct {
			who       *http.Client
			path      string
			want, not []string
		}{
			{f.W, space, []string{"Better intro", "Still drafting", "Already in", "Abandoned"}, nil},
			{f.W, space + "?status=open", []string{"Better intro"}, []string{"Still drafting", "Already in", "Abandoned"}},
			{f.W, space + "?status=draft", []string{"Still drafting"}, []string{"Better intro", "Already in"}},
			{f.W, space + "?status=merged", []string{"Already in"}, []string{"Better intro", "Still drafting"}},
			{f.W, space + "?status=archived", []string{"Abandoned"}, []string{"Better intro"}},
			{f.W, space + "?who=mine", []string{"Better intro", "Still drafting", "Already in"}, []string{"Abandoned"}},
			{f.R, space + "?who=mine", []string{"You have no change request here."}, []string{"Better intro"}},
			{f.R, space + "?who=review", []string{"Better intro", "Walt Writer"}, []string{"Still drafting", "Already in"}},
			{f.W, space + "?who=review", []string{"Nobody is waiting for your review."}, []string{"Better intro"}},
			{f.R, org + "?who=review", []string{"Better intro", ">Guide<"}, []string{"Still drafting", "Already in"}},
			{f.W, org, []string{"Better intro", "Still drafting", "Already in", "Abandoned", ">Guide<"}, nil},
		} {
			status, _, body := h.get(t, c.who, c.path)
			if status != http.StatusOK {
				t.Errorf("GET %s: %d", c.path, status)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s does not show %q", c.path, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(body, w) {
					t.Errorf("GET %s shows %q", c.path, w)
				}
			}
		}
		for _, bad := range []struct{ path, says string }{
			{space + "?status=closed", "status: must be open, draft, merged or archived"},
			{org + "?who=everyone", "who: must be mine or review"},
		} {
			status, _, body := h.get(t, f.W, bad.path)
			if status != http.StatusBadRequest || !strings.Contains(body, bad.says) {
				t.Errorf("GET %s: %d, want 400 saying %q", bad.path, status, bad.says)
			}
		}
		// A guest of the organization reads none of its spaces: their
		// list leaves every row out.
		guest := h.newUser(t, "gus@acme.test", "Gus Guest", quire.RoleRead)
		noRole := quire.Role("")
		if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, guest.ID, &noRole); err != nil {
			t.Fatal(err)
		}
		status, _, body := h.get(t, h.client(t, h.signIn(t, guest)), org)
		if status != http.StatusOK || strings.Contains(body, "Better intro") || strings.Contains(body, "Abandoned") {
			t.Errorf("a guest's organization list: %d, showing change requests of spaces they cannot read", status)
		}
		// Nor does it tell how many there are.
		if !strings.Contains(body, "0 change requests") || !strings.Contains(body, "No change request yet.") {
			t.Errorf("a guest's organization list counts change requests of spaces they cannot read:\n%s", body)
		}
	})
}
