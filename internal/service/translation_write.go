package service

import (
	"context"
	"encoding/json"
	"unicode/utf8"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// write applies a run's plan to the target through a change request of
// its own, merged at once, and returns the revision the merge made ("" when
// there was nothing to write). Pages the plan could not place (their
// parent was removed by hand) join the plan's edited pages.
func (t *Translations) write(ctx context.Context, u *quire.User, src, target *quire.Space, srcSnap *content.Snapshot, plan *runPlan) (string, error) {
	if len(plan.pages) == 0 && len(plan.deleted) == 0 {
		return "", nil
	}
	subject := "Translation of " + src.Title
	for utf8.RuneCountInString(subject) > MaxSubject {
		_, size := utf8.DecodeLastRuneInString(subject)
		subject = subject[:len(subject)-size]
	}
	cr, err := t.s.CreateChangeRequest(ctx, u, target.ID, subject)
	if err != nil {
		return "", err
	}
	var skipped []string
	_, err = retryConflicts(func() (*quire.ChangeRequest, error) {
		cur, sp, err := writableChangeRequest(ctx, t.s.store, target.ID, cr.ID)
		if err != nil {
			return nil, err
		}
		rev, err := t.s.store.Revision(ctx, sp.ID, cur.Revision)
		if err != nil {
			return nil, err
		}
		ed := t.s.engine.Edit(t.s.store, rev)
		if skipped, err = applyPlan(ctx, ed, srcSnap, plan, src.ID, target.ID); err != nil {
			return nil, err
		}
		if !ed.Changed(rev) {
			return cur, nil
		}
		return t.s.commitToChangeRequest(ctx, u, sp.ID, cur.ID, ed, rev)
	})
	if err != nil {
		return "", err
	}
	plan.edited = append(plan.edited, skipped...)
	m, err := t.s.MergeChangeRequest(ctx, u, target.ID, cr.ID)
	if err != nil {
		return "", err
	}
	if m.Result == ResultConflicts {
		return "", quire.Errorf(quire.ECONFLICT, "the translation conflicts with edits of the target space: it is left in change request %d", cr.Number)
	}
	return m.Revision, nil
}

// applyPlan writes the planned pages, the source's files and the
// deletions into an edit of the target. It returns the pages it could
// not place.
func applyPlan(ctx context.Context, ed *content.Edit, srcSnap *content.Snapshot, plan *runPlan, srcID, targetID string) ([]string, error) {
	if err := copyFiles(ctx, ed, srcSnap); err != nil {
		return nil, err
	}
	siblings := map[string][]*quire.RevisionPage{}
	var skipped []string
	for _, pp := range plan.pages {
		p := *pp.page
		retargetPage(&p, srcID, targetID)
		var doc []byte
		if pp.doc != nil {
			retargetNodes(pp.doc.Nodes, srcID, targetID)
			b, err := json.Marshal(pp.doc)
			if err != nil {
				return nil, err
			}
			doc = b
		}
		at, err := targetIndex(ctx, ed, srcSnap, siblings, &p)
		if err != nil {
			return nil, err
		}
		old, err := ed.Snapshot().Page(ctx, p.ID)
		switch {
		case err == nil:
			var move content.Move
			if old.Parent != p.Parent {
				parent := p.Parent
				move = content.Move{Parent: &parent, At: &at}
			}
			_, err = ed.UpdatePage(ctx, p.ID, func(q *quire.RevisionPage) error {
				*q = p
				return nil
			}, doc, move)
		case quire.IsNotFound(err):
			p.Document, p.Children = "", ""
			err = ed.InsertPage(ctx, &p, doc, &at)
		}
		if quire.ErrorCode(err) == quire.EINVALID {
			skipped = append(skipped, p.ID)
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	for _, id := range plan.deleted {
		if err := ed.DeletePage(ctx, id); err != nil && !quire.IsNotFound(err) {
			return nil, err
		}
	}
	return skipped, nil
}

// targetIndex is where a page goes among its siblings in the target: after
// those of its source siblings before it that the target holds.
func targetIndex(ctx context.Context, ed *content.Edit, srcSnap *content.Snapshot, memo map[string][]*quire.RevisionPage, p *quire.RevisionPage) (int, error) {
	sib, ok := memo[p.Parent]
	if !ok {
		var err error
		if sib, err = srcSnap.Children(ctx, p.Parent); err != nil {
			return 0, err
		}
		memo[p.Parent] = sib
	}
	at := 0
	for _, s := range sib {
		if s.ID == p.ID {
			break
		}
		if _, err := ed.Snapshot().Page(ctx, s.ID); err == nil {
			at++
		} else if !quire.IsNotFound(err) {
			return 0, err
		}
	}
	return at, nil
}

// copyFiles gives the target the source's files, under the same ids, so
// that images and files of translated pages resolve.
func copyFiles(ctx context.Context, ed *content.Edit, srcSnap *content.Snapshot) error {
	files, err := srcSnap.Files(ctx)
	if err != nil {
		return err
	}
	for _, f := range files {
		have, err := ed.Snapshot().File(ctx, f.ID)
		if err == nil && have.Blob == f.Blob && have.Name == f.Name && have.ContentType == f.ContentType {
			continue
		}
		if err != nil && !quire.IsNotFound(err) {
			return err
		}
		cp := *f
		if err := ed.PutFile(ctx, &cp); err != nil {
			return err
		}
	}
	return nil
}

// retargetPage points a link page at the target when it points at a page
// of the source.
func retargetPage(p *quire.RevisionPage, srcID, targetID string) {
	if p.Target != nil && p.Target.Space == srcID {
		r := *p.Target
		r.Space = targetID
		p.Target = &r
	}
}

// retargetNodes points references to the source space, or to its pages
// and anchors, at the target: pages keep their ids there.
func retargetNodes(nodes []document.Node, srcID, targetID string) {
	for i := range nodes {
		n := &nodes[i]
		for k, v := range n.Data {
			n.Data[k] = retargetValue(v, srcID, targetID)
		}
		retargetNodes(n.Nodes, srcID, targetID)
		retargetNodes(n.Fragments, srcID, targetID)
	}
}

// retargetValue rewrites the references in a data value.
func retargetValue(v any, srcID, targetID string) any {
	switch x := v.(type) {
	case document.Ref:
		if x.Space == srcID {
			x.Space = targetID
		}
		return x
	case *document.Ref:
		if x != nil && x.Space == srcID {
			r := *x
			r.Space = targetID
			return &r
		}
	case map[string]any:
		for k, e := range x {
			if k == "space" && e == srcID {
				x[k] = targetID
				continue
			}
			x[k] = retargetValue(e, srcID, targetID)
		}
	case []any:
		for i, e := range x {
			x[i] = retargetValue(e, srcID, targetID)
		}
	}
	return v
}
