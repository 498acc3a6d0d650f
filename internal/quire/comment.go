package quire

import (
	"context"
	"encoding/json"
	"time"
)

// CommentStatus says whether a comment's discussion is still going on.
type CommentStatus string

// Comment statuses.
const (
	CommentOpen     CommentStatus = "open"     // not resolved
	CommentResolved CommentStatus = "resolved" // marked resolved
)

// CommentTarget is what a comment is anchored to: nothing (the whole
// content), a page, a block (node) of a page, or a cell of a table block;
// Review is set on the comment a review's text became.
// The page's title, emoji, icon and path are those it had when the
// comment was posted, kept for when the page is gone.
type CommentTarget struct {
	Page            string
	PageTitle       string
	PageEmoji       string
	PageIcon        string
	PagePath        string
	Node            string // block key
	NodePreview     string // the block's text when the comment was posted
	TableRecord     string
	TableDefinition string
	Review          string // the review whose text the comment is
}

// Comment opens a discussion on a space's content, or on a change
// request's (ChangeRequestID set). Revision is the revision it was posted
// on; Replies counts its replies.
type Comment struct {
	ID              string
	SpaceID         string
	ChangeRequestID string // "" for a comment of the space itself
	Revision        string
	Target          CommentTarget
	Body            json.RawMessage // a rich-text document
	PostedBy        string
	PostedAt        time.Time
	EditedAt        *time.Time
	Status          CommentStatus
	ResolvedAt      *time.Time
	ResolvedBy      string
	Replies         int
	Reactions       []Reaction
}

// CommentReply is an answer in a comment's thread.
type CommentReply struct {
	ID        string
	CommentID string
	Body      json.RawMessage // a rich-text document
	PostedBy  string
	PostedAt  time.Time
	EditedAt  *time.Time
	Reactions []Reaction
}

// Reaction is one emoji with the users who reacted with it, in the order
// they did. Reactions of a comment or reply are ordered by their first
// use.
type Reaction struct {
	Emoji string
	Users []Reacted
}

// Reacted is one user's reaction and when it was made.
type Reacted struct {
	UserID string
	At     time.Time
}

// CommentFilter narrows a comment list: the comments of a space
// (ChangeRequestID "") or of one of its change requests. Empty fields keep
// everything; Order defaults to newest first.
type CommentFilter struct {
	SpaceID         string
	ChangeRequestID string
	Status          CommentStatus
	Page            string
	Authors         []string
	Order           Order
}

// ReactionChange adds and removes one user's reactions; an emoji both
// added and removed ends up removed.
type ReactionChange struct {
	Add    []string
	Remove []string
}

// CommentUpdate holds what a change to a comment may set; nil keeps a
// field. By is the user making the change (the resolver, the reacting
// user) and At its time.
type CommentUpdate struct {
	Body      *json.RawMessage
	Resolved  *bool
	Reactions ReactionChange
	By        string
	At        time.Time
}

// ReplyUpdate holds what a change to a reply may set; nil keeps a field.
type ReplyUpdate struct {
	Body      *json.RawMessage
	Reactions ReactionChange
	By        string
	At        time.Time
}

// CommentStore persists comments, their replies and reactions. A space's
// Comments counter counts its open comments of the space itself, and a
// change request's counts its open comments; both move in the same
// transaction as the change that affects them.
type CommentStore interface {
	// CreateComment stores an open comment and counts it.
	CreateComment(ctx context.Context, c *Comment) error
	// Comment returns a comment of a space (changeRequestID "") or of a
	// change request, with its reactions. Returns ENOTFOUND.
	Comment(ctx context.Context, spaceID, changeRequestID, id string) (*Comment, error)
	// Comments lists comments by posting time, then id, with their
	// reactions.
	Comments(ctx context.Context, f CommentFilter, p Page) (*List[*Comment], error)
	// UpdateComment applies upd, keeps the counters right when the status
	// changes, and returns the result. Returns ENOTFOUND.
	UpdateComment(ctx context.Context, spaceID, changeRequestID, id string, upd CommentUpdate) (*Comment, error)
	// DeleteComment deletes a comment with its replies and reactions and
	// reports whether it existed.
	DeleteComment(ctx context.Context, spaceID, changeRequestID, id string) (bool, error)
	// CreateCommentReply stores a reply and counts it on its comment.
	// Returns ENOTFOUND when the comment does not exist.
	CreateCommentReply(ctx context.Context, r *CommentReply) error
	// CommentReply returns a reply of a comment with its reactions.
	// Returns ENOTFOUND.
	CommentReply(ctx context.Context, commentID, id string) (*CommentReply, error)
	// CommentReplies lists a comment's replies oldest first, with their
	// reactions.
	CommentReplies(ctx context.Context, commentID string, p Page) (*List[*CommentReply], error)
	// UpdateCommentReply applies upd and returns the result. Returns
	// ENOTFOUND.
	UpdateCommentReply(ctx context.Context, commentID, id string, upd ReplyUpdate) (*CommentReply, error)
	// DeleteCommentReply deletes a reply with its reactions, uncounts it,
	// and reports whether it existed.
	DeleteCommentReply(ctx context.Context, commentID, id string) (bool, error)
}
