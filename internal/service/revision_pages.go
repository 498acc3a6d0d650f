package service

import (
	"context"
	"sort"

	"quire/internal/quire"
)

// RevisionPages lists the pages a revision of a space changed against
// its first parent (every page of a first revision as added): at most
// limit of them, in path order, with the count of all. A page whose pages
// below changed counts as changed too, as in ChangeRequestPages.
func (s *Service) RevisionPages(ctx context.Context, rev *quire.Revision, limit int) ([]ChangedPage, int, error) {
	prev := &quire.Revision{SpaceID: rev.SpaceID}
	if len(rev.Parents) > 0 {
		p, err := s.store.Revision(ctx, rev.SpaceID, rev.Parents[0])
		if err != nil && !quire.IsNotFound(err) {
			return nil, 0, err
		} else if err == nil {
			prev = p
		}
	}
	snap, prevSnap := s.engine.Snapshot(s.store, rev), s.engine.Snapshot(s.store, prev)
	ids, err := snap.ChangedPages(ctx, prev)
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(ids)
	total := len(ids)
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	out := make([]ChangedPage, 0, len(ids))
	for _, id := range ids {
		cp := ChangedPage{ID: id, Change: PageEdited}
		p, err := snap.Page(ctx, id)
		at := snap
		if quire.IsNotFound(err) {
			cp.Change, at = PageRemoved, prevSnap
			p, err = prevSnap.Page(ctx, id)
		} else if err == nil && prev.Pages != "" {
			if _, err := prevSnap.Page(ctx, id); quire.IsNotFound(err) {
				cp.Change = PageAdded
			} else if err != nil {
				return nil, 0, err
			}
		} else if err == nil {
			cp.Change = PageAdded
		}
		if err != nil {
			return nil, 0, err
		}
		cp.Title = p.Title
		if cp.Path, err = at.Path(ctx, p); err != nil {
			return nil, 0, err
		}
		out = append(out, cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, total, nil
}
