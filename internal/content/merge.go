package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"quire/internal/quire"
)

// Conflict is one page (and, for documents, block) or file that main and a
// change request changed incompatibly.
type Conflict struct {
	Page   string // page id; "" for a file conflict
	Field  string // the page field, by its JSON name ("title", "document"…); "" for the whole page
	Block  string // key of the block within the page's document ("#" and the start of its content hash for a block without key); "" for page-level
	File   string // file id, for a file conflict
	Reason string
}

// String describes the conflict.
func (c Conflict) String() string {
	where := "page " + c.Page
	if c.File != "" {
		where = "file " + c.File
	}
	if c.Field != "" {
		where += " " + c.Field
	}
	if c.Block != "" {
		where += " block " + c.Block
	}
	return where + ": " + c.Reason
}

// Merge applies the changes a change request made from base to theirs onto
// ours, the space's current revision. It returns an edit of ours holding
// the merged content, for the caller to commit, or every conflict and no
// edit.
//
// Only the pages and files that differ between base and either side are
// read, so the cost follows the size of the changes, not of the space.
//
// Page fields merge three ways, each on its own: a field changed on one
// side takes that side, changed identically on both is kept, changed
// differently is a conflict on that field. A page's parent and position
// move together: the side that moved it decides both. A page deleted on
// one side and edited on the other, or deleted by the change request while
// main put pages under it, is a conflict. updatedAt takes the later time;
// children maps are maintained by the edit, never merged.
//
// Documents changed on both sides merge by top-level block, a block being
// identified by its key (or its content when it has none): insertions,
// deletions, moves and edits made on one side apply; a block edited
// differently on both sides, deleted on one and edited on the other, or
// insertions by both sides at the same place (unless identical) are
// conflicts naming the block.
//
// Slugs: main keeps its slugs. A page the change request adds, renames or
// moves whose slug is taken among its new siblings gets the first free
// suffix (-1, -2…), as InsertPage does. Positions are kept as the side that
// set them wrote them; equal positions order by page id.
func (e *Engine) Merge(ctx context.Context, st Store, base, ours, theirs *quire.Revision) (*Edit, []Conflict, error) {
	return e.merge(ctx, st, base, ours, theirs, nil)
}

// merge is Merge with resolutions (see MergeResolved).
func (e *Engine) merge(ctx context.Context, st Store, base, ours, theirs *quire.Revision, res map[string]Resolution) (*Edit, []Conflict, error) {
	m := &merger{
		ed: e.Edit(st, ours), base: base, ours: ours, theirs: theirs, res: res,
		oursPage: map[string]*quire.RevisionPage{}, written: map[string]*quire.RevisionPage{},
		relocated: map[string]bool{}, deleted: map[string]*quire.RevisionPage{}, conflicted: map[string]bool{},
	}
	if err := m.planPages(ctx); err != nil {
		return nil, nil, err
	}
	if err := m.planFiles(ctx); err != nil {
		return nil, nil, err
	}
	if len(m.conflicts) > 0 {
		sortConflicts(m.conflicts)
		return nil, m.conflicts, nil
	}
	if err := m.applyPages(ctx); err != nil {
		return nil, nil, err
	}
	if err := m.applyFiles(ctx); err != nil {
		return nil, nil, err
	}
	return m.ed, nil, nil
}

// sortConflicts orders conflicts: pages, then files.
func sortConflicts(cs []Conflict) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if (a.File != "") != (b.File != "") {
			return a.File == ""
		}
		if a.Page != b.Page {
			return a.Page < b.Page
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Block < b.Block
	})
}

// merger is the state of one merge: first a plan, then, when the plan has
// no conflicts, its application to the edit.
type merger struct {
	ed                 *Edit
	base, ours, theirs *quire.Revision
	conflicts          []Conflict
	res                map[string]Resolution // by Conflict.ID

	oursPage   map[string]*quire.RevisionPage // main's version of each page the merge writes (nil: new)
	written    map[string]*quire.RevisionPage // merged pages to write
	relocated  map[string]bool                // written pages to link under their parent (new, moved or renamed)
	deleted    map[string]*quire.RevisionPage // pages to delete, as in main
	conflicted map[string]bool                // pages with a conflict

	filesRoot *string     // a whole new file map, when main changed no file
	fileSets  [][2]string // file id, new object key ("" deletes)
}

// conflict records a conflict about a page.
func (m *merger) conflict(page, field, block, format string, args ...any) {
	m.conflicted[page] = true
	m.conflicts = append(m.conflicts, Conflict{Page: page, Field: field, Block: block, Reason: fmt.Sprintf(format, args...)})
}

