package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
)

// Bounds of the editor's input.
const (
	// maxEditKey bounds a block key or page id named by an edit.
	maxEditKey = 100
	// MaxEditBlocks bounds the run of blocks one block edit covers.
	MaxEditBlocks = 1000
	// MaxEditMarkdown bounds the Markdown of one edit, in bytes.
	MaxEditMarkdown = 4 << 20
)

// BlockSource is a run of consecutive top-level blocks of a page (one
// block, or the blocks an earlier save of one block made) as the editor
// opens it: its GitBook Markdown and Base, the hash of its content as
// opened, which the save checks.
type BlockSource struct {
	PageID   string
	Key      string
	Count    int
	Markdown string
	Base     string
}

// PageSource is a whole page as the editor's Markdown mode opens it: its
// Markdown and Base, the hash of its content (see ContentHash).
type PageSource struct {
	Page     *quire.RevisionPage
	Markdown string
	Base     string
}

// EditConflict is the answer of an edit whose blocks (or page) changed
// since the editor opened them: Theirs is their Markdown now and Base
// their hash now, for a save that keeps the person's version anyway;
// Gone says the block is no longer in the page. It carries ECONFLICT.
type EditConflict struct {
	Theirs string
	Base   string
	Gone   bool
}

// Error implements error.
func (e *EditConflict) Error() string { return e.Unwrap().Error() }

// Unwrap gives the ECONFLICT the app and API answer.
func (e *EditConflict) Unwrap() error {
	if e.Gone {
		return quire.Errorf(quire.ECONFLICT, "the block was removed since you opened it")
	}
	return quire.Errorf(quire.ECONFLICT, "someone changed this since you opened it")
}

// EditResult is what a block or page save made, filled when the write
// runs: the keys of the blocks now in place of the ones edited, and
// their hash, the base of the next save, and the blocks themselves.
type EditResult struct {
	Keys   []string
	Base   string
	Blocks []document.Node
}

