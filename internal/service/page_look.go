package service

import (
	"context"

	"quire/internal/quire"
)

// CoverInput names a page's new cover: a file of the content by id, or
// no cover when File is empty.
type CoverInput struct {
	File string
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
		if f.Cover.File == "" {
			p.Cover = nil
		} else {
			if _, err := b.ed.Snapshot().File(ctx, f.Cover.File); quire.IsNotFound(err) {
				return quire.Invalid(field+".cover", "file %q does not exist in this content", f.Cover.File)
			} else if err != nil {
				return err
			}
			c := &quire.PageCover{Ref: &quire.ContentRef{Kind: quire.RefFile, File: f.Cover.File}}
			if p.Cover != nil {
				c.YPos = p.Cover.YPos
			}
			p.Cover = c
		}
	}
	if l := f.Layout; l != nil {
		if !oneOf(l.Width, layoutWidths) {
			return quire.Invalid(field+".layout.width", "must be one of %v", layoutWidths)
		}
		if l.CoverSize != "" && !oneOf(l.CoverSize, coverSizes) {
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

// oneOf reports whether v is one of the values.
func oneOf(v string, values []string) bool {
	for _, x := range values {
		if v == x {
			return true
		}
	}
	return false
}
