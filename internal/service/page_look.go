package service

import (
	"context"
	"slices"

	"quire/internal/quire"
)

// CoverInput names a page's new cover: a file of the content by id, or
// no cover when File is empty. Choosing the file the cover already shows
// leaves the cover as it is, its dark image and position included;
// another file keeps the position and drops the dark image, which went
// with the old one. Copy, when set, sets the cover to a copy of a whole
// cover of the same content instead (File is then ignored): its image
// and dark image, files of the content or addresses, and its position.
type CoverInput struct {
	// File is the id of a file of the content, or the Ref of a file an
	// insert_files change of the same write adds.
	File string
	Copy *quire.PageCover
}

// Page layout widths and cover sizes a change may set.
var (
	layoutWidths = []string{"default", "wide"}
	coverSizes   = []string{"hero", "full"}
)

// setLook applies the cover and layout of f to p: the cover must be a
// file of the content being written.
func (b *batch) setLook(ctx context.Context, field string, p *quire.RevisionPage, f PageFields) error {
	if f.Cover != nil {
		c, err := b.cover(ctx, field, p.Cover, *f.Cover)
		if err != nil {
			return err
		}
		p.Cover = c
	}
	if l := f.Layout; l != nil {
		if !slices.Contains(layoutWidths, l.Width) {
			return quire.Invalid(field+".layout.width", "must be one of %v", layoutWidths)
		}
		if l.CoverSize != "" && !slices.Contains(coverSizes, l.CoverSize) {
			return quire.Invalid(field+".layout.coverSize", "must be one of %v", coverSizes)
		}
		set := *l
		if set.CoverSize == "" {
			set.CoverSize = "hero"
		}
		p.Layout = &set
	}
	return nil
}

// cover returns the cover in sets on a page whose cover is cur.
func (b *batch) cover(ctx context.Context, field string, cur *quire.PageCover, in CoverInput) (*quire.PageCover, error) {
	if in.Copy != nil {
		c := *in.Copy
		for _, ref := range []*quire.ContentRef{c.Ref, c.RefDark} {
			if err := b.coverFile(ctx, field, ref); err != nil {
				return nil, err
			}
		}
		if c.Ref != nil {
			r := *c.Ref
			c.Ref = &r
		}
		if c.RefDark != nil {
			r := *c.RefDark
			c.RefDark = &r
		}
		return &c, nil
	}
	if in.File == "" {
		return nil, nil
	}
	if id, ok := b.files[in.File]; ok { // a file inserted earlier in the write
		in.File = id
	}
	if cur != nil && cur.Ref != nil && cur.Ref.Kind == quire.RefFile && cur.Ref.File == in.File {
		return cur, nil
	}
	ref := &quire.ContentRef{Kind: quire.RefFile, File: in.File}
	if err := b.coverFile(ctx, field, ref); err != nil {
		return nil, err
	}
	c := &quire.PageCover{Ref: ref}
	if cur != nil {
		c.YPos = cur.YPos
	}
	return c, nil
}

// coverFile checks that a cover's image, when it is a file, is a file of
// the content being written.
func (b *batch) coverFile(ctx context.Context, field string, ref *quire.ContentRef) error {
	if ref == nil || ref.Kind != quire.RefFile {
		return nil
	}
	if _, err := b.ed.Snapshot().File(ctx, ref.File); quire.IsNotFound(err) {
		return quire.Invalid(field+".cover", "file %q does not exist in this content", ref.File)
	} else if err != nil {
		return err
	}
	return nil
}
