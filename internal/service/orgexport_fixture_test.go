package service

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"sync"
	"testing"
	"time"

	"quire/internal/blob"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/gitremote"
	"quire/internal/quire"
	"quire/internal/testutil/gitbookrepo"
)

// tickClock is a clock that moves one millisecond at every reading, so
// that everything the fixture makes has a time of its own.
type tickClock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the next millisecond.
func (c *tickClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// newExportService is a service over st with a blob store of its own, on
// a ticking clock.
func newExportService(t *testing.T, st quire.Store) *Service {
	t.Helper()
	blobs, err := blob.Open(t.Context(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = blobs.Close() })
	clock := &tickClock{t: time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)}
	return New(st, WithLogger(slog.New(slog.DiscardHandler)), WithBlobs(blobs), WithClock(clock.Now),
		WithEngine(content.New(content.WithClock(clock.Now))))
}

// orgFixture is a generated organization with everything an export
// carries: nested collections, spaces with nested pages and files (one
// imported from a GitBook repository with redirects and a custom root,
// one written through change requests, an empty one, two of the same
// title), grants, members of every kind, a team, a site with sections,
// and comments with replies, reactions and mentions.
type orgFixture struct {
	svc   *Service
	org   string
	users map[string]*quire.User // by first name
	// spaces and collections by title (the second Overview is "Overview 2").
	spaces      map[string]string
	collections map[string]string
	site        string
}

// fixtureUsers are the people of the fixture: email, name, role ("-"
// for a guest); Ada is the admin Bootstrap makes, and Dora is disabled.
var fixtureUsers = []struct{ first, email, name, role string }{
	{"eddie", "eddie@example.com", "Eddie Edit", "edit"},
	{"cora", "cora@example.com", "Cora Comment", "comment"},
	{"rita", "rita@example.com", "Rita Read", "read"},
	{"gus", "gus@example.com", "Gus Guest", "-"},
	{"dora", "dora@example.com", "Dora Disabled", "review"},
}

func newOrgFixture(t *testing.T, svc *Service) *orgFixture {
	t.Helper()
	ctx := t.Context()
	f := &orgFixture{svc: svc, users: map[string]*quire.User{}, spaces: map[string]string{}, collections: map[string]string{}}
	boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Acme Docs", Email: "ada@example.com", Name: "Ada Admin"})
	must(t, err)
	f.org = boot.Organization
	ada, err := svc.store.User(ctx, boot.User)
	must(t, err)
	f.users["ada"] = ada
	for _, u := range fixtureUsers {
		role := quire.Role(u.role)
		if u.role == "-" {
			role = ""
		}
		nu, _, err := svc.CreateUser(ctx, CreateUserInput{Email: u.email, Name: u.name, OrgID: f.org, Role: role})
		must(t, err)
		f.users[u.first] = nu
	}
	_, err = svc.SetMemberDisabled(ctx, f.org, f.users["dora"].ID, true)
	must(t, err)
	team, err := svc.CreateTeam(ctx, f.org, "Writers", []string{f.users["eddie"].ID, f.users["cora"].ID})
	must(t, err)
	must(t, svc.store.SetTeamMember(ctx, f.org, team.ID, f.users["eddie"].ID, quire.TeamOwner))
	must(t, svc.store.CreateTeam(ctx, &quire.Team{ID: quire.NewID(), OrgID: f.org, Title: "Empty", CreatedAt: svc.Now()}, nil))

	f.collection(t, "Guides", "")
	f.collection(t, "Advanced", "Guides")
	f.collection(t, "Internals", "Advanced")
	f.collection(t, "Reference", "")
	desc, level := "Everything deep", quire.DefaultLevel(quire.RoleComment)
	_, err = svc.UpdateCollection(ctx, ada, f.collections["Advanced"], quire.CollectionUpdate{Description: &desc, DefaultLevel: &level})
	must(t, err)

	f.space(t, "Handbook", "Internals", quire.VisibilityInCollection)
	f.space(t, "API", "Guides", quire.VisibilityPublic)
	f.space(t, "Overview", "Guides", quire.VisibilityPrivate)
	f.space(t, "Overview 2", "Reference", quire.VisibilityPrivate)
	f.space(t, "Notes", "", quire.VisibilityPrivate)
	f.importHandbook(t)
	f.writeAPI(t)
	f.write(t, f.spaces["Overview 2"], []ContentChange{{Operation: OpInsertPage, Ref: "o",
		Fields: PageFields{Title: ptrTo("Summary of things")}, Document: &DocumentInput{Markdown: ptrTo("Just one page.\n")}}})

	must(t, svc.InviteToSpace(ctx, f.spaces["API"], quire.RoleEdit, nil, []string{team.ID}))
	must(t, svc.InviteToSpace(ctx, f.spaces["API"], quire.RoleComment, []string{f.users["gus"].ID}, nil))
	must(t, svc.InviteToCollection(ctx, f.collections["Guides"], quire.RoleEdit, []string{f.users["rita"].ID}, nil))
	rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{
		{Rule: quire.RuleSpecificReviewers, Users: []string{ada.ID}}, {Rule: quire.RuleAtLeastOneReview}}}
	locked, inherit := quire.EditModeLocked, quire.DefaultInherit
	_, err = svc.UpdateSpace(ctx, ada, f.spaces["API"], quire.SpaceUpdate{MergeRules: &rules, EditMode: &locked, DefaultLevel: &inherit})
	must(t, err)
	f.makeSite(t)
	f.comment(t)
	return f
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }

