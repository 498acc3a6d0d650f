package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// CommentIDParam names a comment.
type CommentIDParam struct {
	CommentID string `path:"commentId"`
}

// ReplyIDParam names a reply to a comment.
type ReplyIDParam struct {
	CommentReplyID string `path:"commentReplyId"`
}

// FormatParam selects the format of comment and reply bodies.
type FormatParam struct {
	Format string `query:"format" enum:"document,markdown" doc:"Format of the bodies; markdown when omitted"`
}

// CommentFilters are the filters and the order of the comment lists.
type CommentFilters struct {
	Order      string   `query:"order" enum:"asc,desc" default:"desc" doc:"Order by posting time"`
	Status     string   `query:"status" enum:"all,open,resolved" default:"all" doc:"Only comments in this status"`
	TargetPage string   `query:"targetPage" maxLength:"100" doc:"Only comments on this page"`
	Authors    []string `query:"authors,explode" maxItems:"100" doc:"Only comments posted by these users"`
}

// filter converts the filters for the service.
func (f CommentFilters) filter() service.CommentListFilter {
	order := quire.OrderDesc
	if f.Order == string(quire.OrderAsc) {
		order = quire.OrderAsc
	}
	return service.CommentListFilter{Status: quire.CommentStatus(f.Status), Page: f.TargetPage, Authors: f.Authors, Order: order}
}

// commentScope names the comments of the space in the path.
func (p SpacePath) commentScope() service.CommentScope {
	return service.CommentScope{SpaceID: p.SpaceID}
}

// commentScope names the comments of the change request in the path.
func (p CRPath) commentScope() service.CommentScope {
	return service.CommentScope{SpaceID: p.SpaceID, ChangeRequest: p.ChangeRequestID}
}

// commenter is the caller with their level on the space in the path.
func commenter(ctx context.Context) service.Commenter {
	return service.Commenter{User: userFrom(ctx), Level: levelFrom(ctx)}
}

// tableCellInput names a cell of a table block.
type tableCellInput struct {
	Record     string `json:"record" minLength:"1" maxLength:"100"`
	Definition string `json:"definition" minLength:"1" maxLength:"100"`
}

// postCommentBody is the body of a comment post.
type postCommentBody struct {
	Node      string           `json:"node,omitempty" maxLength:"100" doc:"Key of the block the comment is anchored to; needs page"`
	Page      string           `json:"page,omitempty" maxLength:"100" doc:"Id of the page the comment is anchored to"`
	Body      commentBodyInput `json:"body"`
	TableCell *tableCellInput  `json:"tableCell,omitempty" doc:"Cell of the table block named by node"`
}

// updateCommentBody is the body of a comment update; every field is
// optional.
type updateCommentBody struct {
	Resolved         *bool             `json:"resolved,omitempty"`
	Body             *commentBodyInput `json:"body,omitempty" doc:"New body; only its author may change it"`
	AddedReactions   []string          `json:"addedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to react with"`
	RemovedReactions []string          `json:"removedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to take back"`
}

// domain converts a comment post for the service.
func (b postCommentBody) domain() (service.CommentInput, error) {
	body, err := b.Body.domain("body")
	if err != nil {
		return service.CommentInput{}, err
	}
	in := service.CommentInput{Page: b.Page, Node: b.Node, Body: body}
	if b.TableCell != nil {
		in.TableCell = &service.TableCell{Record: b.TableCell.Record, Definition: b.TableCell.Definition}
	}
	return in, nil
}

// domain converts a comment update for the service.
func (b updateCommentBody) domain() (service.CommentPatch, error) {
	p := service.CommentPatch{Resolved: b.Resolved, AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}
	if b.Body != nil {
		body, err := b.Body.domain("body")
		if err != nil {
			return p, err
		}
		p.Body = &body
	}
	return p, nil
}

// commentIn is the input of every comment and reply operation: its path
// names the comments of a space or of a change request.
type commentIn interface {
	commentScope() service.CommentScope
}

// oneCommentIn is the input of an operation on one comment.
type oneCommentIn interface {
	commentIn
	commentID() string
}

// commentID returns the comment named by the path.
func (p CommentIDParam) commentID() string { return p.CommentID }

// format returns the format asked for.
func (p FormatParam) format() string { return p.Format }

