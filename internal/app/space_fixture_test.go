package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"quire/internal/content"
	"quire/internal/quire"
	"quire/internal/service"
)

// spaceFixture is a space whose content has a group (Guides) holding
// Install, which holds Linux; a first page Welcome linking to Install; a
// hidden page Secret; two merged change requests (so an older revision
// shows the first Welcome) and an open one editing Install.
type spaceFixture struct {
	Space                           *quire.Space
	Welcome, Install, Linux, Secret string
	// OldRevision is the revision of the first merge; Open the number
	// of the open change request.
	OldRevision string
	Open        int
}

// pageChange is an insert_page change of Markdown.
func pageChange(ref, title, slug, md string, into *string) service.ContentChange {
	return service.ContentChange{Operation: service.OpInsertPage, Ref: ref, Into: into,
		Document: &service.DocumentInput{Markdown: &md}, Fields: service.PageFields{Title: &title, Slug: &slug}}
}

// jsonDoc is a document body of paragraphs of nodes.
func jsonDoc(t *testing.T, blocks ...any) *service.DocumentInput {
	t.Helper()
	b, err := json.Marshal(map[string]any{"object": "document", "data": map[string]any{}, "nodes": blocks})
	if err != nil {
		t.Fatal(err)
	}
	return &service.DocumentInput{JSON: b}
}

// jsonText and jsonLink are the inline nodes of jsonDoc paragraphs.
func jsonText(s string) map[string]any {
	return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}
}

func jsonLink(ref map[string]any, label string) map[string]any {
	return map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": ref}, "nodes": []any{jsonText(label)}}
}

func jsonPara(nodes ...any) map[string]any {
	return map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": nodes}
}

// writeAndMerge writes changes in a new change request and merges it,
// returning the change results.
func (h *harness) writeAndMerge(t *testing.T, spaceID, subject string, changes ...service.ContentChange) []service.ChangeResult {
	t.Helper()
	ctx := context.Background()
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, spaceID, subject)
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, spaceID, cr.ID, changes)
	if err != nil {
		t.Fatalf("write %q: %v", subject, err)
	}
	if _, err := h.Svc.MergeChangeRequest(ctx, h.Admin, spaceID, cr.ID); err != nil {
		t.Fatalf("merge %q: %v", subject, err)
	}
	return res
}

// newSpaceFixture builds the fixture's space in the harness's
// organization.
func newSpaceFixture(t *testing.T, h *harness) *spaceFixture {
	t.Helper()
	ctx := context.Background()
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook", Emoji: "📘"})
	if err != nil {
		t.Fatal(err)
	}
	f := &spaceFixture{}
	spaceID := sv.Space.ID
	// Groups come from imports only: write one with the content engine,
	// as an import would.
	sp, err := h.Store.Space(ctx, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	base, err := h.Store.Revision(ctx, spaceID, sp.Revision)
	if err != nil {
		t.Fatal(err)
	}
	ed := content.New().Edit(h.Store, base)
	group := &quire.RevisionPage{ID: quire.NewID(), Type: quire.PageGroup, Title: "Guides", Slug: "guides",
		CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := ed.InsertPage(ctx, group, nil, nil); err != nil {
		t.Fatal(err)
	}
	rev := ed.Revision(quire.NewID(), spaceID, quire.RevisionEdits, h.Admin.ID, base.ID)
	if err := ed.Commit(ctx, h.Store, rev); err != nil {
		t.Fatal(err)
	}
	if err := h.Store.AdvanceSpaceRevision(ctx, spaceID, base.ID, rev.ID); err != nil {
		t.Fatal(err)
	}

	zero := 0
	top := ""
	welcome := pageChange("welcome", "Welcome", "welcome", "Welcome to the handbook.\n", &top)
	welcome.At = &zero
	hidden := true
	secret := pageChange("secret", "Secret", "secret", "Only for the team.\n", &top)
	secret.Fields.Hidden = &hidden
	res := h.writeAndMerge(t, spaceID, "First pages", welcome,
		pageChange("install", "Install", "install", "How to install Quire.\n\n## Requirements\n\nA computer with zebrafish.\n\n## Steps\n\nRun the installer.\n", &group.ID),
		pageChange("linux", "Linux", "linux", "Installing on Linux.\n", ptr("install")),
		secret)
	f.Welcome, f.Install, f.Linux, f.Secret = res[0].PageID, res[1].PageID, res[2].PageID, res[3].PageID
	if sp, err = h.Store.Space(ctx, spaceID); err != nil {
		t.Fatal(err)
	}
	f.OldRevision = sp.Revision
	h.writeAndMerge(t, spaceID, "Link the install guide", service.ContentChange{Operation: service.OpUpdatePage, Page: f.Welcome,
		Document: jsonDoc(t, jsonPara(jsonText("Start with the "), jsonLink(map[string]any{"kind": "page", "page": f.Install}, "install guide"), jsonText(".")))})
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, spaceID, "Faster install")
	if err != nil {
		t.Fatal(err)
	}
	md := "How to install Quire quickly.\n"
	if _, _, err := h.Svc.UpdateChangeRequestContent(ctx, h.Admin, spaceID, cr.ID, []service.ContentChange{
		{Operation: service.OpUpdatePage, Page: f.Install, Document: &service.DocumentInput{Markdown: &md}}}); err != nil {
		t.Fatal(err)
	}
	f.Open = cr.Number
	if f.Space, err = h.Store.Space(ctx, spaceID); err != nil {
		t.Fatal(err)
	}
	return f
}

// ptr returns a pointer to s.
func ptr(s string) *string { return &s }

// awaitIndexed waits until the search index holds the space's current
// revision: indexing runs on the job queue.
func (h *harness) awaitIndexed(t *testing.T, spaceID string) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for {
		sp, err := h.Store.Space(ctx, spaceID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.Store.SearchIndexRevision(ctx, spaceID)
		if err != nil {
			t.Fatalf("index revision: %v", err)
		}
		if got == sp.Revision {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the search index of %s holds %q, never reached %q", spaceID, got, sp.Revision)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
