package service

import (
	"container/list"
	"context"
	"sync"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// parsedDocumentsBytes bounds the parsed page documents a service keeps,
// counted as the bytes of their stored JSON; parsed, a document takes
// about three times that.
const parsedDocumentsBytes = 8 << 20

// parsedDocs keeps parsed page documents by their object key, the most
// recently used first, within a budget of stored bytes. A stored document
// never changes under its key, so an entry never goes stale and is right
// on every replica. What it hands out is shared: callers only read it,
// and edits build new node slices (spliceNodes).
type parsedDocs struct {
	mu    sync.Mutex
	order *list.List // of *parsedDoc, most recent first
	byKey map[string]*list.Element
	size  int
	limit int
}

// parsedDoc is one kept document and the size of its stored JSON.
type parsedDoc struct {
	key  string
	doc  *document.Document
	size int
}

// newParsedDocs returns a cache within limit stored bytes.
func newParsedDocs(limit int) *parsedDocs {
	return &parsedDocs{order: list.New(), byKey: map[string]*list.Element{}, limit: limit}
}

// page returns the parsed document of a page of snap; an empty one when
// the page has none.
func (d *parsedDocs) page(ctx context.Context, snap *content.Snapshot, p *quire.RevisionPage) (*document.Document, error) {
	if p.Document == "" {
		return document.New(), nil
	}
	if doc, ok := d.get(p.Document); ok {
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
	d.keep(p.Document, doc, len(raw))
	return doc, nil
}

// get returns the document kept under key.
func (d *parsedDocs) get(key string) (*document.Document, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.byKey[key]
	if !ok {
		return nil, false
	}
	d.order.MoveToFront(e)
	return e.Value.(*parsedDoc).doc, true
}

// keep records doc as the parsed document stored under key as size
// bytes, so that the next read or edit of a page just written does not
// parse it again. A document over the whole budget is not kept.
func (d *parsedDocs) keep(key string, doc *document.Document, size int) {
	if key == "" || doc == nil || size > d.limit {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.byKey[key]; ok {
		d.order.MoveToFront(e)
		return
	}
	d.byKey[key] = d.order.PushFront(&parsedDoc{key: key, doc: doc, size: size})
	d.size += size
	for d.size > d.limit {
		old := d.order.Remove(d.order.Back()).(*parsedDoc)
		delete(d.byKey, old.key)
		d.size -= old.size
	}
}
