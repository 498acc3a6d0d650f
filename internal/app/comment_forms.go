package app

import (
	"context"
	"net/http"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// fragmentHeader is the request header the comments script sends: the
// answer to its post is the threads' HTML, not a redirect.
const fragmentHeader = "X-Quire-Fragment"

// commentForm is what every comment form shares: the space, the scope
// (the space's content, or a change request's when the address names
// one), the view to return to and the page it shows.
type commentForm struct {
	sp       *quire.Space
	crNumber string
	scope    service.CommentScope
	w        service.Commenter
	back     string
	pageID   string
}

// readCommentForm reads the shared parts of a comment form.
func readCommentForm(r *http.Request) (*commentForm, error) {
	sp, err := spaceFrom(r)
	if err != nil {
		return nil, err
	}
	f := &commentForm{sp: sp, w: commenterOf(r.Context())}
	if n := r.PathValue("number"); n != "" {
		if !isNumber(n) {
			return nil, quire.NotFound("change request")
		}
		f.crNumber = n
	}
	f.scope = service.CommentScope{SpaceID: sp.ID, ChangeRequest: f.crNumber}
	if err := r.ParseForm(); err != nil {
		return nil, quire.Invalid("form", "cannot be read")
	}
	f.pageID = strings.TrimSpace(r.PostFormValue("page"))
	f.back = spacePath(sp.ID)
	if f.crNumber != "" {
		f.back = spaceAppPath(sp.ID, "changes/"+f.crNumber)
	}
	// Only the space's own views are places to return to, as a path of
	// the app without a fragment (the answer adds the thread's).
	if b, ok := appPath(r.PostFormValue("back")); ok && strings.HasPrefix(b, spacePath(sp.ID)+"/") && !strings.Contains(b, "#") {
		f.back = b
	}
	return f, nil
}

// done answers a comment form: the threads' HTML to the script, which
// puts it in place; otherwise a redirect to the view, at the thread.
func (a *App) commentDone(w http.ResponseWriter, r *http.Request, f *commentForm, commentID string) error {
	if r.Header.Get(fragmentHeader) == "" {
		to := f.back
		if commentID != "" {
			to += "#comment-" + commentID
		} else {
			to += "#comments"
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return nil
	}
	ctx := r.Context()
	var doc *document.Document
	if f.pageID != "" {
		var err error
		if doc, err = a.pageDocument(ctx, f.sp.ID, f.crNumber, f.pageID); err != nil {
			return err
		}
	}
	p, err := a.commentThreads(r, f.sp, f.crNumber, f.pageID, doc, f.back)
	if err != nil {
		return err
	}
	return a.renderPartial(w, "comment-threads", p)
}

// pageDocument reads a page's document from the space's content or a
// change request's; a page gone has none.
func (a *App) pageDocument(ctx context.Context, spaceID, crNumber, pageID string) (*document.Document, error) {
	c, err := a.svc.Content(ctx, service.ContentRef{SpaceID: spaceID, ChangeRequest: crNumber})
	if err != nil {
		return nil, err
	}
	p, err := c.Page(ctx, pageID)
	if quire.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	raw, err := c.Document(ctx, p)
	if err != nil || raw == nil {
		return nil, err
	}
	return document.ParseStored(raw)
}

// postComment posts a comment on a page, one of its blocks ("node"), or
// the change request as a whole.
func (a *App) postComment(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	node := strings.TrimSpace(r.PostFormValue("node"))
	if node != "" && f.pageID == "" {
		return quire.Invalid("page", "required with node")
	}
	body, err := commentInput(ctx, f.sp.OrgID, r.PostFormValue("body"))
	if err != nil {
		return err
	}
	cv, err := a.svc.PostComment(ctx, f.w, f.scope, service.CommentInput{Page: f.pageID, Node: node, Body: body})
	if err != nil {
		return err
	}
	return a.commentDone(w, r, f, cv.Comment.ID)
}

// replyComment answers a comment.
func (a *App) replyComment(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	body, err := commentInput(ctx, f.sp.OrgID, r.PostFormValue("body"))
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.PostReply(ctx, f.w, f.scope, id, body); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}

// editComment changes a comment's body; only its author may.
func (a *App) editComment(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	body, err := commentInput(ctx, f.sp.OrgID, r.PostFormValue("body"))
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.UpdateComment(ctx, f.w, f.scope, id, service.CommentPatch{Body: &body}); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}

// deleteComment deletes a comment with its replies: its author may, and
// so may space admins.
func (a *App) deleteComment(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	existed, err := a.svc.DeleteComment(r.Context(), f.w, f.scope, r.PathValue("commentId"))
	if err != nil {
		return err
	}
	if !existed {
		return quire.NotFound("comment")
	}
	return a.commentDone(w, r, f, "")
}

// resolveComment marks a comment resolved.
func (a *App) resolveComment(w http.ResponseWriter, r *http.Request) error {
	return a.setResolved(w, r, true)
}

// reopenComment opens a resolved comment again.
func (a *App) reopenComment(w http.ResponseWriter, r *http.Request) error {
	return a.setResolved(w, r, false)
}

// setResolved resolves or reopens a comment.
func (a *App) setResolved(w http.ResponseWriter, r *http.Request, resolved bool) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.UpdateComment(r.Context(), f.w, f.scope, id, service.CommentPatch{Resolved: &resolved}); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}

// reactionChange reads a reaction form: the reaction, one of the
// offered ones, and whether it is added ("on" 1) or taken back (0).
func reactionChange(r *http.Request) (add, remove []string, err error) {
	re, ok := reactionNamed(r.PostFormValue("reaction"))
	if !ok {
		return nil, nil, quire.Invalid("reaction", "choose one of the offered reactions")
	}
	switch r.PostFormValue("on") {
	case "1":
		return []string{re.Emoji}, nil, nil
	case "0":
		return nil, []string{re.Emoji}, nil
	}
	return nil, nil, quire.Invalid("on", "must be 1 (add the reaction) or 0 (take it back)")
}

// reactComment adds or takes back the caller's reaction to a comment.
func (a *App) reactComment(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	add, remove, err := reactionChange(r)
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.UpdateComment(r.Context(), f.w, f.scope, id, service.CommentPatch{AddedReactions: add, RemovedReactions: remove}); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}

// editReply changes a reply's body; only its author may.
func (a *App) editReply(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	body, err := commentInput(ctx, f.sp.OrgID, r.PostFormValue("body"))
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.UpdateReply(ctx, f.w, f.scope, id, r.PathValue("replyId"), service.ReplyPatch{Body: &body}); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}

// deleteReply deletes a reply: its author may, and so may space admins.
func (a *App) deleteReply(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	existed, err := a.svc.DeleteReply(r.Context(), f.w, f.scope, id, r.PathValue("replyId"))
	if err != nil {
		return err
	}
	if !existed {
		return quire.NotFound("reply")
	}
	return a.commentDone(w, r, f, id)
}

// reactReply adds or takes back the caller's reaction to a reply.
func (a *App) reactReply(w http.ResponseWriter, r *http.Request) error {
	f, err := readCommentForm(r)
	if err != nil {
		return err
	}
	add, remove, err := reactionChange(r)
	if err != nil {
		return err
	}
	id := r.PathValue("commentId")
	if _, err := a.svc.UpdateReply(r.Context(), f.w, f.scope, id, r.PathValue("replyId"), service.ReplyPatch{AddedReactions: add, RemovedReactions: remove}); err != nil {
		return err
	}
	return a.commentDone(w, r, f, id)
}