func (f *orgFixture) collection(t *testing.T, title, parent string) {
	t.Helper()
	c, err := f.svc.CreateCollection(t.Context(), f.users["ada"], f.org, title, f.collections[parent])
	must(t, err)
	f.collections[title] = c.Collection.ID
}

func (f *orgFixture) space(t *testing.T, key, parent string, vis quire.Visibility) {
	t.Helper()
	title := key
	if key == "Overview 2" {
		title = "Overview"
	}
	sp, err := f.svc.CreateSpace(t.Context(), f.users["ada"], f.org, SpaceInput{Title: title, Emoji: "1f4d8",
		Parent: f.collections[parent], Visibility: vis, Language: "en"})
	must(t, err)
	f.spaces[key] = sp.Space.ID
}

// importHandbook fills the Handbook from a GitBook repository through
// Git Sync: pages in groups and nested, front matter, images, a custom
// root and structure files, and redirects.
func (f *orgFixture) importHandbook(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	quiet := slog.New(slog.DiscardHandler)
	remote := gitremote.New(gitremote.Options{AllowLocal: true, Logger: quiet})
	repo := bareRepo(t)
	if _, _, err := remote.Push(ctx, repo, "refs/heads/main", "", gitremote.Files(gitbookrepo.Files()), "Docs"); err != nil {
		t.Fatal(err)
	}
	job := GitJob{Space: f.spaces["Handbook"], User: f.users["ada"].ID, Ref: "refs/heads/main"}
	if _, _, err := NewGitSync(f.svc, remote).importRepo(ctx, f.users["ada"], job, repo); err != nil {
		t.Fatal(err)
	}
}

// writeAPI writes the API space through a change request: nested pages
// and an image.
func (f *orgFixture) writeAPI(t *testing.T) {
	t.Helper()
	into := func(ref string) *string { return &ref }
	f.write(t, f.spaces["API"], []ContentChange{
		{Operation: OpInsertFiles, Files: []FileInput{{Name: "logo.png", Ref: "logo", Data: fixturePNG(t)}}},
		{Operation: OpInsertPage, Ref: "intro", Fields: PageFields{Title: ptrTo("Introduction"), Description: ptrTo("Where to start")},
			Document: &DocumentInput{Markdown: ptrTo("The API answers JSON.\n\nEvery call needs a token.\n\n> A quote to comment on.\n")}},
		{Operation: OpInsertPage, Ref: "setup", Into: into("intro"), Fields: PageFields{Title: ptrTo("Setup")},
			Document: &DocumentInput{Markdown: ptrTo("## Steps\n\n1. Get a token\n2. Call the API\n")}},
		{Operation: OpInsertPage, Ref: "install", Into: into("setup"), Fields: PageFields{Title: ptrTo("Install"), Emoji: ptrTo("1f680")},
			Document: &DocumentInput{Markdown: ptrTo("```sh\ngo install quire\n```\n\n| Flag | Use |\n| --- | --- |\n| --data | where |\n")}},
		{Operation: OpInsertPage, Ref: "ref", Fields: PageFields{Title: ptrTo("Reference")},
			Document: &DocumentInput{Markdown: ptrTo("See [the site](https://example.com/docs) first.\n")}},
	})
}