// diff lists the keys of a map that differ between two roots: key → [old
// value, new value], "" where absent.
func (m *merger) diff(ctx context.Context, a, b string) (map[string][2]string, error) {
	out := map[string][2]string{}
	err := m.ed.snap.t.Diff(ctx, a, b, func(k, va, vb string) error {
		out[k] = [2]string{va, vb}
		return nil
	})
	return out, err
}

// planPages decides what happens to every page the change request
// changed.
func (m *merger) planPages(ctx context.Context) error {
	if m.base.Pages == m.theirs.Pages && m.base.Slugs == m.theirs.Slugs {
		return nil
	}
	if m.base.Pages == m.ours.Pages && m.base.Slugs == m.ours.Slugs {
		// Main has not changed a page: the result is the change request's.
		m.ed.snap.Rev.Pages, m.ed.snap.Rev.Slugs = m.theirs.Pages, m.theirs.Slugs
		return nil
	}
	theirsDiff, err := m.diff(ctx, m.base.Pages, m.theirs.Pages)
	if err != nil {
		return err
	}
	oursDiff, err := m.diff(ctx, m.base.Pages, m.ours.Pages)
	if err != nil {
		return err
	}
	// Read the three versions of every page the change request changed in
	// one round trip.
	need := map[string]bool{}
	for id, d := range theirsDiff {
		need[d[0]], need[d[1]] = true, true
		if od, ok := oursDiff[id]; ok {
			need[od[1]] = true
		}
	}
	delete(need, "")
	objs, err := m.ed.snap.r.getMany(ctx, sortedKeys(need))
	if err != nil {
		return err
	}
	load := func(key string) (*quire.RevisionPage, error) {
		if key == "" {
			return nil, nil
		}
		return decodePage(key, objs[key])
	}
	ids := make([]string, 0, len(theirsDiff))
	for id := range theirsDiff {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		d := theirsDiff[id]
		oKey := d[0]
		if od, ok := oursDiff[id]; ok {
			oKey = od[1]
		}
		b, err := load(d[0])
		if err != nil {
			return err
		}
		o, err := load(oKey)
		if err != nil {
			return err
		}
		t, err := load(d[1])
		if err != nil {
			return err
		}
		if err := m.planPage(ctx, id, b, o, t); err != nil {
			return err
		}
	}
	if err := m.checkPlacements(ctx); err != nil {
		return err
	}
	return m.checkDeletions(ctx)
}

// planPage decides what happens to one page given its base, main and
// change request versions (nil where absent).
func (m *merger) planPage(ctx context.Context, id string, b, o, t *quire.RevisionPage) error {
	switch {
	case b == nil && o == nil: // added by the change request
		p := *t
		p.Children = ""
		m.written[id], m.oursPage[id], m.relocated[id] = &p, nil, true
	case t == nil && o == nil: // deleted on both sides
	case t == nil:
		if pageEdited(b, o) {
			r, ok := m.resolution(id, "", "")
			if !ok {
				m.conflict(id, "", "", "deleted in the change request, edited in main")
				return nil
			}
			if r.Take == TakeOurs {
				return nil
			}
		}
		m.deleted[id] = o
	case o == nil:
		if pageEdited(b, t) {
			r, ok := m.resolution(id, "", "")
			switch {
			case !ok:
				m.conflict(id, "", "", "edited in the change request, deleted in main")
			case r.Take == TakeTheirs: // restored as the change request has it
				p := *t
				p.Children = ""
				m.written[id], m.oursPage[id], m.relocated[id] = &p, nil, true
			}
		}
		// Otherwise only its children changed there; each child is
		// planned on its own.
	default:
		p, err := m.mergePage(ctx, b, o, t)
		if err != nil || p == nil || !pageEdited(o, p) {
			return err
		}
		m.written[id], m.oursPage[id] = p, o
		if p.Parent != o.Parent || p.Slug != o.Slug {
			m.relocated[id] = true
		}
	}
	return nil
}

// pageFields returns a page's JSON members; a nil page has none.
func pageFields(p *quire.RevisionPage) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if p == nil {
		return out, nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("content: encode page %s: %w", p.ID, err)
	}
	return out, json.Unmarshal(b, &out)
}

