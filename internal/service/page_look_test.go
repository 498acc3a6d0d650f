package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// write applies changes to the fixture's change request.
func (f *fileFixture) write(t *testing.T, changes ...service.ContentChange) ([]service.ChangeResult, error) {
	t.Helper()
	_, res, err := f.svc.UpdateChangeRequestContent(context.Background(), f.user, f.space, f.cr, changes)
	return res, err
}

// crPage reads a page of the fixture's change request.
func (f *fileFixture) crPage(t *testing.T, id string) *quire.RevisionPage {
	t.Helper()
	ctx := context.Background()
	c, err := f.svc.Content(ctx, service.ContentRef{SpaceID: f.space, ChangeRequest: f.cr})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Page(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPageCoverAndLayout sets a page's cover from a file of the change
// request and its layout, removes the cover, and refuses a missing file
// and an unknown width, naming the field, without writing anything.
func TestPageCoverAndLayout(t *testing.T) {
	t.Parallel()
	f := newFileFixture(t)
	md, title := "Hello", "Intro"
	res, err := f.write(t,
		service.ContentChange{Operation: service.OpInsertFiles, Files: []service.FileInput{{Name: "c.png", Ref: "cover", ContentType: "image/png", Data: []byte("png")}}},
		service.ContentChange{Operation: service.OpInsertPage, Document: &service.DocumentInput{Markdown: &md}, Fields: service.PageFields{Title: &title}})
	if err != nil {
		t.Fatal(err)
	}
	file, page := res[0].Files[0].ID, res[1].PageID
	wide := quire.DefaultPageLayout()
	wide.Width, wide.Outline, wide.CoverSize = "wide", false, ""
	if _, err := f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page,
		Fields: service.PageFields{Cover: &service.CoverInput{File: file}, Layout: &wide}}); err != nil {
		t.Fatal(err)
	}
	p := f.crPage(t, page)
	if p.Cover == nil || p.Cover.Ref == nil || p.Cover.Ref.Kind != quire.RefFile || p.Cover.Ref.File != file {
		t.Fatalf("cover = %+v, want the file %s", p.Cover, file)
	}
	if p.Layout == nil || p.Layout.Width != "wide" || p.Layout.Outline || !p.Layout.Title || p.Layout.CoverSize != "hero" {
		t.Fatalf("layout = %+v", p.Layout)
	}
	for _, c := range []struct {
		fields service.PageFields
		field  string
	}{
		{service.PageFields{Cover: &service.CoverInput{File: "nosuchfile"}}, "changes[0].cover"},
		{service.PageFields{Layout: &quire.PageLayout{Width: "huge"}}, "changes[0].layout.width"},
		{service.PageFields{Layout: &quire.PageLayout{Width: "wide", CoverSize: "tiny"}}, "changes[0].layout.coverSize"},
	} {
		_, err := f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page, Fields: c.fields})
		var e *quire.Error
		if quire.ErrorCode(err) != quire.EINVALID || !errors.As(err, &e) || e.Field != c.field {
			t.Errorf("%+v: %v, want EINVALID on %s", c.fields, err, c.field)
		}
	}
	if _, err := f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page,
		Fields: service.PageFields{Cover: &service.CoverInput{}}}); err != nil {
		t.Fatal(err)
	}
	if p := f.crPage(t, page); p.Cover != nil || p.Layout.Width != "wide" {
		t.Fatalf("after removing the cover: cover %+v, layout %+v", p.Cover, p.Layout)
	}
}