// write applies changes to a space through a change request and merges
// it.
func (f *orgFixture) write(t *testing.T, spaceID string, changes []ContentChange) {
	t.Helper()
	ctx := t.Context()
	ada := f.users["ada"]
	cr, err := f.svc.CreateChangeRequest(ctx, ada, spaceID, "Write")
	must(t, err)
	_, _, err = f.svc.UpdateChangeRequestContent(ctx, ada, spaceID, cr.ID, changes)
	must(t, err)
	m, err := f.svc.MergeChangeRequest(ctx, ada, spaceID, cr.ID)
	must(t, err)
	if m.Result != ResultMerge {
		t.Fatalf("merge: %v", m.Result)
	}
}

// fixturePNG is a small PNG image.
func fixturePNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	must(t, png.Encode(&b, img))
	return b.Bytes()
}

// makeSite publishes the API and the Handbook in a site with a section
// group, two sections and a customization, the organization's default.
func (f *orgFixture) makeSite(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	st := f.svc.store
	site, err := NewSites(f.svc).CreateSite(ctx, f.users["ada"], f.org, SiteCreate{Title: "Public docs", Type: quire.SitePremium})
	must(t, err)
	f.site = site.ID
	now := f.svc.Now()
	group := &quire.SiteSectionGroup{ID: quire.NewID(), SiteID: site.ID, Title: "More", Icon: "book", Position: "a0", CreatedAt: now}
	must(t, st.CreateSiteSectionGroup(ctx, group))
	guides := &quire.SiteSection{ID: quire.NewID(), SiteID: site.ID, Title: "Guides", Path: "guides", Position: "a0", CreatedAt: now}
	inner := &quire.SiteSection{ID: quire.NewID(), SiteID: site.ID, Group: group.ID, Title: "Handbook", Path: "handbook",
		Description: "How we work", Condition: "visitor.claims.staff", Position: "a1", CreatedAt: now}
	must(t, st.CreateSiteSection(ctx, guides))
	must(t, st.CreateSiteSection(ctx, inner))
	api := &quire.SiteSpace{ID: quire.NewID(), SiteID: site.ID, Section: guides.ID, SpaceID: f.spaces["API"], Path: "api", Position: "a0", CreatedAt: now}
	hb := &quire.SiteSpace{ID: quire.NewID(), SiteID: site.ID, Section: inner.ID, SpaceID: f.spaces["Handbook"], Path: "handbook", Position: "a0", CreatedAt: now}
	must(t, st.CreateSiteSpace(ctx, api))
	must(t, st.CreateSiteSpace(ctx, hb))
	must(t, st.UpdateSiteSection(ctx, guides.ID, quire.SiteSectionUpdate{DefaultSiteSpace: &api.ID}))
	_, err = st.UpdateSite(ctx, site.ID, quire.SiteUpdate{Basename: ptrTo("acme"), Published: ptrTo(true), DefaultSection: &guides.ID})
	must(t, err)
	must(t, st.PutSiteCustomization(ctx, site.ID, []byte(`{"styling":{"primaryColor":{"light":"#346DDB","dark":"#346DDB"}}}`)))
	must(t, st.PutSiteAdaptiveSchema(ctx, site.ID, &quire.SiteAdaptiveSchema{JSON: []byte(`{"type":"object","properties":{"staff":{"type":"boolean"}}}`), UpdatedAt: now}))
	_, err = st.UpdateOrganization(ctx, f.org, quire.OrganizationUpdate{DefaultSite: &site.ID})
	must(t, err)
}

