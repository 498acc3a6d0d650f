package content

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/internal/quire"
)

// Edit builds a new revision from a base one. Its changes are visible to
// its own reads at once and stored only by Commit.
type Edit struct {
	snap  *Snapshot
	lasts *lastPositions
	tails tails
	now   time.Time
}

// tails knows the last position under each parent the edit appended to
// while its page map went, by appends alone, from base to root: an append
// under one parent leaves the last position under every other as it was
// in base.
type tails struct {
	base, root string
	last       map[string]string
}

// Edit starts an edit of base.
func (e *Engine) Edit(st Store, base *quire.Revision) *Edit {
	rev := *base
	s := e.Snapshot(st, &rev)
	s.r.pending = map[string][]byte{}
	return &Edit{snap: s, lasts: e.lasts, now: e.now().UTC().Truncate(time.Millisecond)}
}

// Snapshot reads the edit's current state.
func (ed *Edit) Snapshot() *Snapshot { return ed.snap }

// Changed reports whether the edit differs from its base.
func (ed *Edit) Changed(base *quire.Revision) bool {
	ed.seal()
	r := ed.snap.Rev
	return r.Pages != base.Pages || r.Slugs != base.Slugs || r.Files != base.Files
}

// PutObject stores a document, an object naming no other, in the edit
// and returns its key.
func (ed *Edit) PutObject(b []byte) string { return ed.snap.r.putLeaf(b) }

// putPage writes a page object and points the page map at it.
func (ed *Edit) putPage(ctx context.Context, p *quire.RevisionPage) error {
	p.Children = ed.snap.t.seal(p.Children) // a page object names stored maps only
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("content: encode page %s: %w", p.ID, err)
	}
	root, err := ed.snap.t.Set(ctx, ed.snap.Rev.Pages, p.ID, ed.snap.r.put(b))
	ed.snap.Rev.Pages = root
	return err
}

// childrenRoot returns the children map of a parent ("" is the top level).
func (ed *Edit) childrenRoot(ctx context.Context, parent string) (string, error) {
	if parent == "" {
		return ed.snap.Rev.Slugs, nil
	}
	p, err := ed.snap.Page(ctx, parent)
	if err != nil {
		return "", err
	}
	return p.Children, nil
}

// setChildrenRoot points a parent at a new children map.
func (ed *Edit) setChildrenRoot(ctx context.Context, parent, root string) error {
	if parent == "" {
		ed.snap.Rev.Slugs = root
		return nil
	}
	p, err := ed.snap.Page(ctx, parent)
	if err != nil {
		return err
	}
	p.Children = root
	return ed.putPage(ctx, p)
}

// checkParent checks that parent can hold page p.
func (ed *Edit) checkParent(ctx context.Context, p *quire.RevisionPage, field string) error {
	if p.Parent == "" {
		return nil
	}
	if p.Type == quire.PageGroup {
		return quire.Invalid(field, "group pages can only be at the top level")
	}
	parent, err := ed.snap.Page(ctx, p.Parent)
	if quire.IsNotFound(err) {
		return quire.Invalid(field, "page %q does not exist", p.Parent)
	} else if err != nil {
		return err
	}
	if parent.Type != quire.PageDocument && parent.Type != quire.PageGroup {
		return quire.Invalid(field, "a %s page cannot have child pages", parent.Type)
	}
	for id, depth := parent.ID, 0; id != ""; depth++ {
		if id == p.ID {
			return quire.Invalid(field, "a page cannot move under itself or its own child pages")
		}
		if depth > 1000 {
			return quire.Invalid(field, "the page tree is too deep")
		}
		anc, err := ed.snap.Page(ctx, id)
		if err != nil {
			return err
		}
		id = anc.Parent
	}
	return nil
}

