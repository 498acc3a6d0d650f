package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/web"
)

// membersPageSize is how many members one page of the list shows.
const membersPageSize = 50

// problem is a refused form: the field the service named, if any, and its
// message, shown above the form.
type problem struct {
	Field   string
	Message string
}

// userProblem turns an error a person's input caused (an invalid field,
// something that is not there, a conflict) into what the page shows, and
// its status; ok is false for any other error, which fail draws.
func userProblem(err error) (p *problem, status int, ok bool) {
	if field, msg, isForm := formError(err); isForm {
		return &problem{Field: field, Message: msg}, http.StatusBadRequest, true
	}
	switch code := quire.ErrorCode(err); code {
	case quire.ENOTFOUND, quire.ECONFLICT, quire.EPRECONDITION:
		return &problem{Message: quire.ErrorMessage(err)}, web.StatusOf(code), true
	}
	return nil, 0, false
}

// roleOption is a choice of a role select.
type roleOption struct {
	Value, Label string
}

// memberRoleOptions are the roles a member can be given, guest last.
func memberRoleOptions() []roleOption {
	var out []roleOption
	for _, r := range quire.Roles() {
		out = append(out, roleOption{string(r), roleName(r)})
	}
	return append(out, roleOption{"", "Guest (no role)"})
}

// grantRoleOptions are the roles a grant can give.
func grantRoleOptions() []roleOption {
	return memberRoleOptions()[:len(quire.Roles())]
}

// membersData is what the members page shows.
type membersData struct {
	OrgID   string
	Query   string
	Members []*quire.Member
	Count   int
	// Next is the address of the next page, "" on the last.
	Next    string
	Admin   bool
	Roles   []roleOption
	Notice  string
	Problem *problem
	// ProblemUser is the member whose row the problem is about.
	ProblemUser string
}

// noticeOf returns the message a redirect after a change names with
// ?done=.
func noticeOf(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "role", "changed":
		return "The role was changed."
	case "disabled":
		return "The member was disabled."
	case "enabled":
		return "The member was enabled."
	case "removed":
		return "The member was removed."
	case "created":
		return "The team was created."
	case "renamed":
		return "The team was renamed."
	case "deleted":
		return "The team was deleted."
	case "added":
		return "The member was added to the team."
	case "left":
		return "The member was removed from the team."
	case "shared":
		return "Access was given."
	case "unshared":
		return "Access was removed."
	case "default":
		return "The default access was changed."
	}
	return ""
}

// members lists an organization's members, filtered by name or email.
func (a *App) members(w http.ResponseWriter, r *http.Request) error {
	return a.membersPage(w, r, http.StatusOK, nil, "")
}

// membersPage draws the members page, with a refused change's problem
// beside the member it was about.
func (a *App) membersPage(w http.ResponseWriter, r *http.Request, status int, p *problem, about string) error {
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Members", "members"
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q) > 256 {
		q = q[:256]
	}
	l, err := a.svc.Members(r.Context(), orgID, quire.MemberFilter{Search: q, Order: quire.OrderAsc},
		quire.Page{Limit: membersPageSize, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		if pr, st, ok := userProblem(err); ok && p == nil {
			// A stale or forged cursor: start over from the first page.
			p, status = pr, st
			l, err = a.svc.Members(r.Context(), orgID, quire.MemberFilter{Search: q, Order: quire.OrderAsc}, quire.Page{Limit: membersPageSize})
		}
		if err != nil {
			return err
		}
	}
	d := membersData{OrgID: orgID, Query: q, Members: l.Items, Count: l.Count, Admin: sh.Level >= admin,
		Roles: memberRoleOptions(), Notice: noticeOf(r), Problem: p, ProblemUser: about}
	if l.Next != "" {
		v := url.Values{"cursor": {l.Next}}
		if q != "" {
			v.Set("q", q)
		}
		d.Next = "/app/o/" + orgID + "/members?" + v.Encode()
	}
	return a.render(w, r, status, "members", sh, d)
}

// memberDone sends the browser back to the members list after a change,
// keeping the filter it was made from.
func memberDone(w http.ResponseWriter, r *http.Request, done string) {
	v := url.Values{"done": {done}}
	if q := r.PostFormValue("q"); q != "" {
		v.Set("q", q)
	}
	http.Redirect(w, r, "/app/o/"+r.PathValue("organizationId")+"/members?"+v.Encode(), http.StatusSeeOther)
}

// memberFailed draws the members page with the problem a change met, or
// returns an error that is not the person's doing.
func (a *App) memberFailed(w http.ResponseWriter, r *http.Request, err error) error {
	p, status, ok := userProblem(err)
	if !ok {
		return err
	}
	return a.membersPage(w, r, status, p, r.PathValue("userId"))
}

// setMemberRole changes a member's role.
func (a *App) setMemberRole(w http.ResponseWriter, r *http.Request) error {
	role := quire.Role(r.PostFormValue("role"))
	if role != "" && !role.Valid() {
		return a.memberFailed(w, r, quire.Invalid("role", "choose one of the listed roles"))
	}
	if _, err := a.svc.UpdateMemberRole(r.Context(), r.PathValue("organizationId"), r.PathValue("userId"), &role); err != nil {
		return a.memberFailed(w, r, err)
	}
	memberDone(w, r, "role")
	return nil
}

// disableMember disables a member, who then reaches nothing.
func (a *App) disableMember(w http.ResponseWriter, r *http.Request) error {
	return a.setDisabled(w, r, true)
}

// enableMember enables a disabled member again.
func (a *App) enableMember(w http.ResponseWriter, r *http.Request) error {
	return a.setDisabled(w, r, false)
}

// setDisabled disables or enables the member of the path.
func (a *App) setDisabled(w http.ResponseWriter, r *http.Request, disabled bool) error {
	if _, err := a.svc.SetMemberDisabled(r.Context(), r.PathValue("organizationId"), r.PathValue("userId"), disabled); err != nil {
		return a.memberFailed(w, r, err)
	}
	done := "enabled"
	if disabled {
		done = "disabled"
	}
	memberDone(w, r, done)
	return nil
}

// removeMember removes a member from the organization.
func (a *App) removeMember(w http.ResponseWriter, r *http.Request) error {
	ok, err := a.svc.RemoveMember(r.Context(), r.PathValue("organizationId"), r.PathValue("userId"))
	if err == nil && !ok {
		err = quire.NotFound("member")
	}
	if err != nil {
		return a.memberFailed(w, r, err)
	}
	memberDone(w, r, "removed")
	return nil
}

// memberData is what a member's page shows.
type memberData struct {
	OrgID  string
	Member *quire.Member
	Teams  []*quire.MemberTeam
	Spaces []*quire.MemberSpace
}

// member shows one member: who they are, their teams and the spaces they
// were given a role on.
func (a *App) member(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	orgID, userID := r.PathValue("organizationId"), r.PathValue("userId")
	m, err := a.svc.Member(ctx, orgID, userID)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = m.User.DisplayName, "members"
	teams, err := a.svc.MemberTeams(ctx, orgID, userID, quire.TeamFilter{}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	spaces, err := a.svc.MemberSpaces(ctx, orgID, userID, quire.OrderAsc, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	return a.render(w, r, http.StatusOK, "member", sh, memberData{OrgID: orgID, Member: m, Teams: teams.Items, Spaces: spaces.Items})
}
