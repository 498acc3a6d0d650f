package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"quire/internal/quire"
)

// ReviewersRequest asks users to review a change request and may update
// its subject and description on the way; nil keeps them.
type ReviewersRequest struct {
	Users       []string
	Subject     *string
	Description *json.RawMessage
}

// RequestedReviewerView is a request to review with its users.
type RequestedReviewerView struct {
	Request     *quire.RequestedReviewer
	User        *quire.User
	RequestedBy *quire.User
}

// RequestReviewers asks users to review a change request at its current
// revision; asking a user again renews the request. Each user must be able
// to review the space (the review role or above) and must not be the
// change request's author. A draft change request becomes open, and an
// event of the request is recorded with it.
func (s *Service) RequestReviewers(ctx context.Context, u *quire.User, spaceID, crID string, in ReviewersRequest) ([]RequestedReviewerView, error) {
	patch := quire.ChangeRequestUpdate{}
	if in.Subject != nil {
		v, err := checkSubject(*in.Subject)
		if err != nil {
			return nil, err
		}
		patch.Subject = &v
	}
	if in.Description != nil {
		d, err := compactDescription(*in.Description)
		if err != nil {
			return nil, err
		}
		patch.Description = &d
	}
	users := dedupe(in.Users)
	var (
		pl  *commentPlace
		out []*quire.RequestedReviewer
	)
	_, err := retryConflicts(func() (struct{}, error) {
		return struct{}{}, s.store.WithTx(ctx, func(st quire.Store) error {
			var err error
			if pl, err = s.reviewPlace(ctx, st, spaceID, crID, true); err != nil {
				return err
			}
			cr := pl.cr
			for i, id := range users {
				if err := mayReview(ctx, st, cr, id, fmt.Sprintf("users[%d]", i)); err != nil {
					return err
				}
			}
			upd := patch
			if len(users) > 0 && cr.Status == quire.CRDraft {
				open := quire.CROpen
				upd.Status = &open
			}
			if upd.Subject != nil || upd.Description != nil || upd.Status != nil {
				upd.IfStatus = []quire.ChangeRequestStatus{cr.Status}
				if pl.cr, err = st.UpdateChangeRequest(ctx, pl.space.ID, cr.ID, upd); err != nil {
					return err
				}
			}
			if len(users) == 0 {
				return nil
			}
			now := s.Now()
			out = make([]*quire.RequestedReviewer, len(users))
			for i, id := range users {
				out[i] = &quire.RequestedReviewer{ChangeRequestID: cr.ID, UserID: id, Revision: cr.Revision,
					RequestedBy: u.ID, CreatedAt: now}
			}
			if err := st.RequestReviewers(ctx, out); err != nil {
				return err
			}
			return st.AddContentEvent(ctx, &quire.ContentEvent{SpaceID: pl.space.ID, Kind: quire.EventReviewersRequested,
				ChangeRequestID: cr.ID, Subject: strings.Join(users, ","), Previous: cr.Revision, Next: cr.Revision})
		})
	})
	if err != nil {
		return nil, err
	}
	if len(out) > 0 {
		s.announceContent(ctx, pl.space.ID)
		s.notifyReviewRequested(ctx, u, pl.cr, users)
	}
	return s.requestedViews(ctx, out)
}

// mayReview checks that a user can be asked to review a change request:
// they exist, may review its space and did not write it.
func mayReview(ctx context.Context, st quire.Store, cr *quire.ChangeRequest, userID, field string) error {
	if userID == cr.CreatedBy {
		return quire.Invalid(field, "the author of a change request cannot review it")
	}
	if _, err := st.User(ctx, userID); quire.IsNotFound(err) {
		return quire.Invalid(field, "no such user")
	} else if err != nil {
		return err
	}
	f, err := st.SpaceFacts(ctx, cr.SpaceID, userID)
	if err != nil {
		return err
	}
	if f.Level() < quire.LevelReview {
		return quire.Invalid(field, "the user cannot review this space: that needs the review role or above")
	}
	return nil
}

// RequestedReviewers lists the users asked to review a change request who
// have not reviewed since, oldest request first.
func (s *Service) RequestedReviewers(ctx context.Context, spaceID, crID string, p quire.Page) (*quire.List[RequestedReviewerView], error) {
	pl, err := s.reviewPlace(ctx, s.store, spaceID, crID, false)
	if err != nil {
		return nil, err
	}
	l, err := s.store.RequestedReviewers(ctx, pl.cr.ID, p)
	if err != nil {
		return nil, err
	}
	items, err := s.requestedViews(ctx, l.Items)
	if err != nil {
		return nil, err
	}
	return &quire.List[RequestedReviewerView]{Items: items, Next: l.Next, Count: l.Count}, nil
}

// requestedViews describes requests, reading each user once.
func (s *Service) requestedViews(ctx context.Context, rs []*quire.RequestedReviewer) ([]RequestedReviewerView, error) {
	v := s.newCommentViewer(Commenter{}, nil, nil)
	out := make([]RequestedReviewerView, 0, len(rs))
	for _, r := range rs {
		rv := RequestedReviewerView{Request: r}
		var err error
		if rv.User, err = v.user(ctx, r.UserID); err != nil {
			return nil, err
		}
		if rv.RequestedBy, err = v.user(ctx, r.RequestedBy); err != nil {
			return nil, err
		}
		out = append(out, rv)
	}
	return out, nil
}

// RemoveRequestedReviewer withdraws the request of a user to review a
// change request and reports whether there was one.
func (s *Service) RemoveRequestedReviewer(ctx context.Context, spaceID, crID, userID string) (bool, error) {
	pl, err := s.reviewPlace(ctx, s.store, spaceID, crID, true)
	if err != nil {
		return false, err
	}
	return s.store.RemoveRequestedReviewer(ctx, pl.cr.ID, userID)
}