// attach places p under its parent: a slug unique among the siblings
// (suffixed -1, -2… on collision) and a position at index at, or last when
// at is nil. It writes p and the parent's children map. A new page (fresh:
// not in the page map) placed last takes the key after the last position
// under the parent, from the engine's memo when it knows the current page
// map, without reading the siblings; the key is the same either way.
func (ed *Edit) attach(ctx context.Context, p *quire.RevisionPage, at *int, fresh bool) error {
	root, err := ed.childrenRoot(ctx, p.Parent)
	if err != nil {
		return err
	}
	if p.Slug == "" {
		p.Slug = Slugify(p.Title)
	}
	base := p.Slug
	for i := 1; ; i++ {
		id, taken, err := ed.snap.t.Get(ctx, root, p.Slug)
		if err != nil {
			return err
		}
		if !taken || id == p.ID {
			break
		}
		p.Slug = fmt.Sprintf("%s-%d", base, i)
	}
	appending := fresh && at == nil
	if last, ok := ed.lastUnder(p.Parent); appending && ok {
		p.Position = quire.KeyBetween(last, "")
		return ed.put(ctx, p, root, true)
	}
	siblings, err := ed.siblings(ctx, root, p.ID)
	if err != nil {
		return err
	}
	i := len(siblings)
	if at != nil && *at < i {
		i = max(*at, 0)
	}
	lo, hi := "", ""
	if i > 0 {
		lo = siblings[i-1].Position
	}
	if i < len(siblings) {
		hi = siblings[i].Position
	}
	if hi != "" && lo >= hi {
		hi = ""
	}
	p.Position = quire.KeyBetween(lo, hi)
	return ed.put(ctx, p, root, appending)
}

// put writes p, placed, into the children map root of its parent and
// the page map. When p went last under its parent (appended), the memo
// learns its position as the last one of the page map that results.
func (ed *Edit) put(ctx context.Context, p *quire.RevisionPage, root string, appended bool) error {
	before := ed.snap.Rev.Pages
	root, err := ed.snap.t.Set(ctx, root, p.Slug, p.ID)
	if err != nil {
		return err
	}
	if err := ed.putPage(ctx, p); err != nil {
		return err
	}
	if err := ed.setChildrenRoot(ctx, p.Parent, root); err != nil {
		return err
	}
	if appended {
		ed.appended(before, p.Parent, p.Position)
	}
	return nil
}

// lastUnder returns the last position under parent in the edit's page map
// when it is known without reading the siblings.
func (ed *Edit) lastUnder(parent string) (string, bool) {
	pages := ed.snap.Rev.Pages
	if ed.tails.last != nil && pages == ed.tails.root {
		if pos, ok := ed.tails.last[parent]; ok {
			return pos, true
		}
		pages = ed.tails.base
	}
	if held(pages) {
		return "", false
	}
	return ed.lasts.get(pages, parent)
}

// appended records that the page map went from before to its current
// root by placing a page last under parent, at pos.
func (ed *Edit) appended(before, parent, pos string) {
	if ed.tails.last == nil || before != ed.tails.root {
		ed.tails = tails{base: before, last: map[string]string{}}
	}
	ed.tails.root = ed.snap.Rev.Pages
	ed.tails.last[parent] = pos
}

// seal gives the edit's maps their content addresses (see trie.seal). The
// memo learns the last positions the appends of the edit left in the page
// map that results.
func (ed *Edit) seal() {
	rev, t := ed.snap.Rev, ed.snap.t
	pages := t.seal(rev.Pages)
	if ed.tails.last != nil && rev.Pages == ed.tails.root {
		ed.lasts.carry(ed.tails.base, pages, ed.tails.last)
		ed.tails.root = pages
	}
	rev.Pages, rev.Slugs, rev.Files = pages, t.seal(rev.Slugs), t.seal(rev.Files)
}

