package service

import (
	"context"
	"time"

	"quire/internal/document"
	"quire/internal/quire"
)

// CommentView is a comment with what its object shows besides its own
// fields: its users, the page it anchors to as the content is now, its
// reactions and what the caller may do with it.
type CommentView struct {
	Comment     *quire.Comment
	PostedBy    *quire.User
	ResolvedBy  *quire.User // nil while open
	Page        *TargetPage // nil when the comment anchors to no page
	Reactions   []ReactionView
	Permissions quire.CommentPermissions
}

// TargetPage is the page a comment anchors to, read from the current
// content: the space's revision for its own comments, the change
// request's for its comments. Outdated is set when the anchored block,
// table cell or the page itself is gone; a page that is gone keeps the
// title and path it had when the comment was posted.
type TargetPage struct {
	ID        string
	Title     string
	Emoji     string
	Icon      string
	Path      string
	CreatedAt time.Time // zero when unknown
	UpdatedAt time.Time // zero when unknown
	Outdated  bool
}

// ReactionView is a reaction with its users.
type ReactionView struct {
	Emoji string
	Users []ReactedView
}

// ReactedView is one user's reaction.
type ReactedView struct {
	User *quire.User
	At   time.Time
}

// ReplyView is a reply with the comment it answers, its author, its
// reactions and what the caller may do with it.
type ReplyView struct {
	Reply       *quire.CommentReply
	Comment     *quire.Comment
	PostedBy    *quire.User
	Reactions   []ReactionView
	Permissions quire.CommentPermissions
}

// commentViewer describes comments of one place, reading each user, the
// content and each page once.
type commentViewer struct {
	s       *Service
	w       Commenter
	place   *commentPlace
	content *Content
	users   map[string]*quire.User
	pages   map[string]*pageNow
}

// pageNow is a page as the current content has it: nil page when it is
// gone; doc is parsed on first use.
type pageNow struct {
	page *quire.RevisionPage
	path string
	doc  *document.Document
}

// newCommentViewer starts describing comments of pl; c, when not nil, is
// the content they anchor to, already open.
func (s *Service) newCommentViewer(w Commenter, pl *commentPlace, c *Content) *commentViewer {
	return &commentViewer{s: s, w: w, place: pl, content: c, users: map[string]*quire.User{}, pages: map[string]*pageNow{}}
}

// commentView describes one comment.
func (s *Service) commentView(ctx context.Context, w Commenter, pl *commentPlace, c *Content, cm *quire.Comment) (*CommentView, error) {
	return s.newCommentViewer(w, pl, c).comment(ctx, cm)
}

// user reads a user once.
func (v *commentViewer) user(ctx context.Context, id string) (*quire.User, error) {
	if u, ok := v.users[id]; ok {
		return u, nil
	}
	u, err := v.s.store.User(ctx, id)
	if err != nil {
		return nil, err
	}
	v.users[id] = u
	return u, nil
}

// reactions describes reactions with their users.
func (v *commentViewer) reactions(ctx context.Context, rs []quire.Reaction) ([]ReactionView, error) {
	out := make([]ReactionView, 0, len(rs))
	for _, r := range rs {
		rv := ReactionView{Emoji: r.Emoji, Users: make([]ReactedView, 0, len(r.Users))}
		for _, ru := range r.Users {
			u, err := v.user(ctx, ru.UserID)
			if err != nil {
				return nil, err
			}
			rv.Users = append(rv.Users, ReactedView{User: u, At: ru.At})
		}
		out = append(out, rv)
	}
	return out, nil
}

// comment describes a comment.
func (v *commentViewer) comment(ctx context.Context, cm *quire.Comment) (*CommentView, error) {
	out := &CommentView{Comment: cm, Permissions: quire.CommentPermissionsFor(v.w.Level, v.w.author(cm.PostedBy))}
	var err error
	if out.PostedBy, err = v.user(ctx, cm.PostedBy); err != nil {
		return nil, err
	}
	if cm.ResolvedBy != "" {
		if out.ResolvedBy, err = v.user(ctx, cm.ResolvedBy); err != nil {
			return nil, err
		}
	}
	if out.Reactions, err = v.reactions(ctx, cm.Reactions); err != nil {
		return nil, err
	}
	if out.Page, err = v.targetPage(ctx, cm.Target); err != nil {
		return nil, err
	}
	return out, nil
}

// reply describes a reply.
func (v *commentViewer) reply(ctx context.Context, cm *quire.Comment, r *quire.CommentReply) (*ReplyView, error) {
	out := &ReplyView{Reply: r, Comment: cm, Permissions: quire.CommentPermissionsFor(v.w.Level, v.w.author(r.PostedBy))}
	var err error
	if out.PostedBy, err = v.user(ctx, r.PostedBy); err != nil {
		return nil, err
	}
	if out.Reactions, err = v.reactions(ctx, r.Reactions); err != nil {
		return nil, err
	}
	return out, nil
}

// page reads a page of the current content once; the content is opened on
// first use.
func (v *commentViewer) page(ctx context.Context, id string) (*pageNow, error) {
	if p, ok := v.pages[id]; ok {
		return p, nil
	}
	if v.content == nil {
		c, err := v.s.Content(ctx, v.place.ref())
		if err != nil {
			return nil, err
		}
		v.content = c
	}
	pn := &pageNow{}
	p, err := v.content.Page(ctx, id)
	switch {
	case quire.IsNotFound(err):
	case err != nil:
		return nil, err
	default:
		if pn.path, err = v.content.Path(ctx, p); err != nil {
			return nil, err
		}
		pn.page = p
	}
	v.pages[id] = pn
	return pn, nil
}

// targetPage describes the page a comment anchors to, nil for none.
func (v *commentViewer) targetPage(ctx context.Context, t quire.CommentTarget) (*TargetPage, error) {
	if t.Page == "" {
		return nil, nil
	}
	pn, err := v.page(ctx, t.Page)
	if err != nil {
		return nil, err
	}
	if pn.page == nil {
		return &TargetPage{ID: t.Page, Title: t.PageTitle, Emoji: t.PageEmoji, Icon: t.PageIcon, Path: t.PagePath,
			Outdated: true}, nil
	}
	p := pn.page
	out := &TargetPage{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Path: pn.path,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	if t.Node == "" {
		return out, nil
	}
	if pn.doc == nil {
		if pn.doc, err = v.s.pageDocument(ctx, v.content, p); err != nil {
			return nil, err
		}
	}
	block, ok := pn.doc.Block(t.Node)
	out.Outdated = !ok || (t.TableRecord != "" && !document.HasTableCell(block, t.TableRecord, t.TableDefinition))
	return out, nil
}
