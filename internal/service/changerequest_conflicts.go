package service

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// Result of a resolution made against main and change request revisions
// that are no longer current: nothing is written.
const ResultStale = "stale"

// ChangeConflict is a conflict between a change request and main, as the
// change request's author sees it when updating from main: Mine is the
// change request's version of what conflicts, Main main's.
type ChangeConflict struct {
	content.Conflict
	// ID names the conflict for a resolution (content.Conflict.ID).
	ID string
	// PageTitle is the page's title, the change request's when it has
	// the page.
	PageTitle string
	// Reason says what happened, in the change request's words.
	Reason     string
	Mine, Main ConflictSide
}

// ConflictSide is one side's version of a conflict.
type ConflictSide struct {
	// Path is the page's path on this side; "" when this side has no
	// such page.
	Path string
	// Block is the conflicting block on this side, alone in a document;
	// nil when this side has no such block (or the conflict is not about
	// a block). Markdown is that block's Markdown.
	Block    *document.Document
	Markdown string
	// Value is the conflicting page field's value as JSON; "" when
	// absent.
	Value string
	// at is the block's place among the page's blocks; -1 for none.
	at int
}

// ChangeRequestConflicts are the conflicts updating a change request
// from main would meet, with the revisions they are between.
type ChangeRequestConflicts struct {
	ChangeRequest *quire.ChangeRequest
	// Main is main's current revision; Revision the change request's.
	Main, Revision string
	Conflicts      []ChangeConflict
}

// ConflictChoice settles one conflict: Take is content.TakeOurs (keep the
// change request's version), content.TakeTheirs (take main's) or
// content.TakeEdited with Markdown replacing the conflicting block.
type ConflictChoice struct {
	Take     string
	Markdown string
}

// ConflictResolutions settle every conflict of a change request with
// main, against the revisions the choices were made on.
type ConflictResolutions struct {
	Main, Revision string
	// Choices are by conflict ID.
	Choices map[string]ConflictChoice
}

// ResolveOutcome is the result of settling a change request's conflicts:
// ResultUpdate with the updated change request, ResultStale when main or
// the change request moved since the choices were made, or
// ResultConflicts when the choices left conflicts; Conflicts then lists
// those to choose for now.
type ResolveOutcome struct {
	Result        string
	ChangeRequest *quire.ChangeRequest
	Conflicts     *ChangeRequestConflicts
}

// ChangeRequestConflicts lists what updating a change request (by id or
// number) from main would conflict on; none when main has not moved or
// the update would merge cleanly.
func (s *Service) ChangeRequestConflicts(ctx context.Context, spaceID, crID string) (*ChangeRequestConflicts, error) {
	cr, sp, err := writableChangeRequest(ctx, s.store, spaceID, crID)
	if err != nil {
		return nil, err
	}
	_, conflicts, err := s.updateConflicts(ctx, s.store, sp, cr)
	if err != nil {
		return nil, err
	}
	return s.describeConflicts(ctx, s.store, sp, cr, conflicts)
}

// updateConflicts runs the update of a change request from main without
// writing it and returns its three-way revisions and conflicts.
func (s *Service) updateConflicts(ctx context.Context, st quire.Store, sp *quire.Space, cr *quire.ChangeRequest) (threeWay, []content.Conflict, error) {
	w := threeWay{space: sp.ID, typ: quire.RevisionUpdate, base: cr.Base(), ours: cr.Revision, theirs: sp.Revision}
	if sp.Revision == cr.Base() {
		return w, nil, nil
	}
	revs := make([]*quire.Revision, 3)
	for i, id := range []string{w.base, w.ours, w.theirs} {
		rev, err := st.Revision(ctx, sp.ID, id)
		if err != nil {
			return w, nil, err
		}
		revs[i] = rev
	}
	_, conflicts, err := s.engine.Merge(ctx, st, revs[0], revs[1], revs[2])
	return w, conflicts, err
}

// conflictWords turns a merge's reasons (main merging a change request)
// into an update's (the change request taking main's changes).
var conflictWords = strings.NewReplacer(
	"but main has", "but this change request has",
	"in the change request", "in main",
	"in main", "in this change request",
	"main's", "this change request's",
)

