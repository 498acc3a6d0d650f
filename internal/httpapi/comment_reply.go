package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// postReplyBody is the body of a reply post.
type postReplyBody struct {
	Body commentBodyInput `json:"body"`
}

// updateReplyBody is the body of a reply update; every field is optional.
type updateReplyBody struct {
	Body             *commentBodyInput `json:"body,omitempty" doc:"New body; only its author may change it"`
	AddedReactions   []string          `json:"addedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to react with"`
	RemovedReactions []string          `json:"removedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to take back"`
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

// replyID returns the reply named by the path.
func (p ReplyIDParam) replyID() string { return p.CommentReplyID }

// oneReplyIn is the input of an operation on one reply.
type oneReplyIn interface {
	oneCommentIn
	replyID() string
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

// The inputs of the reply lists.
type (
	spaceRepliesIn struct {
		SpacePath
		CommentIDParam
		ListParams
		FormatParam
	}
	crRepliesIn struct {
		CRPath
		CommentIDParam
		ListParams
		FormatParam
	}
)

// listReplies answers the reply lists.
func listReplies[I interface {
	oneCommentIn
	page() quire.Page
	format() string
}](s *Server) func(context.Context, *I) (*body[listOf[commentReplyJSON]], error) {
	return func(ctx context.Context, in *I) (*body[listOf[commentReplyJSON]], error) {
		l, err := s.svc.Replies(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), (*in).page())
		if err != nil {
			return nil, err
		}
		out, err := listJSONOrErr(l, func(v service.ReplyView) (commentReplyJSON, error) { return s.replyOut(v, (*in).format()) })
		if err != nil {
			return nil, err
		}
		return reply(out), nil
	}
}

// The inputs of the reply posts. Only the change request's takes a
// format for its answer; the space's answers in the default one.
type (
	spaceReplyPostIn struct {
		SpacePath
		CommentIDParam
		Body postReplyBody
	}
	crReplyPostIn struct {
		CRPath
		CommentIDParam
		FormatParam
		Body postReplyBody
	}
)

// body returns the posted reply.
func (in spaceReplyPostIn) body() postReplyBody { return in.Body }

// format is the default format: the space's reply post takes none.
func (in spaceReplyPostIn) format() string { return "" }

// body returns the posted reply.
func (in crReplyPostIn) body() postReplyBody { return in.Body }

// postReply answers the reply posts.
func postReply[I interface {
	oneCommentIn
	body() postReplyBody
	format() string
}](s *Server) func(context.Context, *I) (*body[commentReplyJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentReplyJSON], error) {
		r, err := (*in).body().Body.domain("body")
		if err != nil {
			return nil, err
		}
		v, err := s.svc.PostReply(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), r)
		return s.replyAnswer(v, err, (*in).format())
	}
}

// The inputs of the single-reply reads.
type (
	spaceReplyGetIn struct {
		SpacePath
		CommentIDParam
		ReplyIDParam
		FormatParam
	}
	crReplyGetIn struct {
		CRPath
		CommentIDParam
		ReplyIDParam
		FormatParam
	}
)

// getReply answers the single-reply reads.
func getReply[I interface {
	oneReplyIn
	format() string
}](s *Server) func(context.Context, *I) (*body[commentReplyJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentReplyJSON], error) {
		v, err := s.svc.Reply(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), (*in).replyID())
		return s.replyAnswer(v, err, (*in).format())
	}
}

// spaceReplyUpdateIn is the input of a reply update; the contract has
// none for change requests.
type spaceReplyUpdateIn struct {
	SpacePath
	CommentIDParam
	ReplyIDParam
	Body updateReplyBody
}

// body returns the update.
func (in spaceReplyUpdateIn) body() updateReplyBody { return in.Body }

// updateReply answers the reply updates.
func updateReply[I interface {
	oneReplyIn
	body() updateReplyBody
}](s *Server) func(context.Context, *I) (*body[commentReplyJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentReplyJSON], error) {
		patch, err := (*in).body().domain()
		if err != nil {
			return nil, err
		}
		v, err := s.svc.UpdateReply(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), (*in).replyID(), patch)
		return s.replyAnswer(v, err, "")
	}
}

// spaceReplyDeleteIn is the input of a reply delete; the contract has
// none for change requests.
type spaceReplyDeleteIn struct {
	SpacePath
	CommentIDParam
	ReplyIDParam
}

// deleteReply answers the reply deletes.
func deleteReply[I oneReplyIn](s *Server) func(context.Context, *I) (*statusOnly, error) {
	return func(ctx context.Context, in *I) (*statusOnly, error) {
		existed, err := s.svc.DeleteReply(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), (*in).replyID())
		if err != nil {
			return nil, err
		}
		return deleted(existed), nil
	}
}
