package service

import (
	"context"

	"quire/internal/quire"
)

// ReplyPatch is a change to a reply; nil and empty fields change nothing.
type ReplyPatch struct {
	Body             *DocumentInput
	AddedReactions   []string
	RemovedReactions []string
}

// thread resolves a scope and the comment whose replies are acted on.
func (s *Service) thread(ctx context.Context, sc CommentScope, commentID string, write bool) (*commentPlace, *quire.Comment, error) {
	pl, err := s.commentPlace(ctx, sc, write)
	if err != nil {
		return nil, nil, err
	}
	cm, err := s.store.Comment(ctx, pl.space.ID, pl.crID(), commentID)
	if err != nil {
		return nil, nil, err
	}
	return pl, cm, nil
}

// replyView describes one reply.
func (s *Service) replyView(ctx context.Context, w Commenter, pl *commentPlace, cm *quire.Comment, r *quire.CommentReply) (*ReplyView, error) {
	return s.newCommentViewer(w, pl, nil).reply(ctx, cm, r)
}

// PostReply answers a comment.
func (s *Service) PostReply(ctx context.Context, w Commenter, sc CommentScope, commentID string, in DocumentInput) (*ReplyView, error) {
	body, err := commentBody(ctx, "body", in)
	if err != nil {
		return nil, err
	}
	pl, cm, err := s.thread(ctx, sc, commentID, true)
	if err != nil {
		return nil, err
	}
	if err := s.checkMentions(ctx, pl.space.ID, "body", body, nil); err != nil {
		return nil, err
	}
	r := &quire.CommentReply{ID: quire.NewID(), CommentID: cm.ID, Body: body, PostedBy: w.User.ID, PostedAt: s.Now()}
	if err := s.store.CreateCommentReply(ctx, r); err != nil {
		return nil, err
	}
	s.notifyComment(ctx, w.User, cm, body, true)
	return s.replyView(ctx, w, pl, cm, r)
}

// Reply returns a reply to a comment.
func (s *Service) Reply(ctx context.Context, w Commenter, sc CommentScope, commentID, id string) (*ReplyView, error) {
	pl, cm, err := s.thread(ctx, sc, commentID, false)
	if err != nil {
		return nil, err
	}
	r, err := s.store.CommentReply(ctx, cm.ID, id)
	if err != nil {
		return nil, err
	}
	return s.replyView(ctx, w, pl, cm, r)
}

// Replies lists the replies to a comment, oldest first.
func (s *Service) Replies(ctx context.Context, w Commenter, sc CommentScope, commentID string, p quire.Page) (*quire.List[ReplyView], error) {
	pl, cm, err := s.thread(ctx, sc, commentID, false)
	if err != nil {
		return nil, err
	}
	l, err := s.store.CommentReplies(ctx, cm.ID, p)
	if err != nil {
		return nil, err
	}
	v := s.newCommentViewer(w, pl, nil)
	items := make([]ReplyView, 0, len(l.Items))
	for _, r := range l.Items {
		rv, err := v.reply(ctx, cm, r)
		if err != nil {
			return nil, err
		}
		items = append(items, *rv)
	}
	return &quire.List[ReplyView]{Items: items, Next: l.Next, Count: l.Count}, nil
}

// UpdateReply changes a reply: its body (its author only) and the
// caller's reactions.
func (s *Service) UpdateReply(ctx context.Context, w Commenter, sc CommentScope, commentID, id string, patch ReplyPatch) (*ReplyView, error) {
	upd := quire.ReplyUpdate{By: w.User.ID, At: s.Now(),
		Reactions: quire.ReactionChange{Add: patch.AddedReactions, Remove: patch.RemovedReactions}}
	if patch.Body != nil {
		body, err := commentBody(ctx, "body", *patch.Body)
		if err != nil {
			return nil, err
		}
		upd.Body = &body
	}
	pl, cm, err := s.thread(ctx, sc, commentID, true)
	if err != nil {
		return nil, err
	}
	if upd.Body != nil {
		was, err := s.store.CommentReply(ctx, cm.ID, id)
		if err != nil {
			return nil, err
		}
		if err := s.checkMentions(ctx, pl.space.ID, "body", *upd.Body, was.Body); err != nil {
			return nil, err
		}
	}
	var out *quire.CommentReply
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		cur, err := st.CommentReply(ctx, cm.ID, id)
		if err != nil {
			return err
		}
		if upd.Body != nil && !w.author(cur.PostedBy) {
			return quire.Errorf(quire.EFORBIDDEN, "only the author of a reply can edit its body")
		}
		out, err = st.UpdateCommentReply(ctx, cm.ID, id, upd)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.replyView(ctx, w, pl, cm, out)
}

// DeleteReply deletes a reply with its reactions and reports whether it
// existed; a reply of a comment that does not exist does not either. Its
// author may delete it, and so may space admins.
func (s *Service) DeleteReply(ctx context.Context, w Commenter, sc CommentScope, commentID, id string) (bool, error) {
	pl, err := s.commentPlace(ctx, sc, true)
	if err != nil {
		return false, err
	}
	cm, err := s.store.Comment(ctx, pl.space.ID, pl.crID(), commentID)
	if quire.IsNotFound(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	existed := false
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		cur, err := st.CommentReply(ctx, cm.ID, id)
		if quire.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		if !w.mayDelete(cur.PostedBy) {
			return quire.Errorf(quire.EFORBIDDEN, "only the author of a reply or a space admin can delete it")
		}
		existed, err = st.DeleteCommentReply(ctx, cm.ID, id)
		return err
	})
	return existed, err
}
