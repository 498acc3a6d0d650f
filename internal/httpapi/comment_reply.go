package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// postReplyBody is the body of a reply post.
type postReplyBody struct {
	Body documentInput `json:"body"`
}

// updateReplyBody is the body of a reply update; every field is optional.
type updateReplyBody struct {
	Body             *documentInput `json:"body,omitempty" doc:"New body; only its author may change it"`
	AddedReactions   []string       `json:"addedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to react with"`
	RemovedReactions []string       `json:"removedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to take back"`
}

// domain converts a reply update for the service.
func (b updateReplyBody) domain() (service.ReplyPatch, error) {
	p := service.ReplyPatch{AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}
	if b.Body != nil {
		body, err := b.Body.domain("body")
		if err != nil {
			return p, err
		}
		p.Body = &body
	}
	return p, nil
}

// replyAnswer answers with one reply.
func (s *Server) replyAnswer(v *service.ReplyView, err error, format string) (*body[commentReplyJSON], error) {
	if err != nil {
		return nil, err
	}
	out, err := s.replyOut(*v, format)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

// listReplies answers both reply lists.
func (s *Server) listReplies(ctx context.Context, sc service.CommentScope, commentID string, p quire.Page, format string) (*body[listOf[commentReplyJSON]], error) {
	l, err := s.svc.Replies(ctx, commenter(ctx), sc, commentID, p)
	if err != nil {
		return nil, err
	}
	out := listOf[commentReplyJSON]{Count: countOf(l.Count), Items: make([]commentReplyJSON, 0, len(l.Items))}
	for _, v := range l.Items {
		r, err := s.replyOut(v, format)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, r)
	}
	if l.Next != "" {
		out.Next = &nextPage{Page: l.Next}
	}
	return reply(out), nil
}

// postReply answers both reply posts.
func (s *Server) postReply(ctx context.Context, sc service.CommentScope, commentID string, b postReplyBody, format string) (*body[commentReplyJSON], error) {
	in, err := b.Body.domain("body")
	if err != nil {
		return nil, err
	}
	v, err := s.svc.PostReply(ctx, commenter(ctx), sc, commentID, in)
	return s.replyAnswer(v, err, format)
}

func (s *Server) listCommentRepliesInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	ListParams
	FormatParam
}) (*body[listOf[commentReplyJSON]], error) {
	return s.listReplies(ctx, in.commentScope(), in.CommentID, in.page(), in.Format)
}

func (s *Server) listCommentRepliesInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
	ListParams
	FormatParam
}) (*body[listOf[commentReplyJSON]], error) {
	return s.listReplies(ctx, in.commentScope(), in.CommentID, in.page(), in.Format)
}

func (s *Server) postCommentReplyInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	Body postReplyBody
}) (*body[commentReplyJSON], error) {
	return s.postReply(ctx, in.commentScope(), in.CommentID, in.Body, "")
}

func (s *Server) postCommentReplyInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
	FormatParam
	Body postReplyBody
}) (*body[commentReplyJSON], error) {
	return s.postReply(ctx, in.commentScope(), in.CommentID, in.Body, in.Format)
}

func (s *Server) getCommentReplyInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	ReplyIDParam
	FormatParam
}) (*body[commentReplyJSON], error) {
	v, err := s.svc.Reply(ctx, commenter(ctx), in.commentScope(), in.CommentID, in.CommentReplyID)
	return s.replyAnswer(v, err, in.Format)
}

func (s *Server) getCommentReplyInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
	ReplyIDParam
	FormatParam
}) (*body[commentReplyJSON], error) {
	v, err := s.svc.Reply(ctx, commenter(ctx), in.commentScope(), in.CommentID, in.CommentReplyID)
	return s.replyAnswer(v, err, in.Format)
}

func (s *Server) updateCommentReplyInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	ReplyIDParam
	Body updateReplyBody
}) (*body[commentReplyJSON], error) {
	patch, err := in.Body.domain()
	if err != nil {
		return nil, err
	}
	v, err := s.svc.UpdateReply(ctx, commenter(ctx), in.commentScope(), in.CommentID, in.CommentReplyID, patch)
	return s.replyAnswer(v, err, "")
}

func (s *Server) deleteCommentReplyInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	ReplyIDParam
}) (*statusOnly, error) {
	existed, err := s.svc.DeleteReply(ctx, commenter(ctx), in.commentScope(), in.CommentID, in.CommentReplyID)
	if err != nil {
		return nil, err
	}
	return deleted(existed), nil
}
