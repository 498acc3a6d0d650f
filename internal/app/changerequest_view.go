package app

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/service"
)

// changeRequestView is what the change request page shows.
type changeRequestView struct {
	// spaceSidebar holds the change request, shown in the sidebar too.
	spaceSidebar
	Author   *quire.User
	Outdated bool
	// Status names its status.
	Status string
	// Pages are the pages it changes, each with its address in the
	// change request (none for a removed page) and, once merged, in main
	// and on the published space.
	Pages []changedPage
	// Base is the address of the change request's page; DiffURL and
	// ConflictsURL those of its diff and its conflicts.
	Base, DiffURL, ConflictsURL string
	// Level is the viewer's level on the space; Mine is set for the
	// change request's author.
	Level quire.Level
	Mine  bool
	// Description is the description drawn, DescriptionMarkdown the same
	// as Markdown for its form.
	Description         template.HTML
	DescriptionMarkdown string
	// Reviews and Requested are the reviews given and those asked for.
	Reviews   []reviewLine
	Requested []service.RequestedReviewerView
	// People and Teams are who may be asked to review.
	People []*quire.User
	Teams  []*quire.Team
	// Merge is the merge rules' state for the viewer.
	Merge mergeWords
	// Conflicts is how many conflicts the last update or merge found,
	// when the page was redirected after one.
	Conflicts int
	// State is a form drawn again after invalid input.
	State *crFormState
	// Comments is the change request's conversation: the comments on it
	// as a whole.
	Comments *commentPanel
}

// reviewLine is a review with its comment drawn.
type reviewLine struct {
	service.ReviewView
	Comment template.HTML
}

// changedPage is a page a change request changes.
type changedPage struct {
	service.ChangedPage
	URL string
	// MainURL and PublishedURL are its addresses in main and on the
	// published space, once merged.
	MainURL, PublishedURL string
	// ChangeName says how it changes.
	ChangeName string
}

// crFormState is a form of the change request page drawn again after
// invalid input: which form, the values typed and the message.
type crFormState struct {
	Form, Field, Message string
	Subject, Description string
}

// Err returns the message when the state is of form.
func (s *crFormState) Err(form string) string {
	if s == nil || s.Form != form {
		return ""
	}
	return s.Message
}

// Invalid reports whether the state names field as at fault.
func (s *crFormState) Invalid(field string) bool { return s != nil && s.Field == field }

// Typed returns the value typed into a field of the details form.
func (s *crFormState) Typed(field string) string {
	switch {
	case s == nil:
		return ""
	case field == "subject":
		return s.Subject
	}
	return s.Description
}

// changeRequestNumber reads the {number} of a change request's address;
// anything but a number names no change request.
func changeRequestNumber(r *http.Request) (string, error) {
	n := r.PathValue("number")
	if !isNumber(n) {
		return "", quire.NotFound("change request")
	}
	return n, nil
}

// isNumber reports whether s is a change request's number as its address
// writes it: a positive number without leading zeros.
func isNumber(s string) bool {
	v, err := strconv.Atoi(s)
	return err == nil && v > 0 && strconv.Itoa(v) == s
}

// changeRequestPath is the app's address of a change request.
func changeRequestPath(spaceID, n string) string { return spaceAppPath(spaceID, "changes/"+n) }

// changeRequest shows a change request: its subject, description,
// status, author, dates, the pages it changes, its reviews and the
// merge rules' state, with the forms that act on it.
func (a *App) changeRequest(w http.ResponseWriter, r *http.Request) error {
	return a.drawChangeRequest(w, r, http.StatusOK, nil)
}

