package app

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// maxCRText bounds a description's Markdown, in bytes.
const maxCRText = 64 << 10

// changeRequestNotice returns the confirmation of a change made on the
// change request page, by key; "" for an unknown key.
func changeRequestNotice(key string) string {
	switch key {
	case "cr-details":
		return "Change request saved"
	case "cr-open":
		return "Marked ready for review"
	case "cr-draft":
		return "Moved back to draft"
	case "cr-archived":
		return "Change request archived"
	case "cr-reopened":
		return "Change request reopened"
	case "cr-updated":
		return "Updated from main"
	case "cr-uptodate":
		return "Already up to date with main"
	case "cr-conflicts":
		return "Updating from main found conflicts; nothing changed"
	case "cr-merge-conflicts":
		return "The merge found conflicts; nothing changed"
	case "cr-reviewers":
		return "Review requested"
	case "cr-reviewer-removed":
		return "Reviewer removed"
	case "cr-approved":
		return "Review submitted: approved"
	case "cr-changes-requested":
		return "Review submitted: changes requested"
	case "cr-merged":
		return "Change request merged"
	}
	return ""
}

// toChangeRequest redirects to the change request's page with a notice,
// and with a count of conflicts when there are some.
func toChangeRequest(w http.ResponseWriter, r *http.Request, notice string, conflicts int) error {
	path := changeRequestPath(r.PathValue("spaceId"), r.PathValue("number"))
	if conflicts > 0 {
		path += "?conflicts=" + strconv.Itoa(conflicts) + "&" + noticeParam + "=" + notice
		http.Redirect(w, r, path, http.StatusSeeOther)
		return nil
	}
	return seeOther(w, r, path, notice)
}

// spaceAndNumber reads the space and the change request number of a
// change request's address (its page, its diff, its conflicts, its
// forms).
func spaceAndNumber(r *http.Request) (*quire.Space, string, error) {
	sp, err := spaceFrom(r)
	if err != nil {
		return nil, "", err
	}
	n, err := changeRequestNumber(r)
	return sp, n, err
}

// updateChangeRequestDetails saves a change request's subject and its
// description, written as Markdown and stored as the rich-text document
// the API stores; an empty description removes it.
func (a *App) updateChangeRequestDetails(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	subject, md := r.PostFormValue("subject"), strings.TrimSpace(r.PostFormValue("description"))
	state := &crFormState{Form: "details", Subject: subject, Description: md}
	var desc json.RawMessage
	switch {
	case len(md) > maxCRText:
		err = quire.Invalid("description", "must be at most %d KB of Markdown", maxCRText>>10)
	case md != "":
		var doc *document.Document
		if doc, err = document.FromMarkdown(md); err != nil {
			err = quire.Invalid("description", "is not Markdown this editor can read: %v", err)
		} else if desc, err = json.Marshal(doc); err != nil {
			return err
		}
	}
	if err == nil {
		_, err = a.svc.UpdateChangeRequest(r.Context(), sp.ID, n, service.ChangeRequestPatch{Subject: &subject, Description: &desc})
	}
	if field, msg, ok := formError(err); ok {
		state.Field, state.Message = field, field+": "+msg
		return a.drawChangeRequest(w, r, http.StatusUnprocessableEntity, state)
	} else if err != nil {
		return err
	}
	return toChangeRequest(w, r, "cr-details", 0)
}

// moveChangeRequest moves a change request's status: ready for review
// (open), back to draft, archived, or reopened from the archive.
func (a *App) moveChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	to := quire.ChangeRequestStatus(r.PostFormValue("status"))
	switch to {
	case quire.CRDraft, quire.CROpen, quire.CRArchived:
	default:
		return quire.Invalid("status", "must be draft, open or archived")
	}
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	from := cr.Status
	if _, err := a.svc.UpdateChangeRequest(ctx, sp.ID, n, service.ChangeRequestPatch{Status: &to}); err != nil {
		return err
	}
	notice := "cr-" + string(to)
	if from == quire.CRArchived && to != quire.CRArchived {
		notice = "cr-reopened"
	}
	return toChangeRequest(w, r, notice, 0)
}

