package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"quire/internal/service"
)

// diffPagesBefore and diffPagesAfter are a page's Markdown before and
// after an edit that keeps blocks, removes a quote, changes a paragraph
// and adds a code block.
const (
	diffPageBefore = "## Guide\n\nKeep one.\n\n> Remove me, a quoted line.\n\nChange me.\n\nKeep two.\n\nKeep three.\n"
	diffPageAfter  = "## Guide\n\nKeep one.\n\nChange me, now changed.\n\n```\nadded code\n```\n\nKeep two.\n\nKeep three.\n"
)

// diffFixture is a space with a merged first version of its pages and an
// open change request that edits, renames, removes and adds pages.
type diffFixture struct {
	spaceID, base, head string
	number              int
}

// newDiffFixture builds the fixture's space in the harness's
// organization.
func newDiffFixture(t *testing.T, h *harness) *diffFixture {
	t.Helper()
	ctx := context.Background()
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Manual"})
	if err != nil {
		t.Fatal(err)
	}
	f := &diffFixture{spaceID: sv.Space.ID}
	top := ""
	res := h.writeAndMerge(t, f.spaceID, "First",
		pageChange("guide", "Guide", "guide", diffPageBefore, &top),
		pageChange("old", "Old name", "old-name", "Named.\n", &top),
		pageChange("gone", "To remove", "to-remove", "Gone soon.\n", &top))
	sp, err := h.Store.Space(ctx, f.spaceID)
	if err != nil {
		t.Fatal(err)
	}
	f.base = sp.Revision
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, f.spaceID, "Rework the guide")
	if err != nil {
		t.Fatal(err)
	}
	md, title := diffPageAfter, "New name"
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, f.spaceID, cr.ID, []service.ContentChange{
		{Operation: service.OpUpdatePage, Page: res[0].PageID, Document: &service.DocumentInput{Markdown: &md}},
		{Operation: service.OpUpdatePage, Page: res[1].PageID, Fields: service.PageFields{Title: &title}},
		{Operation: service.OpDeletePage, Page: res[2].PageID},
		pageChange("fresh", "Fresh page", "fresh", "Brand new.\n", &top),
	}); err != nil {
		t.Fatal(err)
	}
	f.number = cr.Number
	// A second merge gives two revisions to compare.
	h.writeAndMerge(t, f.spaceID, "Second", service.ContentChange{Operation: service.OpUpdatePage, Page: res[0].PageID,
		Document: &service.DocumentInput{Markdown: &md}})
	if sp, err = h.Store.Space(ctx, f.spaceID); err != nil {
		t.Fatal(err)
	}
	f.head = sp.Revision
	return f
}

