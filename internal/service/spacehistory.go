package service

import (
	"context"

	"quire/internal/quire"
)

// maxHistory caps the revisions one read of a space's history lists.
const maxHistory = 50

// RevisionView is a revision of a space with who made it and, for a
// merge, the change request it merged.
type RevisionView struct {
	Revision *quire.Revision
	// Author is who made the revision; nil when unknown.
	Author *quire.User
	// ChangeRequest is the change request a merge revision merged; nil
	// for other revisions or when it is gone.
	ChangeRequest *quire.ChangeRequest
}

// SpaceHistory lists the revisions of a space's content, newest first,
// along first parents from the revision from (the current one when
// ""), at most limit of them (maxHistory when out of range); next names
// the revision the following page starts at, "" at the first revision.
func (s *Service) SpaceHistory(ctx context.Context, spaceID, from string, limit int) (items []RevisionView, next string, err error) {
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, "", err
	}
	if limit <= 0 || limit > maxHistory {
		limit = maxHistory
	}
	if from == "" {
		from = sp.Revision
	}
	users := map[string]*quire.User{}
	for id := from; id != ""; {
		if len(items) == limit {
			return items, id, nil
		}
		rev, err := s.store.Revision(ctx, sp.ID, id)
		if quire.IsNotFound(err) && len(items) == 0 {
			return nil, "", quire.NotFound("revision")
		} else if quire.IsNotFound(err) {
			break
		} else if err != nil {
			return nil, "", err
		}
		v := RevisionView{Revision: rev}
		if rev.CreatedBy != "" {
			u, ok := users[rev.CreatedBy]
			if !ok {
				if u, err = s.store.User(ctx, rev.CreatedBy); err != nil && !quire.IsNotFound(err) {
					return nil, "", err
				}
				users[rev.CreatedBy] = u
			}
			v.Author = u
		}
		if rev.MergedFrom != "" {
			cr, err := s.store.ChangeRequest(ctx, sp.ID, rev.MergedFrom)
			if err != nil && !quire.IsNotFound(err) {
				return nil, "", err
			}
			v.ChangeRequest = cr
		}
		items = append(items, v)
		id = ""
		if len(rev.Parents) > 0 {
			id = rev.Parents[0]
		}
	}
	return items, "", nil
}
