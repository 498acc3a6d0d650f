package app

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// reaction is one of the emoji a comment or reply may get, with its form
// value and its accessible name.
type reaction struct {
	Code, Emoji, Name string
}

// reactions are the emoji offered under every comment and reply.
var reactions = [...]reaction{
	{"thumbsup", "👍", "Thumbs up"},
	{"heart", "❤️", "Heart"},
	{"tada", "🎉", "Celebrate"},
	{"smile", "😄", "Smile"},
	{"eyes", "👀", "Eyes"},
}

// reactionNamed returns the reaction of a form value.
func reactionNamed(code string) (reaction, bool) {
	for _, r := range reactions {
		if r.Code == code {
			return r, true
		}
	}
	return reaction{}, false
}

// commentPanel is what the "comment-threads" partial draws: the threads
// of a page (of the space's content or of a change request's), or of a
// change request as a whole, with the composer.
type commentPanel struct {
	// Action is the address the forms post to: the space's or the change
	// request's comments.
	Action string
	// Back is the address of the view, where forms return.
	Back string
	// PageID is the page commented on; "" for a change request as a
	// whole.
	PageID string
	// CanComment offers the composer and the thread's controls.
	CanComment bool
	// ShowResolved shows resolved threads, which are otherwise hidden.
	ShowResolved bool
	// Blocks are the page's blocks a comment may anchor to.
	Blocks []blockChoice
	// Threads are the threads on the page as a whole, then those on its
	// blocks in the page's order; Outdated those whose block is gone.
	Threads, Outdated []thread
	// Open and Resolved count the threads.
	Open, Resolved int
	// MembersURL lists the members a mention may name.
	MembersURL string
}

// blockChoice is a block of the page the composer offers.
type blockChoice struct {
	Key, Preview string
}

// formCtx is what every form of a thread sends besides its own fields:
// the view to return to and the page it shows.
type formCtx struct {
	Back, PageID string
}

// thread is one comment with its replies, drawn.
type thread struct {
	*service.CommentView
	commentBody
	formCtx
	// Action is the comment's address, under which its forms post.
	Action string
	// Block is the key of the block it anchors to, when that block is on
	// the page; Preview the block's text when the comment was posted.
	Block, Preview string
	// Outdated marks a comment whose block is gone; Hidden a resolved
	// one while resolved threads are not shown.
	Resolved, Outdated, Hidden bool
	Replies                    []replyItem
	ReactionBar                reactionBar
	EditForm                   editForm
	// CanReply offers the reply form, resolving and reactions.
	CanReply bool
}

// replyItem is a reply of a thread, drawn.
type replyItem struct {
	*service.ReplyView
	commentBody
	formCtx
	Action      string
	ReactionBar reactionBar
	EditForm    editForm
}

// reactionBar is the reactions of a comment or reply, each a toggle
// posted to Action/react.
type reactionBar struct {
	formCtx
	Action   string
	Buttons  []reactionButton
	CanReact bool
}

// editForm is the form changing a comment's or reply's body: the field's
// id and label, and the body's Markdown.
type editForm struct {
	formCtx
	Action, ID, Label, Markdown string
}

// reactionButton is one reaction's toggle: its count and whether the
// reader reacted.
type reactionButton struct {
	reaction
	Count int
	Mine  bool
}

// reactionButtons turns reactions into the toggles of every offered
// emoji.
func reactionButtons(rs []service.ReactionView, me string) []reactionButton {
	out := make([]reactionButton, 0, len(reactions))
	for _, r := range reactions {
		b := reactionButton{reaction: r}
		for _, rv := range rs {
			if rv.Emoji != r.Emoji {
				continue
			}
			b.Count = len(rv.Users)
			for _, u := range rv.Users {
				if u.User != nil && u.User.ID == me {
					b.Mine = true
				}
			}
		}
		out = append(out, b)
	}
	return out
}

// commentsPath is the address of the comments of a space's content, or
// of change request crNumber's.
func commentsPath(spaceID, crNumber string) string {
	if crNumber == "" {
		return spaceAppPath(spaceID, "comments")
	}
	return spaceAppPath(spaceID, "changes/"+crNumber+"/comments")
}

// commenterOf is the caller of a request on a space route.
func commenterOf(ctx context.Context) service.Commenter {
	return service.Commenter{User: userFrom(ctx), Level: levelFrom(ctx)}
}

// blockChoices lists the top-level blocks of a page, with the start of
// their text, for the composer's block choice.
func blockChoices(doc *document.Document) []blockChoice {
	if doc == nil {
		return nil
	}
	out := make([]blockChoice, 0, len(doc.Nodes))
	for _, n := range doc.Nodes {
		if n.Key == "" {
			continue
		}
		text := strings.Join(strings.Fields((&document.Document{Nodes: []document.Node{n}}).PlainText()), " ")
		if utf8.RuneCountInString(text) > 60 {
			text = string([]rune(text)[:59]) + "…"
		}
		if text == "" {
			text = n.Type
		}
		out = append(out, blockChoice{Key: n.Key, Preview: text})
	}
	return out
}

