package service

import (
	"context"
	"encoding/json"

	"quire/internal/quire"
)

// Commenter is who acts on comments: the caller and their level on the
// space, as the access check resolved it.
type Commenter struct {
	User  *quire.User
	Level quire.Level
}

// author reports whether the commenter posted something posted by id.
func (w Commenter) author(postedBy string) bool { return w.User.ID == postedBy }

// mayDelete reports whether the commenter may delete something they or
// someone else posted: authors may, and so may space admins.
func (w Commenter) mayDelete(postedBy string) bool {
	return quire.CommentPermissionsFor(w.Level, w.author(postedBy)).Delete
}

// CommentScope names where comments live: a space, or one of its change
// requests (ChangeRequest holds its id or number).
type CommentScope struct {
	SpaceID       string
	ChangeRequest string
}

// TableCell names a cell of a table block: its record and its column
// definition.
type TableCell struct {
	Record     string
	Definition string
}

// CommentInput is a new comment: what it is anchored to and its body.
type CommentInput struct {
	Page      string
	Node      string
	TableCell *TableCell
	Body      DocumentInput
}

// CommentPatch is a change to a comment; nil and empty fields change
// nothing.
type CommentPatch struct {
	Body             *DocumentInput
	Resolved         *bool
	AddedReactions   []string
	RemovedReactions []string
}

// AllComments is the status filter that keeps comments of every status.
const AllComments quire.CommentStatus = "all"

// CommentListFilter narrows a comment list. Status "" or AllComments keeps
// every status; Order defaults to newest first.
type CommentListFilter struct {
	Status  quire.CommentStatus
	Page    string
	Authors []string
	Order   quire.Order
}

// commentPlace is where a comment scope resolved to.
type commentPlace struct {
	space *quire.Space
	cr    *quire.ChangeRequest // nil for the space's own comments
}

// crID returns the change request's id, "" for the space's comments.
func (p *commentPlace) crID() string {
	if p.cr == nil {
		return ""
	}
	return p.cr.ID
}

// ref names the content comments of the place anchor to: the space's
// current revision, or the change request's.
func (p *commentPlace) ref() ContentRef {
	return ContentRef{SpaceID: p.space.ID, ChangeRequest: p.crID()}
}