// pageEdited reports whether two versions of a page differ in anything
// but their children map and update time.
func pageEdited(a, b *quire.RevisionPage) bool {
	x, y := *a, *b
	x.Children, y.Children = "", ""
	x.UpdatedAt = y.UpdatedAt
	bx, errx := json.Marshal(&x)
	by, erry := json.Marshal(&y)
	return errx != nil || erry != nil || !bytes.Equal(bx, by)
}

// mergePage merges the three versions of a page both sides have. It
// returns nil when a field conflicts (the conflicts are recorded).
func (m *merger) mergePage(ctx context.Context, b, o, t *quire.RevisionPage) (*quire.RevisionPage, error) {
	id := o.ID
	bm, err := pageFields(b)
	if err != nil {
		return nil, err
	}
	om, err := pageFields(o)
	if err != nil {
		return nil, err
	}
	tm, err := pageFields(t)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for k, v := range om {
		out[k] = v
	}
	set := func(k string, v json.RawMessage) {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	keys := map[string]bool{}
	for _, fm := range []map[string]json.RawMessage{bm, om, tm} {
		for k := range fm {
			keys[k] = true
		}
	}
	ok := true
	for _, k := range sortedKeys(keys) {
		switch k {
		case "id", "children", "createdAt", "updatedAt", "parent", "position", "document":
			continue
		}
		v, merged := merge3(bm[k], om[k], tm[k], bytes.Equal)
		if r, ok := m.resolution(id, k, ""); !merged && ok {
			v, merged = pick(r.Take, om[k], tm[k]), true
		}
		if !merged {
			m.conflict(id, k, "", "changed differently in main and in the change request")
			ok = false
			continue
		}
		set(k, v)
	}
	// Parent and position are one placement: the side that moved the page
	// decides both.
	bp, op, tp := bm["parent"], om["parent"], tm["parent"]
	if r, ok := m.resolution(id, "parent", ""); ok && !bytes.Equal(op, tp) {
		// The chosen side's placement wins.
		bp = pick(r.Take, tp, op)
	}
	switch {
	case bytes.Equal(op, tp):
		v, merged := merge3(bm["position"], om["position"], tm["position"], bytes.Equal)
		if r, ok := m.resolution(id, "position", ""); !merged && ok {
			v, merged = pick(r.Take, om["position"], tm["position"]), true
		}
		if !merged {
			m.conflict(id, "position", "", "moved to different positions in main and in the change request")
			ok = false
		} else {
			set("position", v)
		}
	case bytes.Equal(bp, op):
		set("parent", tp)
		set("position", tm["position"])
	case bytes.Equal(bp, tp):
	default:
		m.conflict(id, "parent", "", "moved under different pages in main and in the change request")
		ok = false
	}
	doc, docOK, err := m.mergeDocument(ctx, id, b, o, t)
	if err != nil {
		return nil, err
	}
	if !ok || !docOK {
		return nil, nil
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("content: encode page %s: %w", id, err)
	}
	p := &quire.RevisionPage{}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, fmt.Errorf("content: decode merged page %s: %w", id, err)
	}
	p.Document, p.CreatedAt, p.UpdatedAt = doc, o.CreatedAt, o.UpdatedAt
	if t.UpdatedAt.After(p.UpdatedAt) {
		p.UpdatedAt = t.UpdatedAt
	}
	return p, nil
}

// mergeDocument merges a page's document and returns its object key. It
// reports false when blocks conflict (the conflicts are recorded).
func (m *merger) mergeDocument(ctx context.Context, id string, b, o, t *quire.RevisionPage) (string, bool, error) {
	bk, ok, tk := "", o.Document, t.Document
	if b != nil {
		bk = b.Document
	}
	switch {
	case ok == tk || bk == tk:
		return ok, true, nil
	case bk == ok:
		return tk, true, nil
	}
	if r, resolved := m.resolution(id, "document", ""); resolved {
		// The whole document of the chosen side.
		return pick(r.Take, ok, tk), true, nil
	}
	switch {
	case ok == "":
		m.conflict(id, "document", "", "document removed in main, edited in the change request")
		return "", false, nil
	case tk == "":
		m.conflict(id, "document", "", "document removed in the change request, edited in main")
		return "", false, nil
	}
	keys := []string{ok, tk}
	if bk != "" {
		keys = append(keys, bk)
	}
	objs, err := m.ed.snap.r.getMany(ctx, keys)
	if err != nil {
		return "", false, err
	}
	merged, conflicts, err := mergeDocumentsResolved(objs[bk], objs[ok], objs[tk], m.blockResolutions(id))
	if err != nil {
		m.conflict(id, "document", "", "cannot merge the document: %v", err)
		return "", false, nil
	}
	for _, c := range conflicts {
		m.conflict(id, "document", c.Block, "%s", c.Reason)
	}
	switch {
	case len(conflicts) > 0:
		return "", false, nil
	case sameJSON(merged, objs[ok]):
		return ok, true, nil
	case sameJSON(merged, objs[tk]):
		return tk, true, nil
	}
	return m.ed.PutObject(merged), true, nil
}