// TestChangeRequestDiffViews checks the change request's diff in each
// view: the changed pages listed on top with links to their sections,
// blocks marked added, removed and changed with their keys, unchanged
// runs collapsed, the Markdown lines marked, and the view remembered.
func TestChangeRequestDiffViews(t *testing.T) {
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newDiffFixture(t, h)
		c := h.client(t, h.signIn(t, h.Admin))
		path := "/app/s/" + f.spaceID + "/~/changes/" + strconv.Itoa(f.number) + "/diff"
		status, _, body := h.get(t, c, path)
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, status, body)
		}
		for _, want := range []string{
			"4 changed pages", `href="#page-`, `aria-label="Added block"`, `aria-label="Removed block"`, `aria-label="Changed block"`,
			"Remove me, a quoted line.", "Change me, now changed.", "added code", "2 unchanged blocks", "<details",
			`data-block="`, "Renamed", "Removed</span>", "Added</span>", `class="diff-blocks diff-split"`,
			`href="/app/s/` + f.spaceID + `/~/changes/` + strconv.Itoa(f.number) + `"`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("split view lacks %q", want)
			}
		}
		if strings.Count(body, `aria-label="Changed block"`) != 1 {
			t.Errorf("%d changed blocks, want 1", strings.Count(body, `aria-label="Changed block"`))
		}
		status, _, body = h.get(t, c, path+"?view=inline")
		if status != http.StatusOK || !strings.Contains(body, `class="diff-blocks diff-inline"`) || !strings.Contains(body, `aria-label="Added block"`) {
			t.Errorf("inline view: %d", status)
		}
		status, _, body = h.get(t, c, path+"?view=markdown")
		if status != http.StatusOK || !strings.Contains(body, `class="diff-line-added"`) || !strings.Contains(body, `class="diff-line-removed"`) ||
			!strings.Contains(body, "<code>Change me, now changed.</code>") || !strings.Contains(body, "<code>&gt; Remove me, a quoted line.</code>") {
			t.Errorf("markdown view: %d\n%s", status, body)
		}
		// The choice is remembered.
		if _, _, body = h.get(t, c, path); !strings.Contains(body, `class="diff-md"`) {
			t.Errorf("the Markdown view was not remembered")
		}
		if _, _, body = h.get(t, c, path+"?view=bogus"); !strings.Contains(body, `class="diff-md"`) {
			t.Errorf("an unknown view replaced the remembered one")
		}
		// The change request page links to its diff.
		if _, _, body = h.get(t, c, "/app/s/"+f.spaceID+"/~/changes/"+strconv.Itoa(f.number)); !strings.Contains(body, `href="`+path+`"`) {
			t.Errorf("the change request page does not link to its diff")
		}
		for _, bad := range []string{"/app/s/" + f.spaceID + "/~/changes/999/diff", "/app/s/" + f.spaceID + "/~/changes/abc/diff", "/app/s/nosuchspace/~/changes/1/diff"} {
			if status, _, _ := h.get(t, c, bad); status != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", bad, status)
			}
		}
	})
}

// TestCompareRevisionsViews checks the comparison of two revisions: the
// form of recent revisions, the diff in each view, the link from the
// revisions page, and the refusals of malformed choices naming the
// field.
func TestCompareRevisionsViews(t *testing.T) {
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newDiffFixture(t, h)
		c := h.client(t, h.signIn(t, h.Admin))
		base := "/app/s/" + f.spaceID + "/~/compare"
		status, _, body := h.get(t, c, base)
		if status != http.StatusOK || !strings.Contains(body, `<select id="compare-from" name="from">`) ||
			!strings.Contains(body, `value="`+f.head+`" selected`) || !strings.Contains(body, "1 changed page") {
			t.Fatalf("GET %s: %d\n%s", base, status, body)
		}
		q := url.Values{"from": {f.base}, "to": {f.head}}
		for _, view := range []string{"split", "inline", "markdown"} {
			q.Set("view", view)
			status, _, body := h.get(t, c, base+"?"+q.Encode())
			if status != http.StatusOK || !strings.Contains(body, "Guide") || !strings.Contains(body, "1 changed page") {
				t.Errorf("%s view: %d", view, status)
			}
			if view != "markdown" && !strings.Contains(body, `aria-label="Removed block"`) {
				t.Errorf("%s view marks no removed block", view)
			}
			if !strings.Contains(body, `aria-current="page">`+map[string]string{"split": "Side by side", "inline": "Inline", "markdown": "Markdown"}[view]) {
				t.Errorf("%s view is not the current tab", view)
			}
		}
		if _, _, body := h.get(t, c, "/app/s/"+f.spaceID+"/~/revisions"); !strings.Contains(body, `href="`+base+`"`) ||
			!strings.Contains(body, ">Compare</a>") {
			t.Errorf("the revisions page does not link to the comparison")
		}
		other, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Other"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c2 := range []struct{ query, field string }{
			{"from=nosuchrevision&to=" + f.head, "from"},
			{"from=" + f.base + "&to=nosuchrevision", "to"},
			{"from=" + f.head + "&to=" + f.head, "to"},
			{"from=" + f.base + "&to=" + other.Space.Revision, "to"},
			{"from=&to=" + f.head, "from"},
			{"to=" + f.head, "from"},
		} {
			status, _, body := h.get(t, c, base+"?"+c2.query)
			if status != http.StatusBadRequest || !strings.Contains(body, c2.field+":") {
				t.Errorf("compare ?%s: %d, want 400 naming %s\n%s", c2.query, status, c2.field, body)
			}
		}
	})
}