// commentThreads reads the threads for the "comment-threads" partial: those
// on a page (pageID, drawn from doc) of the space's content or of change
// request crNumber's, or, with pageID "", those on the change request as a
// whole. back is the view's address.
func (a *App) commentThreads(r *http.Request, sp *quire.Space, crNumber, pageID string, doc *document.Document, back string) (*commentPanel, error) {
	ctx := r.Context()
	w := commenterOf(ctx)
	sc := service.CommentScope{SpaceID: sp.ID, ChangeRequest: crNumber}
	p := &commentPanel{Action: commentsPath(sp.ID, crNumber), Back: back, PageID: pageID,
		CanComment: w.Level >= quire.LevelComment, ShowResolved: r.URL.Query().Get("resolved") == "1",
		Blocks: blockChoices(doc)}
	p.MembersURL = commentsPath(sp.ID, "") + "/members.json"
	order := map[string]int{}
	for i, b := range p.Blocks {
		order[b.Key] = i + 1
	}
	var all []service.CommentView
	page := quire.Page{Limit: quire.MaxLimit}
	for {
		l, err := a.svc.Comments(ctx, w, sc, service.CommentListFilter{Status: service.AllComments, Page: pageID, Order: quire.OrderAsc}, page)
		if err != nil {
			return nil, err
		}
		all = append(all, l.Items...)
		if l.Next == "" || len(all) >= 5*quire.MaxLimit {
			break
		}
		page.Cursor = l.Next
	}
	m := newMentions(sp.OrgID)
	for i := range all {
		cv := &all[i]
		if pageID == "" && cv.Comment.Target.Page != "" {
			continue
		}
		t, err := a.thread(ctx, sp, sc, m, cv, formCtx{Back: back, PageID: pageID})
		if err != nil {
			return nil, err
		}
		t.Hidden = t.Resolved && !p.ShowResolved
		if t.Resolved {
			p.Resolved++
		} else {
			p.Open++
		}
		if t.Outdated {
			p.Outdated = append(p.Outdated, *t)
			continue
		}
		p.Threads = append(p.Threads, *t)
	}
	sort.SliceStable(p.Threads, func(i, j int) bool { return order[p.Threads[i].Block] < order[p.Threads[j].Block] })
	return p, nil
}

// thread draws a comment with its replies; fc is what its forms send
// back.
func (a *App) thread(ctx context.Context, sp *quire.Space, sc service.CommentScope, m *mentions, cv *service.CommentView, fc formCtx) (*thread, error) {
	w := commenterOf(ctx)
	c := cv.Comment
	t := &thread{CommentView: cv, formCtx: fc, Action: commentsPath(sp.ID, sc.ChangeRequest) + "/" + url.PathEscape(c.ID),
		Preview: c.Target.NodePreview, Resolved: c.Status == quire.CommentResolved, CanReply: cv.Permissions.Reply}
	t.Outdated = cv.Page != nil && cv.Page.Outdated
	if !t.Outdated {
		t.Block = c.Target.Node
	}
	t.ReactionBar = reactionBar{formCtx: fc, Action: t.Action, Buttons: reactionButtons(cv.Reactions, w.User.ID), CanReact: cv.Permissions.Reply}
	var err error
	if t.commentBody, err = a.drawComment(ctx, sp.OrgID, m, c.Body); err != nil {
		return nil, err
	}
	t.EditForm = editForm{formCtx: fc, Action: t.Action, ID: "edit-" + c.ID, Label: "Edit your comment", Markdown: t.Markdown}
	if c.Replies == 0 {
		return t, nil
	}
	l, err := a.svc.Replies(ctx, w, sc, c.ID, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return nil, err
	}
	for i := range l.Items {
		rv := &l.Items[i]
		ri := replyItem{ReplyView: rv, formCtx: fc, Action: t.Action + "/replies/" + url.PathEscape(rv.Reply.ID)}
		ri.ReactionBar = reactionBar{formCtx: fc, Action: ri.Action, Buttons: reactionButtons(rv.Reactions, w.User.ID), CanReact: rv.Permissions.Reply}
		if ri.commentBody, err = a.drawComment(ctx, sp.OrgID, m, rv.Reply.Body); err != nil {
			return nil, err
		}
		ri.EditForm = editForm{formCtx: fc, Action: ri.Action, ID: "edit-" + rv.Reply.ID, Label: "Edit your reply", Markdown: ri.Markdown}
		t.Replies = append(t.Replies, ri)
	}
	return t, nil
}

// openCommentCounts returns the open comments of each change request of
// a list, by id: the counter each change request keeps of its open
// comments (on its pages, its blocks and itself).
func openCommentCounts(crs []*quire.ChangeRequest) map[string]int {
	out := make(map[string]int, len(crs))
	for _, cr := range crs {
		out[cr.ID] = cr.Comments
	}
	return out
}

// pageComments gives a page view its comment threads: those on the page
// of the space's content, or of change request crNumber's.
func (a *App) pageComments(r *http.Request, sp *quire.Space, crNumber string, v *pageView) error {
	if v.Page == nil {
		return nil
	}
	p, err := a.commentThreads(r, sp, crNumber, v.Page.ID, v.Page.doc, r.URL.Path)
	if err != nil {
		return err
	}
	v.Comments = p
	return nil
}