// mergedPage returns a page as the merge leaves it, or nil and why it is
// not there.
func (m *merger) mergedPage(ctx context.Context, id string) (*quire.RevisionPage, string, error) {
	if p := m.written[id]; p != nil {
		return p, "", nil
	}
	if m.deleted[id] != nil {
		return nil, "deleted in the change request", nil
	}
	p, err := m.ed.snap.Page(ctx, id) // the edit still reads as main
	if quire.IsNotFound(err) {
		return nil, "deleted in main", nil
	}
	return p, "", err
}

// checkPlacements checks that every page the merge places under a parent
// can go there: the parent exists, can hold it, and is not below it.
func (m *merger) checkPlacements(ctx context.Context) error {
	for _, id := range sortedKeys(m.relocated) {
		p := m.written[id]
		if p == nil || p.Parent == "" {
			continue
		}
		parent, why, err := m.mergedPage(ctx, p.Parent)
		switch {
		case err != nil:
			return err
		case m.conflicted[p.Parent]:
			continue
		case parent == nil:
			m.conflict(id, "parent", "", "its parent page %s was %s", p.Parent, why)
			continue
		case p.Type == quire.PageGroup:
			m.conflict(id, "parent", "", "group pages can only be at the top level")
			continue
		case parent.Type != quire.PageDocument && parent.Type != quire.PageGroup:
			m.conflict(id, "parent", "", "its parent page %s is a %s page, which cannot have child pages", p.Parent, parent.Type)
			continue
		}
		for cur, depth := parent, 0; cur != nil; depth++ {
			if cur.ID == id {
				m.conflict(id, "parent", "", "main and the change request moved pages under each other")
				break
			}
			if depth > 1000 {
				m.conflict(id, "parent", "", "the page tree would be too deep")
				break
			}
			if cur.Parent == "" {
				break
			}
			if cur, _, err = m.mergedPage(ctx, cur.Parent); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDeletions checks that nothing main has under a page the change
// request deletes would be left without a parent.
func (m *merger) checkDeletions(ctx context.Context) error {
	ids := make([]string, 0, len(m.deleted))
	for id := range m.deleted {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		var orphans []string
		err := m.ed.snap.t.Walk(ctx, m.deleted[id].Children, func(_, kid string) error {
			if m.deleted[kid] != nil || m.conflicted[kid] {
				return nil
			}
			if p := m.written[kid]; p != nil && p.Parent != id {
				return nil // moved away by the change request
			}
			orphans = append(orphans, kid)
			return nil
		})
		if err != nil {
			return err
		}
		sort.Strings(orphans)
		for _, kid := range orphans {
			m.conflict(id, "", "", "deleted in the change request, but main has page %s under it", kid)
		}
	}
	return nil
}

// applyPages writes the planned page changes to the edit.
func (m *merger) applyPages(ctx context.Context) error {
	ed := m.ed
	// Unlink the pages that leave their place, freeing their slugs.
	leaving := map[string]bool{}
	for id := range m.deleted {
		leaving[id] = true
	}
	for id := range m.relocated {
		if m.oursPage[id] != nil {
			leaving[id] = true
		}
	}
	for _, id := range sortedKeys(leaving) {
		o := m.deleted[id]
		if o == nil {
			o = m.oursPage[id]
		}
		if o.Parent != "" && m.deleted[o.Parent] != nil {
			continue // its parent goes too, children map and all
		}
		if err := ed.unlink(ctx, o.Parent, o.Slug, id); err != nil {
			return err
		}
	}
	for _, id := range sortedKeys(leaving) {
		if m.deleted[id] == nil {
			continue
		}
		root, err := ed.snap.t.Delete(ctx, ed.snap.Rev.Pages, id)
		if err != nil {
			return err
		}
		ed.snap.Rev.Pages = root
	}
	// Write every merged page, keeping the children map the edit has.
	ids := make([]string, 0, len(m.written))
	for id := range m.written {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := m.written[id]
		p.Children = ""
		switch cur, err := ed.snap.Page(ctx, id); {
		case err == nil:
			p.Children = cur.Children
		case !quire.IsNotFound(err):
			return err
		}
		if err := ed.putPage(ctx, p); err != nil {
			return err
		}
	}
	// Link the new, moved and renamed pages under their parents: first
	// those whose slug is free, then the others with a suffix.
	var later []string
	for _, id := range sortedKeys(m.relocated) {
		linked, err := ed.link(ctx, id, false)
		if err != nil {
			return err
		}
		if !linked {
			later = append(later, id)
		}
	}
	for _, id := range later {
		if _, err := ed.link(ctx, id, true); err != nil {
			return err
		}
	}
	return nil
}

// unlink removes slug from a parent's children map if it names page id.
func (ed *Edit) unlink(ctx context.Context, parent, slug, id string) error {
	root, err := ed.childrenRoot(ctx, parent)
	if err != nil {
		return err
	}
	if cur, ok, err := ed.snap.t.Get(ctx, root, slug); err != nil || !ok || cur != id {
		return err
	}
	if root, err = ed.snap.t.Delete(ctx, root, slug); err != nil {
		return err
	}
	return ed.setChildrenRoot(ctx, parent, root)
}

// link adds an already written page to its parent's children map, keeping
// its position. When its slug is taken by another page it is suffixed
// (-1, -2…) if suffix is set; otherwise link does nothing and reports
// false.
func (ed *Edit) link(ctx context.Context, id string, suffix bool) (bool, error) {
	p, err := ed.snap.Page(ctx, id)
	if err != nil {
		return false, err
	}
	root, err := ed.childrenRoot(ctx, p.Parent)
	if err != nil {
		return false, err
	}
	want := p.Slug
	if want == "" {
		want = Slugify(p.Title)
	}
	slug := want
	for i := 1; ; i++ {
		cur, taken, err := ed.snap.t.Get(ctx, root, slug)
		if err != nil {
			return false, err
		}
		if !taken || cur == id {
			break
		}
		if !suffix {
			return false, nil
		}
		slug = fmt.Sprintf("%s-%d", want, i)
	}
	if root, err = ed.snap.t.Set(ctx, root, slug, id); err != nil {
		return false, err
	}
	if slug != p.Slug {
		p.Slug = slug
		if err := ed.putPage(ctx, p); err != nil {
			return false, err
		}
	}
	return true, ed.setChildrenRoot(ctx, p.Parent, root)
}

// planFiles decides what happens to every file the change request
// changed.
func (m *merger) planFiles(ctx context.Context) error {
	if m.base.Files == m.theirs.Files {
		return nil
	}
	if m.base.Files == m.ours.Files {
		root := m.theirs.Files
		m.filesRoot = &root
		return nil
	}
	theirsDiff, err := m.diff(ctx, m.base.Files, m.theirs.Files)
	if err != nil {
		return err
	}
	oursDiff, err := m.diff(ctx, m.base.Files, m.ours.Files)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(theirsDiff))
	for id := range theirsDiff {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		d := theirsDiff[id]
		od, ok := oursDiff[id]
		if !ok {
			m.fileSets = append(m.fileSets, [2]string{id, d[1]})
			continue
		}
		if od[1] == d[1] {
			continue // the same change on both sides
		}
		if r, ok := m.res[Conflict{File: id}.ID()]; ok && (r.Take == TakeOurs || r.Take == TakeTheirs) {
			if r.Take == TakeTheirs {
				m.fileSets = append(m.fileSets, [2]string{id, d[1]})
			}
			continue
		}
		reason := "changed differently in main and in the change request"
		switch {
		case d[0] == "":
			reason = "added with different content in main and in the change request"
		case od[1] == "":
			reason = "deleted in main, changed in the change request"
		case d[1] == "":
			reason = "deleted in the change request, changed in main"
		}
		m.conflicts = append(m.conflicts, Conflict{File: id, Reason: reason})
	}
	return nil
}

// applyFiles writes the planned file changes to the edit.
func (m *merger) applyFiles(ctx context.Context) error {
	ed := m.ed
	if m.filesRoot != nil {
		ed.snap.Rev.Files = *m.filesRoot
		return nil
	}
	for _, s := range m.fileSets {
		var root string
		var err error
		if s[1] == "" {
			root, err = ed.snap.t.Delete(ctx, ed.snap.Rev.Files, s[0])
		} else {
			root, err = ed.snap.t.Set(ctx, ed.snap.Rev.Files, s[0], s[1])
		}
		if err != nil {
			return err
		}
		ed.snap.Rev.Files = root
	}
	return nil
}