// siblings lists the pages of a children map except one, in order.
func (ed *Edit) siblings(ctx context.Context, root, except string) ([]*quire.RevisionPage, error) {
	var keys []string
	err := ed.snap.t.Walk(ctx, root, func(_, id string) error {
		if id == except {
			return nil
		}
		key, ok, err := ed.snap.t.Get(ctx, ed.snap.Rev.Pages, id)
		if err != nil || !ok {
			return err
		}
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		return nil, err
	}
	pages, err := ed.snap.pagesByKey(ctx, keys)
	SortPages(pages)
	return pages, err
}

// detach removes a page from its parent's children map.
func (ed *Edit) detach(ctx context.Context, p *quire.RevisionPage) error {
	root, err := ed.childrenRoot(ctx, p.Parent)
	if err != nil {
		return err
	}
	if root, err = ed.snap.t.Delete(ctx, root, p.Slug); err != nil {
		return err
	}
	return ed.setChildrenRoot(ctx, p.Parent, root)
}

// InsertPage adds a page. Its ID, Type, Title and Parent must be set; its
// slug defaults to the slugified title; its times default to now. doc is
// its document's JSON, if any; at places it among its siblings (nil:
// last).
func (ed *Edit) InsertPage(ctx context.Context, p *quire.RevisionPage, doc []byte, at *int) error {
	if _, ok, err := ed.snap.t.Get(ctx, ed.snap.Rev.Pages, p.ID); err != nil {
		return err
	} else if ok {
		return quire.Errorf(quire.ECONFLICT, "page %s already exists", p.ID)
	}
	if err := ed.checkParent(ctx, p, "into"); err != nil {
		return err
	}
	if doc != nil {
		p.Document = ed.PutObject(doc)
	}
	p.Children = ""
	// A page carried over from elsewhere (an import) keeps its times.
	if p.CreatedAt.IsZero() {
		p.CreatedAt = ed.now
	}
	if p.UpdatedAt.IsZero() {
		p.UpdatedAt = ed.now
	}
	return ed.attach(ctx, p, at, true)
}

// Move says where an updated page goes: under Parent (nil keeps it) at
// index At (nil: keep its place, or last when the parent changes).
type Move struct {
	Parent *string
	At     *int
}

// UpdatePage changes a page: change edits its fields (not its id, parent,
// position, document or children), doc replaces its document when not
// nil, move moves it. It returns the page as written.
func (ed *Edit) UpdatePage(ctx context.Context, id string, change func(*quire.RevisionPage) error, doc []byte, move Move) (*quire.RevisionPage, error) {
	old, err := ed.snap.Page(ctx, id)
	if err != nil {
		return nil, err
	}
	p := *old
	if change != nil {
		if err := change(&p); err != nil {
			return nil, err
		}
	}
	p.ID, p.Parent, p.Position, p.Document, p.Children = old.ID, old.Parent, old.Position, old.Document, old.Children
	if doc != nil {
		p.Document = ed.PutObject(doc)
	}
	if move.Parent != nil {
		p.Parent = *move.Parent
		if err := ed.checkParent(ctx, &p, "into"); err != nil {
			return nil, err
		}
	}
	if p.Type == quire.PageGroup && p.Parent != "" {
		return nil, quire.Invalid("type", "group pages can only be at the top level")
	}
	if p.Slug == "" {
		p.Slug = Slugify(p.Title)
	}
	p.UpdatedAt = ed.now
	relocate := p.Parent != old.Parent || p.Slug != old.Slug || move.At != nil
	if !relocate {
		return &p, ed.putPage(ctx, &p)
	}
	if err := ed.detach(ctx, old); err != nil {
		return nil, err
	}
	if p.Parent == old.Parent && move.At == nil {
		// Same place, new slug: keep the position, without reading the
		// siblings.
		if err := ed.putPage(ctx, &p); err != nil {
			return nil, err
		}
		if _, err := ed.link(ctx, p.ID, true); err != nil {
			return nil, err
		}
		return ed.snap.Page(ctx, p.ID)
	}
	return &p, ed.attach(ctx, &p, move.At, false)
}

// DeletePage removes a page and every page under it.
func (ed *Edit) DeletePage(ctx context.Context, id string) error {
	p, err := ed.snap.Page(ctx, id)
	if err != nil {
		return err
	}
	if err := ed.detach(ctx, p); err != nil {
		return err
	}
	return ed.dropSubtree(ctx, p)
}

// dropSubtree removes a page and its descendants from the page map.
func (ed *Edit) dropSubtree(ctx context.Context, p *quire.RevisionPage) error {
	var kids []string
	if err := ed.snap.t.Walk(ctx, p.Children, func(_, id string) error {
		kids = append(kids, id)
		return nil
	}); err != nil {
		return err
	}
	for _, id := range kids {
		kid, err := ed.snap.Page(ctx, id)
		if err != nil {
			return err
		}
		if err := ed.dropSubtree(ctx, kid); err != nil {
			return err
		}
	}
	root, err := ed.snap.t.Delete(ctx, ed.snap.Rev.Pages, p.ID)
	ed.snap.Rev.Pages = root
	return err
}

// PutFile adds or replaces a file.
func (ed *Edit) PutFile(ctx context.Context, f *quire.File) error {
	if f.CreatedAt.IsZero() {
		f.CreatedAt = ed.now
	}
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("content: encode file %s: %w", f.ID, err)
	}
	root, err := ed.snap.t.Set(ctx, ed.snap.Rev.Files, f.ID, ed.snap.r.put(b))
	ed.snap.Rev.Files = root
	return err
}

