package service

import (
	"context"
	"strconv"

	"quire/internal/quire"
)

// DuplicatePageChanges returns the changes that copy a document page of
// the content ref names, with its subpages, as a new page right after
// it: insert_page changes, the copy first, its title marked "(copy)",
// each subpage keeping its title and slug under the copy of its parent.
// Pages of other kinds below it (links) are left out. A page that is not
// in the content, or that is not a document page, is EINVALID on field
// "page"; a subtree of more pages than one content write holds too.
func (s *Service) DuplicatePageChanges(ctx context.Context, ref ContentRef, pageID string) ([]ContentChange, error) {
	c, err := s.Content(ctx, ref)
	if err != nil {
		return nil, err
	}
	p, err := c.Page(ctx, pageID)
	if quire.IsNotFound(err) {
		return nil, quire.Invalid("page", "page %q does not exist", pageID)
	} else if err != nil {
		return nil, err
	}
	if p.Type != quire.PageDocument {
		return nil, quire.Invalid("page", "only document pages can be duplicated")
	}
	siblings, err := c.Children(ctx, p.Parent)
	if err != nil {
		return nil, err
	}
	at := len(siblings)
	for i, sb := range siblings {
		if sb.ID == p.ID {
			at = i + 1
		}
	}
	d := &duplicator{c: c}
	title := p.Title + " (copy)"
	top := ContentChange{Operation: OpInsertPage, Ref: "copy-0", At: &at, Fields: PageFields{Title: &title}}
	if p.Parent != "" {
		parent := p.Parent
		top.Into = &parent
	}
	if err := d.add(ctx, p, top); err != nil {
		return nil, err
	}
	return d.out, nil
}

// duplicator gathers the changes that copy a page tree.
type duplicator struct {
	c   *Content
	out []ContentChange
}

// add appends ch, the copy of p with p's document and settings, then the
// copies of p's document subpages under it.
func (d *duplicator) add(ctx context.Context, p *quire.RevisionPage, ch ContentChange) error {
	if len(d.out) >= MaxContentChanges {
		return quire.Invalid("page", "has more than %d pages with its subpages: too many to copy at once", MaxContentChanges)
	}
	doc, err := d.c.Document(ctx, p)
	if err != nil {
		return err
	}
	if doc != nil {
		ch.Document = &DocumentInput{JSON: doc}
	} else {
		empty := ""
		ch.Document = &DocumentInput{Markdown: &empty}
	}
	emoji, icon, desc, hidden := p.Emoji, p.Icon, p.Description, p.Hidden
	f := &ch.Fields
	f.Emoji, f.Icon, f.Description, f.Hidden = &emoji, &icon, &desc, &hidden
	if p.Layout != nil {
		l := *p.Layout
		f.Layout = &l
	}
	if p.Cover != nil {
		f.Cover = &CoverInput{Copy: p.Cover}
	}
	d.out = append(d.out, ch)
	kids, err := d.c.Children(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, k := range kids {
		if k.Type != quire.PageDocument {
			continue
		}
		into, title, slug := ch.Ref, k.Title, k.Slug
		kc := ContentChange{Operation: OpInsertPage, Ref: "copy-" + strconv.Itoa(len(d.out)), Into: &into,
			Fields: PageFields{Title: &title, Slug: &slug}}
		if err := d.add(ctx, k, kc); err != nil {
			return err
		}
	}
	return nil
}
