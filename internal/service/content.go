package service

import (
	"context"

	"quire/internal/content"
	"quire/internal/quire"
)

// ContentRef names the content to read: a space's current revision, a
// change request's revision (ChangeRequest set), or a given revision
// (Revision set).
type ContentRef struct {
	SpaceID       string
	ChangeRequest string // id or number
	Revision      string
}

// Content is a read view of one revision with what it belongs to.
type Content struct {
	*content.Snapshot
	Space         *quire.Space
	ChangeRequest *quire.ChangeRequest // nil for space and revision reads
}

// Content opens the revision a ref names.
func (s *Service) Content(ctx context.Context, ref ContentRef) (*Content, error) {
	sp, err := s.Space(ctx, ref.SpaceID)
	if err != nil {
		return nil, err
	}
	out := &Content{Space: sp}
	revID := sp.Revision
	switch {
	case ref.ChangeRequest != "":
		cr, err := s.ChangeRequest(ctx, ref.SpaceID, ref.ChangeRequest)
		if err != nil {
			return nil, err
		}
		out.ChangeRequest, revID = cr, cr.Revision
	case ref.Revision != "":
		revID = ref.Revision
	}
	rev, err := s.store.Revision(ctx, sp.ID, revID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("revision")
	} else if err != nil {
		return nil, err
	}
	out.Snapshot = s.engine.Snapshot(s.store, rev)
	return out, nil
}
