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
	Node      string          `json:"node,omitempty" maxLength:"100" doc:"Key of the block the comment is anchored to; needs page"`
	Page      string          `json:"page,omitempty" maxLength:"100" doc:"Id of the page the comment is anchored to"`
	Body      documentInput   `json:"body"`
	TableCell *tableCellInput `json:"tableCell,omitempty" doc:"Cell of the table block named by node"`
}

// updateCommentBody is the body of a comment update; every field is
// optional.
type updateCommentBody struct {
	Resolved         *bool          `json:"resolved,omitempty"`
	Body             *documentInput `json:"body,omitempty" doc:"New body; only its author may change it"`
	AddedReactions   []string       `json:"addedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to react with"`
	RemovedReactions []string       `json:"removedReactions,omitempty" maxItems:"20" minLength:"1" maxLength:"50" doc:"Emoji to take back"`
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

// listComments answers both comment lists.
func (s *Server) listComments(ctx context.Context, sc service.CommentScope, f CommentFilters, p quire.Page, format string) (*body[listOf[commentJSON]], error) {
	l, err := s.svc.Comments(ctx, commenter(ctx), sc, f.filter(), p)
	if err != nil {
		return nil, err
	}
	out := listOf[commentJSON]{Count: l.Count, Items: make([]commentJSON, 0, len(l.Items))}
	for _, v := range l.Items {
		c, err := s.commentOut(v, format)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, c)
	}
	if l.Next != "" {
		out.Next = &nextPage{Page: l.Next}
	}
	return reply(out), nil
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

// postComment answers both comment posts.
func (s *Server) postComment(ctx context.Context, sc service.CommentScope, b postCommentBody) (*body[commentJSON], error) {
	in, err := b.domain()
	if err != nil {
		return nil, err
	}
	v, err := s.svc.PostComment(ctx, commenter(ctx), sc, in)
	return s.commentReply(v, err, "")
}

// updateComment answers both comment updates.
func (s *Server) updateComment(ctx context.Context, sc service.CommentScope, id string, b updateCommentBody) (*body[commentJSON], error) {
	patch, err := b.domain()
	if err != nil {
		return nil, err
	}
	v, err := s.svc.UpdateComment(ctx, commenter(ctx), sc, id, patch)
	return s.commentReply(v, err, "")
}

// deleteComment answers both comment deletes.
func (s *Server) deleteComment(ctx context.Context, sc service.CommentScope, id string) (*statusOnly, error) {
	existed, err := s.svc.DeleteComment(ctx, commenter(ctx), sc, id)
	if err != nil {
		return nil, err
	}
	return deleted(existed), nil
}

func (s *Server) listCommentsInSpace(ctx context.Context, in *struct {
	SpacePath
	ListParams
	CommentFilters
	FormatParam
}) (*body[listOf[commentJSON]], error) {
	return s.listComments(ctx, in.commentScope(), in.CommentFilters, in.page(), in.Format)
}

func (s *Server) listCommentsInChangeRequest(ctx context.Context, in *struct {
	CRPath
	ListParams
	CommentFilters
	FormatParam
}) (*body[listOf[commentJSON]], error) {
	return s.listComments(ctx, in.commentScope(), in.CommentFilters, in.page(), in.Format)
}

func (s *Server) postCommentInSpace(ctx context.Context, in *struct {
	SpacePath
	Body postCommentBody
}) (*body[commentJSON], error) {
	return s.postComment(ctx, in.commentScope(), in.Body)
}

func (s *Server) postCommentInChangeRequest(ctx context.Context, in *struct {
	CRPath
	Body postCommentBody
}) (*body[commentJSON], error) {
	return s.postComment(ctx, in.commentScope(), in.Body)
}

func (s *Server) getCommentInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	FormatParam
}) (*body[commentJSON], error) {
	v, err := s.svc.Comment(ctx, commenter(ctx), in.commentScope(), in.CommentID)
	return s.commentReply(v, err, in.Format)
}

func (s *Server) getCommentInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
	FormatParam
}) (*body[commentJSON], error) {
	v, err := s.svc.Comment(ctx, commenter(ctx), in.commentScope(), in.CommentID)
	return s.commentReply(v, err, in.Format)
}

func (s *Server) updateCommentInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
	Body updateCommentBody
}) (*body[commentJSON], error) {
	return s.updateComment(ctx, in.commentScope(), in.CommentID, in.Body)
}

func (s *Server) updateCommentInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
	Body updateCommentBody
}) (*body[commentJSON], error) {
	return s.updateComment(ctx, in.commentScope(), in.CommentID, in.Body)
}

func (s *Server) deleteCommentInSpace(ctx context.Context, in *struct {
	SpacePath
	CommentIDParam
}) (*statusOnly, error) {
	return s.deleteComment(ctx, in.commentScope(), in.CommentID)
}

func (s *Server) deleteCommentInChangeRequest(ctx context.Context, in *struct {
	CRPath
	CommentIDParam
}) (*statusOnly, error) {
	return s.deleteComment(ctx, in.commentScope(), in.CommentID)
}
