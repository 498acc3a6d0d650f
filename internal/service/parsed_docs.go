package service

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// parsedDocumentsSize is how many parsed page documents a service keeps.
const parsedDocumentsSize = 64

// parsedDocs keeps parsed page documents by their object key. A stored
// document never changes under its key, so an entry never goes stale and
// is right on every replica. What it hands out is shared: callers only
// read it, and edits build new node slices (spliceNodes).
type parsedDocs struct {
	c *lru.Cache[string, *document.Document]
}

// newParsedDocs returns a cache of n documents.
func newParsedDocs(n int) *parsedDocs {
	c, _ := lru.New[string, *document.Document](n) // n > 0 cannot fail
	return &parsedDocs{c: c}
}

// page returns the parsed document of a page of snap; an empty one when
// the page has none.
func (d *parsedDocs) page(ctx context.Context, snap *content.Snapshot, p *quire.RevisionPage) (*document.Document, error) {
	if p.Document == "" {
		return document.New(), nil
	}
	if doc, ok := d.c.Get(p.Document); ok {
		return doc, nil
	}
	raw, err := snap.Document(ctx, p)
	if err != nil {
		return nil, err
	}
	doc := document.New()
	if raw != nil {
		if doc, err = document.ParseStored(raw); err != nil {
			return nil, err
		}
	}
	d.c.Add(p.Document, doc)
	return doc, nil
}

// keep records doc as the parsed document stored under key, so that the
// next read or edit of a page just written does not parse it again.
func (d *parsedDocs) keep(key string, doc *document.Document) {
	if key != "" && doc != nil {
		d.c.Add(key, doc)
	}
}