// drawChangeRequest draws the change request page, with a form drawn
// again after invalid input when state is set.
func (a *App) drawChangeRequest(w http.ResponseWriter, r *http.Request, status int, state *crFormState) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	views, err := a.svc.ChangeRequestViews(ctx, []*quire.ChangeRequest{cr}, sp)
	if err != nil {
		return err
	}
	pages, err := a.svc.ChangeRequestPages(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	m := changeMode(sp.ID, n)
	base := changeRequestPath(sp.ID, n)
	v := &changeRequestView{spaceSidebar: spaceSidebar{Space: sp, ChangeRequest: cr}, Author: views[0].CreatedBy,
		Outdated: views[0].Outdated, Status: statusName(cr.Status), Base: base, DiffURL: base + "/diff",
		ConflictsURL: base + "/conflicts", Level: levelFrom(ctx), Mine: cr.CreatedBy == u.ID, State: state}
	if c, err := strconv.Atoi(r.URL.Query().Get("conflicts")); err == nil && c > 0 {
		v.Conflicts = c
	}
	published := false
	if cr.Status == quire.CRMerged {
		if published, err = a.svc.SpaceOnPublicSite(ctx, sp.ID); err != nil {
			return err
		}
	}
	for _, p := range pages {
		cp := changedPage{ChangedPage: p, ChangeName: changeName(p.Change)}
		if p.Change != service.PageRemoved {
			cp.URL = m.base + p.Path
			if cr.Status == quire.CRMerged {
				cp.MainURL = spacePath(sp.ID) + "/" + p.Path
				if published {
					cp.PublishedURL = a.cfg.BaseURL + "/docs/" + sp.ID + "/" + p.Path
				}
			}
		}
		v.Pages = append(v.Pages, cp)
	}
	if v.Description, v.DescriptionMarkdown, err = a.describe(cr.Description); err != nil {
		return err
	}
	if err := a.readReviews(r, sp, cr, v); err != nil {
		return err
	}
	if v.Comments, err = a.commentThreads(r, sp, n, "", nil, r.URL.Path); err != nil {
		return err
	}
	if v.Tree, err = a.readTree(r, sp, m); err != nil {
		return err
	}
	v.Edit = a.treeEditBase(r, sp, m, cr)
	sh, err := a.spaceShell(r, sp, "#"+n+" "+cr.Subject+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section, sh.ChangeRequest = "changes", n
	if sh.Notice == "" {
		sh.Notice = changeRequestNotice(r.URL.Query().Get(noticeParam))
	}
	return a.render(w, r, status, "changerequest", sh, v)
}

// readReviews fills the page's reviews, requested reviewers, the people
// and teams who may be asked, and the merge rules' state.
func (a *App) readReviews(r *http.Request, sp *quire.Space, cr *quire.ChangeRequest, v *changeRequestView) error {
	ctx := r.Context()
	u := userFrom(ctx)
	reviews, err := a.svc.Reviews(ctx, service.Commenter{User: u, Level: v.Level}, sp.ID, cr.ID, nil, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	for _, rv := range reviews.Items {
		line := reviewLine{ReviewView: rv}
		if rv.Comment != nil {
			if line.Comment, _, err = a.describe(rv.Comment.Comment.Body); err != nil {
				return err
			}
		}
		v.Reviews = append(v.Reviews, line)
	}
	requested, err := a.svc.RequestedReviewers(ctx, sp.ID, cr.ID, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	v.Requested = requested.Items
	members, err := a.svc.Members(ctx, sp.OrgID, quire.MemberFilter{Order: quire.OrderAsc}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, mb := range members.Items {
		names[mb.User.ID] = mb.User.DisplayName
		if !mb.Disabled && mb.User.ID != cr.CreatedBy {
			v.People = append(v.People, &mb.User)
		}
	}
	teams, err := a.svc.Teams(ctx, sp.OrgID, quire.TeamFilter{}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	v.Teams = teams.Items
	st, err := a.svc.MergeState(ctx, u, sp.ID, cr.ID)
	if err != nil {
		return err
	}
	v.Merge = mergeWordsFor(st, cr, v.Level, names)
	return nil
}

// describe draws a rich-text document (a description, a review's
// comment) with the reader's renderer, and returns it as Markdown too;
// nothing for an empty one.
func (a *App) describe(raw json.RawMessage) (template.HTML, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", "", nil
	}
	doc, err := document.ParseStored(raw)
	if err != nil {
		return "", "", err
	}
	var buf bytes.Buffer
	if _, err := a.reader.RenderBody(&buf, &reader.Page{Document: doc}); err != nil {
		return "", "", err
	}
	md, err := document.ToMarkdown(doc)
	if err != nil {
		return "", "", err
	}
	// The reader's body writer escapes every value it writes.
	return template.HTML(buf.String()), md, nil
}

// changeRequestPage shows a page as a change request has it.
func (a *App) changeRequestPage(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	m := changeMode(sp.ID, n)
	v, err := a.readPage(r, sp, m, r.PathValue("path"))
	if err != nil {
		return err
	}
	if err := a.pageComments(r, sp, n, v); err != nil {
		return err
	}
	title := "#" + n + " · " + sp.Title
	if v.Page != nil {
		title = v.Page.Title + " · " + title
	}
	sh, err := a.spaceShell(r, sp, title)
	if err != nil {
		return err
	}
	sh.Section, sh.ChangeRequest = "changes", n
	return a.render(w, r, http.StatusOK, "page", sh, v)
}

// changeName names how a change request changes a page.
func changeName(c string) string {
	switch c {
	case service.PageAdded:
		return "Added"
	case service.PageRemoved:
		return "Removed"
	}
	return "Edited"
}

// statusName names a change request's status.
func statusName(s quire.ChangeRequestStatus) string {
	switch s {
	case quire.CRDraft:
		return "Draft"
	case quire.CROpen:
		return "Open"
	case quire.CRMerged:
		return "Merged"
	case quire.CRArchived:
		return "Archived"
	}
	return string(s)
}
