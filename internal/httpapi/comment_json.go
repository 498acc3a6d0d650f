package httpapi

import (
	"encoding/json"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// commentJSON is the Comment object.
type commentJSON struct {
	Object      string                 `json:"object" enum:"comment"`
	ID          string                 `json:"id"`
	Status      string                 `json:"status" enum:"open,resolved"`
	ResolvedAt  *string                `json:"resolvedAt,omitempty" format:"date-time" doc:"Set when resolved"`
	ResolvedBy  *userJSON              `json:"resolvedBy,omitempty" doc:"Set when resolved"`
	PostedBy    userJSON               `json:"postedBy"`
	PostedAt    string                 `json:"postedAt" format:"date-time"`
	EditedAt    *string                `json:"editedAt,omitempty" format:"date-time"`
	Reactions   []reactionJSON         `json:"reactions"`
	Replies     int                    `json:"replies" doc:"Count of replies"`
	Body        bodyJSON               `json:"body"`
	Target      commentTargetJSON      `json:"target"`
	URLs        locURLs                `json:"urls"`
	Permissions commentPermissionsJSON `json:"permissions"`
}

// commentReplyJSON is the CommentReply object.
type commentReplyJSON struct {
	Object      string                 `json:"object" enum:"comment-reply"`
	ID          string                 `json:"id"`
	PostedBy    userJSON               `json:"postedBy"`
	PostedAt    string                 `json:"postedAt" format:"date-time"`
	EditedAt    *string                `json:"editedAt,omitempty" format:"date-time"`
	Reactions   []reactionJSON         `json:"reactions"`
	Body        bodyJSON               `json:"body"`
	URLs        locURLs                `json:"urls"`
	Permissions commentPermissionsJSON `json:"permissions"`
}

// bodyJSON is a comment or reply body: Markdown or a JSON document.
type bodyJSON struct {
	Markdown *string         `json:"markdown,omitempty"`
	Document json.RawMessage `json:"document,omitempty" doc:"Rich-text document"`
}

// commentTargetJSON is what a comment is anchored to.
type commentTargetJSON struct {
	Node          *targetNodeJSON `json:"node,omitempty"`
	TableCell     *tableCellJSON  `json:"tableCell,omitempty"`
	ChangeRequest string          `json:"changeRequest,omitempty"`
	Review        string          `json:"review,omitempty" doc:"The review whose text the comment is"`
	Page          *targetPageJSON `json:"page,omitempty"`
	Space         string          `json:"space"`
	Revision      string          `json:"revision" doc:"Revision the comment was posted on"`
}

// targetNodeJSON is the block a comment is anchored to.
type targetNodeJSON struct {
	ID      string `json:"id" doc:"Key of the block"`
	Preview string `json:"preview,omitempty" doc:"Text of the block when the comment was posted"`
}

// tableCellJSON is a cell of a table block.
type tableCellJSON struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

// targetPageJSON is the page a comment is anchored to, as the content is
// now.
type targetPageJSON struct {
	ID        string `json:"id"`
	Title     string `json:"title" minLength:"1"`
	Emoji     string `json:"emoji,omitempty" maxLength:"50"`
	Icon      string `json:"icon,omitempty" maxLength:"50"`
	CreatedAt string `json:"createdAt,omitempty" format:"date-time"`
	UpdatedAt string `json:"updatedAt,omitempty" format:"date-time"`
	Path      string `json:"path"`
	Outdated  bool   `json:"outdated" doc:"True when the page or the anchored block no longer exists"`
}

// reactionJSON is one emoji and who reacted with it.
type reactionJSON struct {
	Emoji string        `json:"emoji"`
	Count int           `json:"count"`
	Users []reactedJSON `json:"users"`
}

// reactedJSON is one user's reaction.
type reactedJSON struct {
	User      userJSON `json:"user"`
	ReactedAt string   `json:"reactedAt" format:"date-time"`
}

// commentPermissionsJSON are the caller's permissions on a comment or
// reply.
type commentPermissionsJSON struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// bodyOut renders a stored body: Markdown unless the document format is
// asked for.
func bodyOut(raw json.RawMessage, format string) (bodyJSON, error) {
	if format == "document" {
		return bodyJSON{Document: raw}, nil
	}
	doc, err := document.ParseStored(raw)
	if err != nil {
		return bodyJSON{}, err
	}
	md, err := document.ToMarkdown(doc)
	if err != nil {
		return bodyJSON{}, err
	}
	return bodyJSON{Markdown: &md}, nil
}

// commentURL is the API URL of a comment.
func (s *Server) commentURL(c *quire.Comment) string {
	if c.ChangeRequestID != "" {
		return s.urls.api("spaces", c.SpaceID, "change-requests", c.ChangeRequestID, "comments", c.ID)
	}
	return s.urls.api("spaces", c.SpaceID, "comments", c.ID)
}

// reactionsOut converts reactions.
func (s *Server) reactionsOut(rs []service.ReactionView) []reactionJSON {
	out := make([]reactionJSON, 0, len(rs))
	for _, r := range rs {
		rj := reactionJSON{Emoji: r.Emoji, Count: len(r.Users), Users: make([]reactedJSON, 0, len(r.Users))}
		for _, u := range r.Users {
			rj.Users = append(rj.Users, reactedJSON{User: s.userOut(u.User), ReactedAt: timestamp(u.At)})
		}
		out = append(out, rj)
	}
	return out
}

// permissionsOut converts comment permissions.
func permissionsOut(p quire.CommentPermissions) commentPermissionsJSON {
	return commentPermissionsJSON{View: p.View, Edit: p.Edit, Reply: p.Reply, Delete: p.Delete}
}

// commentOut converts a described comment, its body in format.
func (s *Server) commentOut(v service.CommentView, format string) (commentJSON, error) {
	c := v.Comment
	b, err := bodyOut(c.Body, format)
	if err != nil {
		return commentJSON{}, err
	}
	out := commentJSON{Object: "comment", ID: c.ID, Status: string(c.Status), PostedBy: s.userOut(v.PostedBy),
		PostedAt: timestamp(c.PostedAt), EditedAt: optTimestamp(c.EditedAt), Reactions: s.reactionsOut(v.Reactions),
		Replies: c.Replies, Body: b, Target: targetOut(c, v.Page), URLs: locURLs{Location: s.commentURL(c)},
		Permissions: permissionsOut(v.Permissions)}
	if c.Status == quire.CommentResolved && v.ResolvedBy != nil {
		out.ResolvedAt = optTimestamp(c.ResolvedAt)
		by := s.userOut(v.ResolvedBy)
		out.ResolvedBy = &by
	}
	return out, nil
}

// targetOut converts what a comment is anchored to.
func targetOut(c *quire.Comment, p *service.TargetPage) commentTargetJSON {
	t := c.Target
	out := commentTargetJSON{ChangeRequest: c.ChangeRequestID, Review: t.Review, Space: c.SpaceID, Revision: c.Revision}
	if t.Node != "" {
		out.Node = &targetNodeJSON{ID: t.Node, Preview: t.NodePreview}
	}
	if t.TableRecord != "" {
		out.TableCell = &tableCellJSON{Record: t.TableRecord, Definition: t.TableDefinition}
	}
	if p != nil {
		out.Page = &targetPageJSON{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Path: p.Path, Outdated: p.Outdated}
		if !p.CreatedAt.IsZero() {
			out.Page.CreatedAt = timestamp(p.CreatedAt)
		}
		if !p.UpdatedAt.IsZero() {
			out.Page.UpdatedAt = timestamp(p.UpdatedAt)
		}
	}
	return out
}

// replyOut converts a described reply, its body in format.
func (s *Server) replyOut(v service.ReplyView, format string) (commentReplyJSON, error) {
	r := v.Reply
	b, err := bodyOut(r.Body, format)
	if err != nil {
		return commentReplyJSON{}, err
	}
	return commentReplyJSON{Object: "comment-reply", ID: r.ID, PostedBy: s.userOut(v.PostedBy),
		PostedAt: timestamp(r.PostedAt), EditedAt: optTimestamp(r.EditedAt), Reactions: s.reactionsOut(v.Reactions),
		Body: b, URLs: locURLs{Location: s.commentURL(v.Comment) + "/replies/" + r.ID},
		Permissions: permissionsOut(v.Permissions)}, nil
}