// The inputs of the comment lists.
type (
	spaceCommentsIn struct {
		SpacePath
		ListParams
		CommentFilters
		FormatParam
	}
	crCommentsIn struct {
		CRPath
		ListParams
		CommentFilters
		FormatParam
	}
)

// commentsIn is the input of a comment list.
type commentsIn interface {
	commentIn
	page() quire.Page
	filter() service.CommentListFilter
	format() string
}

// listComments answers the comment lists.
func listComments[I commentsIn](s *Server) func(context.Context, *I) (*body[listOf[commentJSON]], error) {
	return func(ctx context.Context, in *I) (*body[listOf[commentJSON]], error) {
		l, err := s.svc.Comments(ctx, commenter(ctx), (*in).commentScope(), (*in).filter(), (*in).page())
		if err != nil {
			return nil, err
		}
		out, err := listJSONOrErr(l, func(v service.CommentView) (commentJSON, error) { return s.commentOut(v, (*in).format()) })
		if err != nil {
			return nil, err
		}
		return reply(out), nil
	}
}

// commentReply answers with one comment.
func (s *Server) commentReply(v *service.CommentView, err error, format string) (*body[commentJSON], error) {
	if err != nil {
		return nil, err
	}
	out, err := s.commentOut(*v, format)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

// The inputs of the comment posts.
type (
	spaceCommentPostIn struct {
		SpacePath
		Body postCommentBody
	}
	crCommentPostIn struct {
		CRPath
		Body postCommentBody
	}
)

// body returns the posted comment.
func (in spaceCommentPostIn) body() postCommentBody { return in.Body }

// body returns the posted comment.
func (in crCommentPostIn) body() postCommentBody { return in.Body }

// postComment answers the comment posts.
func postComment[I interface {
	commentIn
	body() postCommentBody
}](s *Server) func(context.Context, *I) (*body[commentJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentJSON], error) {
		c, err := (*in).body().domain()
		if err != nil {
			return nil, err
		}
		v, err := s.svc.PostComment(ctx, commenter(ctx), (*in).commentScope(), c)
		return s.commentReply(v, err, "")
	}
}

// The inputs of the single-comment reads.
type (
	spaceCommentGetIn struct {
		SpacePath
		CommentIDParam
		FormatParam
	}
	crCommentGetIn struct {
		CRPath
		CommentIDParam
		FormatParam
	}
)

// getComment answers the single-comment reads.
func getComment[I interface {
	oneCommentIn
	format() string
}](s *Server) func(context.Context, *I) (*body[commentJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentJSON], error) {
		v, err := s.svc.Comment(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID())
		return s.commentReply(v, err, (*in).format())
	}
}

// The inputs of the comment updates.
type (
	spaceCommentUpdateIn struct {
		SpacePath
		CommentIDParam
		Body updateCommentBody
	}
	crCommentUpdateIn struct {
		CRPath
		CommentIDParam
		Body updateCommentBody
	}
)

// body returns the update.
func (in spaceCommentUpdateIn) body() updateCommentBody { return in.Body }

// body returns the update.
func (in crCommentUpdateIn) body() updateCommentBody { return in.Body }

// updateComment answers the comment updates.
func updateComment[I interface {
	oneCommentIn
	body() updateCommentBody
}](s *Server) func(context.Context, *I) (*body[commentJSON], error) {
	return func(ctx context.Context, in *I) (*body[commentJSON], error) {
		patch, err := (*in).body().domain()
		if err != nil {
			return nil, err
		}
		v, err := s.svc.UpdateComment(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID(), patch)
		return s.commentReply(v, err, "")
	}
}

// The inputs of the comment deletes.
type (
	spaceCommentDeleteIn struct {
		SpacePath
		CommentIDParam
	}
	crCommentDeleteIn struct {
		CRPath
		CommentIDParam
	}
)

// deleteComment answers the comment deletes.
func deleteComment[I oneCommentIn](s *Server) func(context.Context, *I) (*statusOnly, error) {
	return func(ctx context.Context, in *I) (*statusOnly, error) {
		existed, err := s.svc.DeleteComment(ctx, commenter(ctx), (*in).commentScope(), (*in).commentID())
		if err != nil {
			return nil, err
		}
		return deleted(existed), nil
	}
}