// describeConflicts shows each conflict on both sides.
func (s *Service) describeConflicts(ctx context.Context, st quire.Store, sp *quire.Space, cr *quire.ChangeRequest, conflicts []content.Conflict) (*ChangeRequestConflicts, error) {
	out := &ChangeRequestConflicts{ChangeRequest: cr, Main: sp.Revision, Revision: cr.Revision}
	if len(conflicts) == 0 {
		return out, nil
	}
	mineRev, err := st.Revision(ctx, sp.ID, cr.Revision)
	if err != nil {
		return nil, err
	}
	mainRev, err := st.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return nil, err
	}
	mine, main := s.engine.Snapshot(st, mineRev), s.engine.Snapshot(st, mainRev)
	order, err := pageOrder(ctx, mine, main)
	if err != nil {
		return nil, err
	}
	for _, c := range conflicts {
		v := ChangeConflict{Conflict: c, ID: c.ID(), Reason: conflictWords.Replace(c.Reason)}
		if c.File == "" {
			mp, err := conflictSide(ctx, mine, c, &v.Mine)
			if err != nil {
				return nil, err
			}
			tp, err := conflictSide(ctx, main, c, &v.Main)
			if err != nil {
				return nil, err
			}
			switch {
			case mp != nil:
				v.PageTitle = mp.Title
			case tp != nil:
				v.PageTitle = tp.Title
			}
		}
		out.Conflicts = append(out.Conflicts, v)
	}
	// In reading order: by page as the change request's tree has them
	// (then main's), by block within a page; files last.
	place := func(c ChangeConflict) [3]int {
		if c.File != "" {
			return [3]int{1, 0, 0}
		}
		return [3]int{0, order[c.Page], max(c.Mine.at, c.Main.at)}
	}
	slices.SortStableFunc(out.Conflicts, func(a, b ChangeConflict) int {
		pa, pb := place(a), place(b)
		return slices.Compare(pa[:], pb[:])
	})
	return out, nil
}

// pageOrder numbers the pages of two revisions in reading order: those of
// first as its tree has them, then those only second has.
func pageOrder(ctx context.Context, first, second *content.Snapshot) (map[string]int, error) {
	order := map[string]int{}
	var walk func([]*content.TreeNode)
	walk = func(nodes []*content.TreeNode) {
		for _, n := range nodes {
			if _, ok := order[n.Page.ID]; !ok {
				order[n.Page.ID] = len(order)
			}
			walk(n.Children)
		}
	}
	for _, snap := range []*content.Snapshot{first, second} {
		t, err := snap.SharedTree(ctx)
		if err != nil {
			return nil, err
		}
		walk(t.Nodes)
	}
	return order, nil
}

// conflictSide fills one side of a page's conflict from a revision and
// returns the page, nil when the revision does not have it.
func conflictSide(ctx context.Context, snap *content.Snapshot, c content.Conflict, side *ConflictSide) (*quire.RevisionPage, error) {
	side.at = -1
	p, err := snap.Page(ctx, c.Page)
	if quire.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if side.Path, err = snap.Path(ctx, p); err != nil {
		return nil, err
	}
	switch {
	case c.Block != "":
		raw, err := snap.Document(ctx, p)
		if err != nil || raw == nil {
			return p, err
		}
		doc, err := document.ParseStored(raw)
		if err != nil {
			return p, nil // an unreadable document shows no block
		}
		for i, n := range doc.Nodes {
			if n.Key == c.Block {
				side.at = i
				side.Block = &document.Document{Data: doc.Data, Nodes: []document.Node{n}}
				if side.Markdown, err = document.ToMarkdown(side.Block); err != nil {
					side.Markdown = ""
				}
				break
			}
		}
	case c.Field != "" && c.Field != "document":
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, err
		}
		side.Value = string(fields[c.Field])
	}
	return p, nil
}

// ResolveChangeRequestConflicts updates a change request from main,
// settling each conflict as chosen: one three-way merge, under the
// space's lock like UpdateChangeRequestFromMain, whose result holds main's
// changes, the change request's and the chosen content of every
// conflicting block, other blocks keeping their keys. Choices made on
// revisions that are no longer main's or the change request's write
// nothing (ResultStale, with the conflicts as they are now); choices for
// conflicts that do not arise, or conflicts left without a choice, are
// EINVALID naming the choice.
func (s *Service) ResolveChangeRequestConflicts(ctx context.Context, u *quire.User, spaceID, crID string, in ConflictResolutions) (*ResolveOutcome, error) {
	if in.Main == "" {
		return nil, quire.Invalid("main", "give main’s revision the choices were made on")
	}
	if in.Revision == "" {
		return nil, quire.Invalid("revision", "give the change request’s revision the choices were made on")
	}
	for id, c := range in.Choices {
		switch c.Take {
		case content.TakeOurs, content.TakeTheirs, content.TakeEdited:
		case "":
			return nil, quire.Invalid("choice["+id+"]", "choose how to settle this conflict")
		default:
			return nil, quire.Invalid("choice["+id+"]", "%q is not a choice: give %q, %q or %q", c.Take, content.TakeOurs, content.TakeTheirs, content.TakeEdited)
		}
	}
	return inSpaceLock(ctx, s, spaceID, crID, func(ctx context.Context, st quire.Store) (*ResolveOutcome, error) {
		return s.resolveOnce(ctx, st, u, spaceID, crID, in)
	}, nil)
}