// updateChangeRequestFromMain pulls main's changes into a change
// request; conflicts change nothing and are counted on the page, which
// links to where they are resolved.
func (a *App) updateChangeRequestFromMain(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	out, err := a.svc.UpdateChangeRequestFromMain(ctx, userFrom(ctx), sp.ID, cr.ID)
	if err != nil {
		return err
	}
	switch {
	case len(out.Conflicts) > 0:
		return toChangeRequest(w, r, "cr-conflicts", len(out.Conflicts))
	case out.Revision == cr.Revision:
		return toChangeRequest(w, r, "cr-uptodate", 0)
	}
	return toChangeRequest(w, r, "cr-updated", 0)
}

// requestReviewers asks a person, or the people of a team who may review
// the space, to review a change request. The form's reviewer is
// "user:ID" or "team:ID".
func (a *App) requestReviewers(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	kind, id, _ := strings.Cut(r.PostFormValue("reviewer"), ":")
	var users []string
	switch {
	case id == "":
		return quire.Invalid("reviewer", "choose a person or a team")
	case kind == "user":
		users = []string{id}
	case kind == "team":
		if users, err = a.teamReviewers(r, sp, cr, id); err != nil {
			return err
		}
	default:
		return quire.Invalid("reviewer", "choose a person or a team")
	}
	_, err = a.svc.RequestReviewers(ctx, userFrom(ctx), sp.ID, cr.ID, service.ReviewersRequest{Users: users})
	if field, msg, ok := formError(err); ok && strings.HasPrefix(field, "users[") {
		return quire.Invalid("reviewer", "%s", msg)
	} else if err != nil {
		return err
	}
	return toChangeRequest(w, r, "cr-reviewers", 0)
}

// teamReviewers returns the members of a team who may be asked to review
// a change request: those who may review the space, but its author.
func (a *App) teamReviewers(r *http.Request, sp *quire.Space, cr *quire.ChangeRequest, teamID string) ([]string, error) {
	ctx := r.Context()
	l, err := a.svc.TeamMembers(ctx, sp.OrgID, teamID, quire.Page{Limit: quire.MaxLimit})
	if quire.IsNotFound(err) {
		return nil, quire.Invalid("reviewer", "no such team")
	} else if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range l.Items {
		if m.Disabled || m.User.ID == cr.CreatedBy {
			continue
		}
		level, _, err := a.svc.Access(ctx, &m.User, service.ScopeSpace, sp.ID)
		if err != nil {
			return nil, err
		}
		if level >= quire.LevelReview {
			out = append(out, m.User.ID)
		}
	}
	if len(out) == 0 {
		return nil, quire.Invalid("reviewer", "nobody in the team may review this space")
	}
	return out, nil
}

// removeRequestedReviewer withdraws a request to review.
func (a *App) removeRequestedReviewer(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	ok, err := a.svc.RemoveRequestedReviewer(ctx, sp.ID, cr.ID, r.PathValue("userId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("requested reviewer")
	}
	return toChangeRequest(w, r, "cr-reviewer-removed", 0)
}

// submitReview records the viewer's review: approve or request changes,
// with an optional comment in Markdown.
func (a *App) submitReview(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var in service.ReviewInput
	switch r.PostFormValue("verdict") {
	case "approve":
		in.Status = quire.ReviewApproved
	case "request-changes":
		in.Status = quire.ReviewChangesRequested
	default:
		return quire.Invalid("verdict", "choose Approve or Request changes")
	}
	if text := strings.TrimSpace(r.PostFormValue("comment")); text != "" {
		if len(text) > maxCRText {
			return quire.Invalid("comment", "must be at most %d KB of Markdown", maxCRText>>10)
		}
		in.Comment = &service.DocumentInput{Markdown: &text}
	}
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	_, err = a.svc.SubmitReview(ctx, service.Commenter{User: userFrom(ctx), Level: levelFrom(ctx)}, sp.ID, cr.ID, in)
	if err != nil {
		return err
	}
	if in.Status == quire.ReviewApproved {
		return toChangeRequest(w, r, "cr-approved", 0)
	}
	return toChangeRequest(w, r, "cr-changes-requested", 0)
}

// mergeChangeRequest merges a change request when the merge rules allow
// it for the viewer; the service refuses otherwise, as the page's
// disabled button said.
func (a *App) mergeChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	out, err := a.svc.MergeChangeRequest(ctx, userFrom(ctx), sp.ID, cr.ID)
	if err != nil {
		return err
	}
	if len(out.Conflicts) > 0 {
		return toChangeRequest(w, r, "cr-merge-conflicts", len(out.Conflicts))
	}
	return toChangeRequest(w, r, "cr-merged", 0)
}