// commentPlace resolves a scope. Writes need a space that is not deleted.
func (s *Service) commentPlace(ctx context.Context, sc CommentScope, write bool) (*commentPlace, error) {
	var (
		sp  *quire.Space
		err error
	)
	if write {
		sp, err = liveSpace(ctx, s.store, sc.SpaceID)
	} else {
		sp, err = s.Space(ctx, sc.SpaceID)
	}
	if err != nil {
		return nil, err
	}
	pl := &commentPlace{space: sp}
	if sc.ChangeRequest != "" {
		if pl.cr, err = s.ChangeRequest(ctx, sp.ID, sc.ChangeRequest); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

// commentBody turns a comment or reply body into the stored JSON
// document; an empty body is refused.
func commentBody(ctx context.Context, field string, in DocumentInput) (json.RawMessage, error) {
	doc, err := documentOf(ctx, field, &in)
	if err != nil {
		return nil, err
	}
	if doc == nil || len(doc.Nodes) == 0 {
		return nil, quire.Invalid(field, "must not be empty")
	}
	return doc.MarshalJSON()
}

// PostComment posts an open comment on the content of a space or of a
// change request, anchored to what in names, which must exist there.
func (s *Service) PostComment(ctx context.Context, w Commenter, sc CommentScope, in CommentInput) (*CommentView, error) {
	pl, err := s.commentPlace(ctx, sc, true)
	if err != nil {
		return nil, err
	}
	body, err := commentBody(ctx, "body", in.Body)
	if err != nil {
		return nil, err
	}
	if err := s.checkMentions(ctx, pl.space.ID, "body", body, nil); err != nil {
		return nil, err
	}
	c, err := s.Content(ctx, pl.ref())
	if err != nil {
		return nil, err
	}
	target, err := s.commentTarget(ctx, c, in)
	if err != nil {
		return nil, err
	}
	cm := &quire.Comment{ID: quire.NewID(), SpaceID: pl.space.ID, ChangeRequestID: pl.crID(), Revision: c.Rev.ID,
		Target: target, Body: body, PostedBy: w.User.ID, PostedAt: s.Now(), Status: quire.CommentOpen}
	// Comments of a space posted at the same moment share a commit.
	err = s.batches.do(ctx, s.store, "comments:"+pl.space.ID, "", func(ctx context.Context, st quire.Store) (bool, error) {
		return false, st.CreateComment(ctx, cm)
	})
	if err != nil {
		return nil, err
	}
	s.notifyComment(ctx, w.User, cm, body, false)
	return s.commentView(ctx, w, pl, c, cm)
}

// Comment returns a comment of a space or of a change request.
func (s *Service) Comment(ctx context.Context, w Commenter, sc CommentScope, id string) (*CommentView, error) {
	pl, err := s.commentPlace(ctx, sc, false)
	if err != nil {
		return nil, err
	}
	cm, err := s.store.Comment(ctx, pl.space.ID, pl.crID(), id)
	if err != nil {
		return nil, err
	}
	return s.commentView(ctx, w, pl, nil, cm)
}

// Comments lists the comments of a space or of a change request.
func (s *Service) Comments(ctx context.Context, w Commenter, sc CommentScope, f CommentListFilter, p quire.Page) (*quire.List[CommentView], error) {
	pl, err := s.commentPlace(ctx, sc, false)
	if err != nil {
		return nil, err
	}
	status := f.Status
	if status == AllComments {
		status = ""
	}
	l, err := s.store.Comments(ctx, quire.CommentFilter{SpaceID: pl.space.ID, ChangeRequestID: pl.crID(),
		Status: status, Page: f.Page, Authors: f.Authors, Order: f.Order}, p)
	if err != nil {
		return nil, err
	}
	v := s.newCommentViewer(w, pl, nil)
	items := make([]CommentView, 0, len(l.Items))
	for _, cm := range l.Items {
		cv, err := v.comment(ctx, cm)
		if err != nil {
			return nil, err
		}
		items = append(items, *cv)
	}
	return &quire.List[CommentView]{Items: items, Next: l.Next, Count: l.Count}, nil
}

// UpdateComment changes a comment: its body (its author only), whether it
// is resolved, and the caller's reactions.
func (s *Service) UpdateComment(ctx context.Context, w Commenter, sc CommentScope, id string, patch CommentPatch) (*CommentView, error) {
	pl, err := s.commentPlace(ctx, sc, true)
	if err != nil {
		return nil, err
	}
	upd := quire.CommentUpdate{Resolved: patch.Resolved, By: w.User.ID, At: s.Now(),
		Reactions: quire.ReactionChange{Add: patch.AddedReactions, Remove: patch.RemovedReactions}}
	if patch.Body != nil {
		body, err := commentBody(ctx, "body", *patch.Body)
		if err != nil {
			return nil, err
		}
		was, err := s.store.Comment(ctx, pl.space.ID, pl.crID(), id)
		if err != nil {
			return nil, err
		}
		if err := s.checkMentions(ctx, pl.space.ID, "body", body, was.Body); err != nil {
			return nil, err
		}
		upd.Body = &body
	}
	var out *quire.Comment
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		cur, err := st.Comment(ctx, pl.space.ID, pl.crID(), id)
		if err != nil {
			return err
		}
		if upd.Body != nil && !w.author(cur.PostedBy) {
			return quire.Errorf(quire.EFORBIDDEN, "only the author of a comment can edit its body")
		}
		out, err = st.UpdateComment(ctx, pl.space.ID, pl.crID(), id, upd)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.commentView(ctx, w, pl, nil, out)
}

// DeleteComment deletes a comment with its replies and reactions, and
// reports whether it existed. Its author may, and so may space admins.
func (s *Service) DeleteComment(ctx context.Context, w Commenter, sc CommentScope, id string) (bool, error) {
	pl, err := s.commentPlace(ctx, sc, true)
	if err != nil {
		return false, err
	}
	existed := false
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		cur, err := st.Comment(ctx, pl.space.ID, pl.crID(), id)
		if quire.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		if !w.mayDelete(cur.PostedBy) {
			return quire.Errorf(quire.EFORBIDDEN, "only the author of a comment or a space admin can delete it")
		}
		existed, err = st.DeleteComment(ctx, pl.space.ID, pl.crID(), id)
		return err
	})
	return existed, err
}