// mentionBody is a comment body mentioning a user after some text.
func mentionBody(text, userID string) []byte {
	return []byte(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[` +
		`{"object":"text","leaves":[{"object":"leaf","text":"` + text + `","marks":[]}]},` +
		`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + userID + `"}}}]}]}`)
}

// comment posts the fixture's comments: on a block of a page, with
// replies (one mentioning someone) and reactions; on a nested page,
// resolved; on the whole space; and on a page of the imported Handbook.
func (f *orgFixture) comment(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	as := func(first string) Commenter { return Commenter{User: f.users[first], Level: quire.LevelAdmin} }
	api := CommentScope{SpaceID: f.spaces["API"]}
	intro, doc := f.page(t, f.spaces["API"], "Introduction")
	second := doc.Nodes[1].Key
	c1, err := f.svc.PostComment(ctx, as("cora"), api, CommentInput{Page: intro.ID, Node: second,
		Body: DocumentInput{Markdown: ptrTo("Which token?")}})
	must(t, err)
	_, err = f.svc.PostReply(ctx, as("eddie"), api, c1.Comment.ID, DocumentInput{Markdown: ptrTo("An API token.")})
	must(t, err)
	r2, err := f.svc.PostReply(ctx, as("ada"), api, c1.Comment.ID, DocumentInput{JSON: mentionBody("Thanks ", f.users["cora"].ID)})
	must(t, err)
	_, err = f.svc.UpdateComment(ctx, as("eddie"), api, c1.Comment.ID, CommentPatch{AddedReactions: []string{"👍"}})
	must(t, err)
	_, err = f.svc.UpdateComment(ctx, as("ada"), api, c1.Comment.ID, CommentPatch{AddedReactions: []string{"👍", "🎉"}})
	must(t, err)
	_, err = f.svc.UpdateReply(ctx, as("cora"), api, c1.Comment.ID, r2.Reply.ID, ReplyPatch{AddedReactions: []string{"❤️"}})
	must(t, err)

	install, _ := f.page(t, f.spaces["API"], "Install")
	c2, err := f.svc.PostComment(ctx, as("eddie"), api, CommentInput{Page: install.ID, Body: DocumentInput{Markdown: ptrTo("Add Windows.")}})
	must(t, err)
	_, err = f.svc.UpdateComment(ctx, as("ada"), api, c2.Comment.ID, CommentPatch{Resolved: ptrTo(true)})
	must(t, err)
	_, err = f.svc.PostComment(ctx, as("ada"), api, CommentInput{Body: DocumentInput{JSON: mentionBody("Review this, ", f.users["eddie"].ID)}})
	must(t, err)

	setup, _ := f.page(t, f.spaces["Handbook"], "Setup")
	_, err = f.svc.PostComment(ctx, as("gus"), CommentScope{SpaceID: f.spaces["Handbook"]}, CommentInput{Page: setup.ID,
		Body: DocumentInput{Markdown: ptrTo("Out of date?")}})
	must(t, err)
}

// page returns the first page of a space's current revision with a
// title, and its document.
func (f *orgFixture) page(t *testing.T, spaceID, title string) (*quire.RevisionPage, *document.Document) {
	t.Helper()
	return spacePage(t, f.svc, spaceID, title)
}

// spacePage is orgFixture.page for any service.
func spacePage(t *testing.T, svc *Service, spaceID, title string) (*quire.RevisionPage, *document.Document) {
	t.Helper()
	ctx := t.Context()
	snap := mainSnapshot(t, svc, spaceID)
	pages, err := snap.Pages(ctx)
	must(t, err)
	for _, p := range pages {
		if p.Title != title {
			continue
		}
		if p.Type != quire.PageDocument {
			return p, nil
		}
		b, err := snap.Document(ctx, p)
		must(t, err)
		d, err := document.ParseStored(b)
		must(t, err)
		return p, d
	}
	t.Fatalf("space %s has no page %q", spaceID, title)
	return nil, nil
}

// memSink is an export held in memory.
type memSink map[string][]byte

// File implements ExportSink.
func (m memSink) File(name string, data []byte) error {
	if _, ok := m[name]; ok {
		return &quire.Error{Code: quire.ECONFLICT, Message: name + " written twice"}
	}
	m[name] = bytes.Clone(data)
	return nil
}

// exportOrg exports an organization into memory.
func exportOrg(t *testing.T, svc *Service, orgID string) (memSink, *OrgManifest) {
	t.Helper()
	e, err := NewOrgExports(svc).Begin(t.Context(), orgID)
	must(t, err)
	defer e.Close()
	out := memSink{}
	must(t, e.Write(t.Context(), out))
	var m OrgManifest
	must(t, json.Unmarshal(out[ManifestFile], &m))
	return out, &m
}

// mainSnapshot reads the space's main revision.
func mainSnapshot(t *testing.T, svc *Service, spaceID string) *content.Snapshot {
	t.Helper()
	ctx := t.Context()
	sp, err := svc.store.Space(ctx, spaceID)
	must(t, err)
	rev, err := svc.store.Revision(ctx, sp.ID, sp.Revision)
	must(t, err)
	return svc.engine.Snapshot(svc.store, rev)
}
