package service

import (
	"context"

	"quire/internal/quire"
)

// ReviewInput is a review to submit: its verdict and, optionally, a text
// that becomes a comment on the change request.
type ReviewInput struct {
	Status  quire.ReviewStatus
	Comment *DocumentInput
}

// ReviewView is a review with what its object shows besides its own
// fields: its users, whether it is outdated, and its comment.
type ReviewView struct {
	Review      *quire.Review
	Reviewer    *quire.User
	RequestedBy *quire.User // nil when nobody asked for the review
	Outdated    bool
	Comment     *CommentView // nil without a comment, or once it is deleted
}

// reviewPlace resolves the change request of a review operation. Writes
// need a live space and a change request still open or draft.
func (s *Service) reviewPlace(ctx context.Context, st quire.Store, spaceID, crID string, write bool) (*commentPlace, error) {
	var (
		sp  *quire.Space
		err error
	)
	if write {
		sp, err = liveSpace(ctx, st, spaceID)
	} else {
		sp, err = st.Space(ctx, spaceID)
		if quire.IsNotFound(err) {
			err = quire.NotFound("space")
		}
	}
	if err != nil {
		return nil, err
	}
	cr, err := st.ChangeRequest(ctx, sp.ID, crID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("change request")
	} else if err != nil {
		return nil, err
	}
	if write {
		switch cr.Status {
		case quire.CRMerged:
			return nil, quire.Errorf(quire.EINVALID, "the change request is merged: its review is over")
		case quire.CRArchived:
			return nil, quire.Errorf(quire.EINVALID, "the change request is archived: reopen it first")
		}
	}
	return &commentPlace{space: sp, cr: cr}, nil
}

// SubmitReview records the caller's review of a change request at its
// current revision. The author of the change request cannot review it.
// The caller's earlier reviews become outdated, their request to review
// is fulfilled, and the review's text, when given, is posted as a comment
// on the change request; an event of the review is recorded with it.
func (s *Service) SubmitReview(ctx context.Context, w Commenter, spaceID, crID string, in ReviewInput) (*ReviewView, error) {
	switch in.Status {
	case quire.ReviewApproved, quire.ReviewChangesRequested:
	default:
		return nil, quire.Invalid("status", "must be approved or changes-requested")
	}
	var body []byte
	if in.Comment != nil {
		var err error
		if body, err = commentBody(ctx, "comment", *in.Comment); err != nil {
			return nil, err
		}
		if err := s.checkMentions(ctx, spaceID, "comment", body, nil); err != nil {
			return nil, err
		}
	}
	var (
		pl *commentPlace
		r  *quire.Review
		cm *quire.Comment
	)
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if pl, err = s.reviewPlace(ctx, st, spaceID, crID, true); err != nil {
			return err
		}
		cr := pl.cr
		if cr.CreatedBy == w.User.ID {
			return quire.Errorf(quire.EFORBIDDEN, "the author of a change request cannot review it")
		}
		now := s.Now()
		r = &quire.Review{ID: quire.NewID(), SpaceID: pl.space.ID, ChangeRequestID: cr.ID, Revision: cr.Revision,
			Reviewer: w.User.ID, Status: in.Status, CreatedAt: now, UpdatedAt: now}
		requests, err := st.AllRequestedReviewers(ctx, cr.ID)
		if err != nil {
			return err
		}
		for _, q := range requests {
			if q.UserID == w.User.ID {
				r.RequestedBy = q.RequestedBy
			}
		}
		if body != nil {
			cm = &quire.Comment{ID: quire.NewID(), SpaceID: pl.space.ID, ChangeRequestID: cr.ID, Revision: cr.Revision,
				Target: quire.CommentTarget{Review: r.ID}, Body: body, PostedBy: w.User.ID, PostedAt: now,
				Status: quire.CommentOpen}
			if err := st.CreateComment(ctx, cm); err != nil {
				return err
			}
			r.CommentID = cm.ID
		}
		if err := st.CreateReview(ctx, r); err != nil {
			return err
		}
		return st.AddContentEvent(ctx, &quire.ContentEvent{SpaceID: pl.space.ID, Kind: quire.EventReviewSubmitted,
			ChangeRequestID: cr.ID, Subject: r.ID, Previous: cr.Revision, Next: cr.Revision})
	})
	if err != nil {
		return nil, err
	}
	s.announceContent(ctx, pl.space.ID)
	s.notifyReview(ctx, w.User, pl.cr, r.Status)
	if cm != nil {
		s.notifyReviewComment(ctx, w.User, cm, body)
	}
	v := s.newCommentViewer(w, pl, nil)
	return s.reviewView(ctx, v, r, cm)
}

// Reviews lists the reviews of a change request, oldest first; outdated,
// when set, keeps those that are (true) or are not (false) outdated.
func (s *Service) Reviews(ctx context.Context, w Commenter, spaceID, crID string, outdated *bool, p quire.Page) (*quire.List[ReviewView], error) {
	pl, err := s.reviewPlace(ctx, s.store, spaceID, crID, false)
	if err != nil {
		return nil, err
	}
	l, err := s.store.Reviews(ctx, quire.ReviewFilter{ChangeRequestID: pl.cr.ID, Current: pl.cr.Revision, Outdated: outdated}, p)
	if err != nil {
		return nil, err
	}
	v := s.newCommentViewer(w, pl, nil)
	items := make([]ReviewView, 0, len(l.Items))
	for _, r := range l.Items {
		var cm *quire.Comment
		if r.CommentID != "" {
			cm, err = s.store.Comment(ctx, pl.space.ID, pl.cr.ID, r.CommentID)
			if err != nil && !quire.IsNotFound(err) {
				return nil, err
			}
		}
		rv, err := s.reviewView(ctx, v, r, cm)
		if err != nil {
			return nil, err
		}
		items = append(items, *rv)
	}
	return &quire.List[ReviewView]{Items: items, Next: l.Next, Count: l.Count}, nil
}

// reviewView describes a review of v's change request, with its comment
// when it has one.
func (s *Service) reviewView(ctx context.Context, v *commentViewer, r *quire.Review, cm *quire.Comment) (*ReviewView, error) {
	out := &ReviewView{Review: r, Outdated: r.Outdated(v.place.cr.Revision)}
	var err error
	if out.Reviewer, err = v.user(ctx, r.Reviewer); err != nil {
		return nil, err
	}
	if r.RequestedBy != "" {
		if out.RequestedBy, err = v.user(ctx, r.RequestedBy); err != nil {
			return nil, err
		}
	}
	if cm != nil {
		if out.Comment, err = v.comment(ctx, cm); err != nil {
			return nil, err
		}
	}
	return out, nil
}