// DeleteFile removes a file.
func (ed *Edit) DeleteFile(ctx context.Context, id string) error {
	root, err := ed.snap.t.Delete(ctx, ed.snap.Rev.Files, id)
	ed.snap.Rev.Files = root
	return err
}

// Revision returns the new revision's content roots with the given
// identity; the caller stores it (Commit) or compares it.
func (ed *Edit) Revision(id, spaceID, typ, createdBy string, parents ...string) *quire.Revision {
	ed.seal()
	r := *ed.snap.Rev
	r.ID, r.SpaceID, r.Type, r.CreatedBy = id, spaceID, typ, createdBy
	r.Parents, r.MergedFrom, r.Git = parents, "", nil
	r.CreatedAt = ed.now
	return &r
}

// Commit stores the objects the new revision reaches and the revision
// itself. Objects written by intermediate steps of the edit and no longer
// reachable are dropped, so storage grows with the change alone.
func (ed *Edit) Commit(ctx context.Context, st Store, rev *quire.Revision) error {
	keep := ed.reachable(rev.Pages, rev.Slugs, rev.Files)
	if len(keep) > 0 {
		if err := st.PutObjects(ctx, keep); err != nil {
			return err
		}
	}
	for k, b := range keep {
		ed.snap.r.cache.put(k, b)
		if n, ok := ed.snap.r.nodes[k]; ok {
			// The next edit of this content reads it decoded.
			ed.snap.r.cache.putNode(k, n)
		}
	}
	return st.CreateRevision(ctx, rev)
}

// reachable collects the pending objects reachable from roots.
func (ed *Edit) reachable(roots ...string) map[string][]byte {
	keep := map[string][]byte{}
	stack := append([]string{}, roots...)
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b, ok := ed.snap.r.pending[k]
		if !ok || keep[k] != nil {
			continue
		}
		keep[k] = b
		if ed.snap.r.leaves[k] {
			continue
		}
		if n, ok := ed.snap.r.nodes[k]; ok { // a trie node, decoded already
			for _, e := range n.Entries {
				stack = append(stack, e.C, e.V)
			}
			continue
		}
		var refs struct {
			E        []trieEntry `json:"e"`
			Document string      `json:"document"`
			Children string      `json:"children"`
		}
		if json.Unmarshal(b, &refs) != nil {
			continue // a document: refers to nothing stored here
		}
		for _, e := range refs.E {
			stack = append(stack, e.C, e.V)
		}
		stack = append(stack, refs.Document, refs.Children)
	}
	return keep
}