// ContentHash is the hash of a run of blocks' content, keys aside: the
// base of an edit. Equal content hashes equal however it was stored.
func ContentHash(nodes []document.Node) string {
	h := sha256.New()
	for i := range nodes {
		h.Write([]byte(document.BlockHash(nodes[i])))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// PageBlocks reads count blocks of a page starting at the block key, in
// the content ref names, as Markdown with their base. A page that is not
// there is ENOTFOUND; a key that is not in it too.
func (s *Service) PageBlocks(ctx context.Context, ref ContentRef, pageID, key string, count int) (*BlockSource, error) {
	if err := checkEditIDs(pageID, key, count); err != nil {
		return nil, err
	}
	_, doc, err := s.editablePage(ctx, ref, pageID)
	if err != nil {
		return nil, err
	}
	i := blockIndex(doc.Nodes, key)
	if i < 0 || i+count > len(doc.Nodes) {
		return nil, quire.NotFound("block")
	}
	run := doc.Nodes[i : i+count]
	md, err := blocksMarkdown(run)
	if err != nil {
		return nil, err
	}
	return &BlockSource{PageID: pageID, Key: key, Count: count, Markdown: md, Base: ContentHash(run)}, nil
}

// PageMarkdown reads a page of the content ref names as Markdown, with
// its base.
func (s *Service) PageMarkdown(ctx context.Context, ref ContentRef, pageID string) (*PageSource, error) {
	if err := checkEditIDs(pageID, "", 1); err != nil {
		return nil, err
	}
	p, doc, err := s.editablePage(ctx, ref, pageID)
	if err != nil {
		return nil, err
	}
	md, err := blocksMarkdown(doc.Nodes)
	if err != nil {
		return nil, err
	}
	return &PageSource{Page: p, Markdown: md, Base: ContentHash(doc.Nodes)}, nil
}

// editablePage reads a document page of a content and its document.
func (s *Service) editablePage(ctx context.Context, ref ContentRef, pageID string) (*quire.RevisionPage, *document.Document, error) {
	c, err := s.Content(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.Page(ctx, pageID)
	if quire.IsNotFound(err) || err == nil && !isDocumentPage(p) {
		return nil, nil, quire.NotFound("page")
	} else if err != nil {
		return nil, nil, err
	}
	doc, err := s.pageDocument(ctx, c, p)
	return p, doc, err
}

// ReplaceBlocks is the change that replaces count blocks of a page,
// starting at the block key, by the blocks markdown makes, only when
// their content is still what base hashes (else an *EditConflict). The
// first new block keeps key; the others take the keys of equal blocks
// of the run, or new ones; no other block of the page changes. Markdown
// making no block leaves an empty paragraph, so the block stays where
// it is. res receives the new blocks' keys and base.
func ReplaceBlocks(spaceID, pageID, key string, count int, base, markdown string, res *EditResult) (ContentChange, error) {
	if err := checkEditIDs(pageID, key, count); err != nil {
		return ContentChange{}, err
	}
	if err := checkBase(base); err != nil {
		return ContentChange{}, err
	}
	parsed, err := parseEdit(spaceID, markdown)
	if err != nil {
		return ContentChange{}, err
	}
	if len(parsed.Nodes) == 0 {
		parsed.Nodes = []document.Node{document.Block(document.TypeParagraph, nil, document.Text())}
		if parsed, err = storedForm(parsed); err != nil {
			return ContentChange{}, err
		}
	}
	edit := func(prev *document.Document) (*document.Document, error) {
		i, err := findRun(prev.Nodes, key, count, base)
		if err != nil {
			return nil, err
		}
		blocks := cloneNodes(parsed.Nodes)
		fresh := make([]string, len(blocks))
		for j := range blocks {
			fresh[j] = blocks[j].Key
		}
		document.ReuseKeys(&document.Document{Nodes: prev.Nodes[i : i+count]}, &document.Document{Nodes: blocks})
		blocks[0].Key = key
		for j := 1; j < len(blocks); j++ {
			if blocks[j].Key == key {
				blocks[j].Key = fresh[j]
			}
		}
		out := spliceNodes(prev.Nodes, i, count, blocks)
		res.set(blocks)
		return &document.Document{Data: prev.Data, Nodes: out}, nil
	}
	return pageEdit(pageID, edit), nil
}

// InsertBlocks is the change that adds the blocks markdown makes after
// the block key of a page, or at its end when key is "". A key no
// longer in the page is an *EditConflict (Gone). res receives the new
// blocks' keys and base.
func InsertBlocks(spaceID, pageID, key, markdown string, res *EditResult) (ContentChange, error) {
	if err := checkEditIDs(pageID, key, 1); err != nil {
		return ContentChange{}, err
	}
	parsed, err := parseEdit(spaceID, markdown)
	if err != nil {
		return ContentChange{}, err
	}
	if len(parsed.Nodes) == 0 {
		return ContentChange{}, quire.Invalid("markdown", "write the block to add")
	}
	edit := func(prev *document.Document) (*document.Document, error) {
		at := len(prev.Nodes)
		if key != "" {
			i := blockIndex(prev.Nodes, key)
			if i < 0 {
				return nil, &EditConflict{Gone: true}
			}
			at = i + 1
		}
		blocks := cloneNodes(parsed.Nodes)
		out := spliceNodes(prev.Nodes, at, 0, blocks)
		res.set(blocks)
		return &document.Document{Data: prev.Data, Nodes: out}, nil
	}
	return pageEdit(pageID, edit), nil
}

// DeleteBlocks is the change that removes count blocks of a page from
// the block key, only when their content is still what base hashes.
func DeleteBlocks(pageID, key string, count int, base string) (ContentChange, error) {
	if err := checkEditIDs(pageID, key, count); err != nil {
		return ContentChange{}, err
	}
	if err := checkBase(base); err != nil {
		return ContentChange{}, err
	}
	edit := func(prev *document.Document) (*document.Document, error) {
		i, err := findRun(prev.Nodes, key, count, base)
		if err != nil {
			return nil, err
		}
		return &document.Document{Data: prev.Data, Nodes: spliceNodes(prev.Nodes, i, count, nil)}, nil
	}
	return pageEdit(pageID, edit), nil
}

// ReplacePage is the change that makes a page's document what markdown
// makes, only when its content is still what base hashes (else an
// *EditConflict with the page's Markdown now). Unchanged blocks keep
// their keys. res receives the keys and the page's new base.
func ReplacePage(spaceID, pageID, base, markdown string, res *EditResult) (ContentChange, error) {
	if err := checkEditIDs(pageID, "", 1); err != nil {
		return ContentChange{}, err
	}
	if err := checkBase(base); err != nil {
		return ContentChange{}, err
	}
	parsed, err := parseEdit(spaceID, markdown)
	if err != nil {
		return ContentChange{}, err
	}
	edit := func(prev *document.Document) (*document.Document, error) {
		if h := ContentHash(prev.Nodes); h != base {
			return nil, conflictOf(prev.Nodes, h)
		}
		blocks := cloneNodes(parsed.Nodes)
		document.ReuseKeys(prev, &document.Document{Nodes: blocks})
		res.set(blocks)
		return &document.Document{Data: prev.Data, Nodes: blocks}, nil
	}
	return pageEdit(pageID, edit), nil
}

// PreviewDocument converts the Markdown of a page being edited, as a
// save would, for its preview.
func PreviewDocument(ctx context.Context, spaceID, markdown string) (*document.Document, error) {
	if len(markdown) > MaxEditMarkdown {
		return nil, quire.Invalid("markdown", "at most %d bytes", MaxEditMarkdown)
	}
	doc, err := document.FromMarkdown(markdown, document.WithContext(ctx), importOptions(spaceID))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, quire.Invalid("markdown", "%v", err)
	}
	return doc, nil
}

// set records the blocks a save made.
func (r *EditResult) set(blocks []document.Node) {
	if r == nil {
		return
	}
	r.Keys = r.Keys[:0]
	for i := range blocks {
		r.Keys = append(r.Keys, blocks[i].Key)
	}
	r.Base = ContentHash(blocks)
	r.Blocks = blocks
}

// pageEdit is the update_page change running edit on the page.
func pageEdit(pageID string, edit func(*document.Document) (*document.Document, error)) ContentChange {
	return ContentChange{Operation: OpUpdatePage, Page: pageID, Document: &DocumentInput{Edit: edit}}
}

// findRun returns where the run of count blocks from key starts, when
// its content is still what base hashes.
func findRun(nodes []document.Node, key string, count int, base string) (int, error) {
	i := blockIndex(nodes, key)
	if i < 0 {
		return 0, &EditConflict{Gone: true}
	}
	end := min(i+count, len(nodes))
	if h := ContentHash(nodes[i:end]); h != base || end-i != count {
		return 0, conflictOf(nodes[i:end], h)
	}
	return i, nil
}

// conflictOf is the conflict of an edit whose blocks are now nodes.
func conflictOf(nodes []document.Node, hash string) error {
	md, err := blocksMarkdown(nodes)
	if err != nil {
		return err
	}
	return &EditConflict{Theirs: md, Base: hash}
}

// blockIndex returns the index of the top-level block key; -1 for none.
func blockIndex(nodes []document.Node, key string) int {
	for i := range nodes {
		if nodes[i].Key == key {
			return i
		}
	}
	return -1
}

// spliceNodes returns nodes with n of them from i replaced by with, in a
// new slice.
func spliceNodes(nodes []document.Node, i, n int, with []document.Node) []document.Node {
	out := make([]document.Node, 0, len(nodes)-n+len(with))
	out = append(out, nodes[:i]...)
	out = append(out, with...)
	return append(out, nodes[i+n:]...)
}

// cloneNodes copies nodes and the nodes below them, whose keys an edit
// sets: each attempt of a write starts from the Markdown's own blocks.
func cloneNodes(nodes []document.Node) []document.Node {
	if nodes == nil {
		return nil
	}
	out := make([]document.Node, len(nodes))
	for i, n := range nodes {
		n.Nodes = cloneNodes(n.Nodes)
		n.Fragments = cloneNodes(n.Fragments)
		out[i] = n
	}
	return out
}

// blocksMarkdown writes blocks as GitBook Markdown.
func blocksMarkdown(nodes []document.Node) (string, error) {
	if len(nodes) == 0 {
		return "", nil
	}
	return document.ToMarkdown(&document.Document{Nodes: nodes})
}

// parseEdit converts the Markdown of an edit, as the space's pages
// convert it.
func parseEdit(spaceID, markdown string) (*document.Document, error) {
	if len(markdown) > MaxEditMarkdown {
		return nil, quire.Invalid("markdown", "at most %d bytes", MaxEditMarkdown)
	}
	doc, err := document.FromMarkdown(markdown, importOptions(spaceID))
	if err != nil {
		return nil, quire.Invalid("markdown", "%v", err)
	}
	return storedForm(doc)
}

// storedForm returns doc as a stored copy of it reads back (numbers,
// empty data and text), so that the edited document a write keeps parsed
// is the one a read of it would parse.
func storedForm(doc *document.Document) (*document.Document, error) {
	b, err := doc.MarshalJSON()
	if err != nil {
		return nil, quire.Invalid("markdown", "%v", err)
	}
	return document.ParseStored(b)
}

// checkEditIDs checks the page id, block key ("" for none) and count of
// blocks an edit names, naming the field that is wrong.
func checkEditIDs(pageID, key string, count int) error {
	if !isEditID(pageID) {
		return quire.Invalid("pageId", "not a page id")
	}
	if key != "" && !isEditID(key) {
		return quire.Invalid("key", "not a block key")
	}
	if count < 1 || count > MaxEditBlocks {
		return quire.Invalid("blocks", "give a number of blocks from 1 to %d", MaxEditBlocks)
	}
	return nil
}

// isEditID reports whether s may be a page id or block key: printable,
// without spaces or slashes, not too long.
func isEditID(s string) bool {
	if s == "" || len(s) > maxEditKey || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '/' || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// checkBase checks the base of an edit: a content hash.
func checkBase(base string) error {
	if len(base) != 32 || strings.Trim(base, "0123456789abcdef") != "" {
		return quire.Invalid("base", "not the version the editor opened; reload the page")
	}
	return nil
}