// resolveOnce is one attempt, on a transaction holding the space's lock.
func (s *Service) resolveOnce(ctx context.Context, st quire.Store, u *quire.User, spaceID, crID string, in ConflictResolutions) (*ResolveOutcome, error) {
	cr, sp, err := writableChangeRequest(ctx, st, spaceID, crID)
	if err != nil {
		return nil, err
	}
	w, conflicts, err := s.updateConflicts(ctx, st, sp, cr)
	if err != nil {
		return nil, err
	}
	if sp.Revision != in.Main || cr.Revision != in.Revision {
		now, err := s.describeConflicts(ctx, st, sp, cr, conflicts)
		if err != nil {
			return nil, err
		}
		return &ResolveOutcome{Result: ResultStale, ChangeRequest: cr, Conflicts: now}, nil
	}
	if len(conflicts) == 0 {
		return nil, quire.Invalid("choice", "the change request has no conflict with main: update it from main")
	}
	byID := map[string]content.Conflict{}
	for _, c := range conflicts {
		byID[c.ID()] = c
	}
	for id := range in.Choices {
		if _, ok := byID[id]; !ok {
			return nil, quire.Invalid("choice["+id+"]", "no conflict of the change request has this id")
		}
	}
	w.res = map[string]content.Resolution{}
	for _, c := range conflicts {
		id := c.ID()
		ch, ok := in.Choices[id]
		if !ok {
			return nil, quire.Invalid("choice["+id+"]", "choose how to settle the conflict on %s", strings.TrimPrefix(id, "page/"))
		}
		r, err := resolution(ctx, id, c, ch)
		if err != nil {
			return nil, err
		}
		w.res[id] = r
	}
	next, left, err := s.commitThreeWay(ctx, st, u, w)
	if err != nil {
		return nil, err
	}
	if len(left) > 0 {
		now, err := s.describeConflicts(ctx, st, sp, cr, left)
		if err != nil {
			return nil, err
		}
		return &ResolveOutcome{Result: ResultConflicts, ChangeRequest: cr, Conflicts: now}, nil
	}
	cr, err = st.UpdateChangeRequest(ctx, sp.ID, cr.ID, quire.ChangeRequestUpdate{
		Revision: &next.ID, RevisionMergedAncestor: &sp.Revision, IfRevision: &cr.Revision, IfStatus: quire.WritableStatuses()})
	if err != nil {
		return nil, err
	}
	if err := st.AddContributor(ctx, cr.ID, u.ID); err != nil {
		return nil, err
	}
	return &ResolveOutcome{Result: ResultUpdate, ChangeRequest: cr}, nil
}

// resolution turns a person's choice into the engine's: edited Markdown
// becomes blocks, the first keeping the conflicting block's key.
func resolution(ctx context.Context, id string, c content.Conflict, ch ConflictChoice) (content.Resolution, error) {
	if ch.Take != content.TakeEdited {
		return content.Resolution{Take: ch.Take}, nil
	}
	field := "markdown[" + id + "]"
	if c.Block == "" || strings.HasPrefix(c.Block, "#") {
		return content.Resolution{}, quire.Invalid("choice["+id+"]", "only a conflicting block can be edited; keep yours or take main's")
	}
	doc, err := document.FromMarkdown(ch.Markdown, document.WithContext(ctx))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return content.Resolution{}, ctxErr
		}
		return content.Resolution{}, quire.Invalid(field, "%v", err)
	}
	if len(doc.Nodes) > 0 {
		doc.Nodes[0].Key = c.Block
	}
	b, err := doc.MarshalJSON()
	if err != nil {
		return content.Resolution{}, quire.Invalid(field, "%v", err)
	}
	var stored struct {
		Nodes []json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(b, &stored); err != nil {
		return content.Resolution{}, err
	}
	return content.Resolution{Take: content.TakeEdited, Blocks: stored.Nodes}, nil
}