// TestDuplicatePageChanges copies a page with its subpages right after
// it, with their documents and settings, and refuses an unknown page.
func TestDuplicatePageChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFileFixture(t)
	ins := func(ref, title, md string, into *string) service.ContentChange {
		return service.ContentChange{Operation: service.OpInsertPage, Ref: ref, Into: into,
			Document: &service.DocumentInput{Markdown: &md}, Fields: service.PageFields{Title: &title}}
	}
	a, b := "a", "b"
	emoji := "🚀"
	first := ins("a", "Alpha", "Alpha body", nil)
	first.Fields.Emoji = &emoji
	res, err := f.write(t, first, ins("b", "Beta", "Beta body", &a), ins("c", "Gamma", "Gamma body", &b), ins("d", "Last", "", nil))
	if err != nil {
		t.Fatal(err)
	}
	ref := service.ContentRef{SpaceID: f.space, ChangeRequest: f.cr}
	changes, err := f.svc.DuplicatePageChanges(ctx, ref, res[0].PageID)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 3 {
		t.Fatalf("%d changes, want 3", len(changes))
	}
	if _, err := f.write(t, changes...); err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.Content(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	top, err := c.Children(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, p := range top {
		titles = append(titles, p.Title)
	}
	if got := strings.Join(titles, ","); got != "Alpha,Alpha (copy),Last" {
		t.Fatalf("top level %s", got)
	}
	cp := top[1]
	if cp.Emoji != emoji || cp.ID == res[0].PageID {
		t.Fatalf("copy %+v", cp)
	}
	kids, err := c.Children(ctx, cp.ID)
	if err != nil || len(kids) != 1 || kids[0].Title != "Beta" || kids[0].Slug != "beta" {
		t.Fatalf("copy's subpages %v %v", kids, err)
	}
	doc, err := c.Document(ctx, kids[0])
	if err != nil || !strings.Contains(string(doc), "Beta body") {
		t.Fatalf("copied document %s %v", doc, err)
	}
	grand, err := c.Children(ctx, kids[0].ID)
	if err != nil || len(grand) != 1 || grand[0].Title != "Gamma" {
		t.Fatalf("copy's grandchildren %v %v", grand, err)
	}
	if _, err := f.svc.DuplicatePageChanges(ctx, ref, "nosuchpage"); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("unknown page: %v", err)
	}
}

// TestPageCoverKept checks that a whole cover (an image, a dark image by
// address, a position) survives a settings write naming the cover it
// already has and a duplicate of its page, and that a copied cover's
// files must be of the content.
func TestPageCoverKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFileFixture(t)
	md, title := "Hello", "Intro"
	res, err := f.write(t,
		service.ContentChange{Operation: service.OpInsertFiles, Files: []service.FileInput{{Name: "c.png", Ref: "cover", ContentType: "image/png", Data: []byte("png")}}},
		service.ContentChange{Operation: service.OpInsertPage, Document: &service.DocumentInput{Markdown: &md}, Fields: service.PageFields{Title: &title}})
	if err != nil {
		t.Fatal(err)
	}
	file, page := res[0].Files[0].ID, res[1].PageID
	want := quire.PageCover{Ref: &quire.ContentRef{Kind: quire.RefFile, File: file},
		RefDark: &quire.ContentRef{Kind: quire.RefURL, URL: "https://img.example/dark.png"}, YPos: 0.25}
	same := func(what string, c *quire.PageCover) {
		t.Helper()
		if c == nil || c.Ref == nil || *c.Ref != *want.Ref || c.RefDark == nil || *c.RefDark != *want.RefDark || c.YPos != want.YPos {
			t.Errorf("%s: cover %+v, want %+v", what, c, want)
		}
	}
	if _, err := f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page,
		Fields: service.PageFields{Cover: &service.CoverInput{Copy: &want}}}); err != nil {
		t.Fatal(err)
	}
	same("set whole", f.crPage(t, page).Cover)
	if _, err := f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page,
		Fields: service.PageFields{Cover: &service.CoverInput{File: file}}}); err != nil {
		t.Fatal(err)
	}
	same("the same file chosen again", f.crPage(t, page).Cover)

	ref := service.ContentRef{SpaceID: f.space, ChangeRequest: f.cr}
	changes, err := f.svc.DuplicatePageChanges(ctx, ref, page)
	if err != nil {
		t.Fatal(err)
	}
	res, err = f.write(t, changes...)
	if err != nil {
		t.Fatal(err)
	}
	same("the copy", f.crPage(t, res[0].PageID).Cover)

	bad := want
	bad.RefDark = &quire.ContentRef{Kind: quire.RefFile, File: "nosuchfile"}
	_, err = f.write(t, service.ContentChange{Operation: service.OpUpdatePage, Page: page,
		Fields: service.PageFields{Cover: &service.CoverInput{Copy: &bad}}})
	var e *quire.Error
	if !errors.As(err, &e) || e.Code != quire.EINVALID || e.Field != "changes[0].cover" {
		t.Errorf("a dark image that is no file of the content: %v", err)
	}
}
