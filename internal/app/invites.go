package app

import (
	"net/http"
	"time"

	"quire/internal/quire"
)

// inviteRow is one invite link on the organization's invites page.
type inviteRow struct {
	ID        string
	Role      string
	URL       string
	CreatedAt time.Time
}

// invitesPage is what the invites page shows.
type invitesPage struct {
	OrgID   string
	Enabled bool
	Invites []inviteRow
	Roles   []roleOption
	// Created is the link just made, Error why one was not.
	Created string
	Error   string
}

// roleOption is a choice of the role select.
type roleOption struct {
	Value, Label string
}

// inviteRoles are the roles an invite link can give, the most common
// first, and guest (no role) last.
func inviteRoles() []roleOption {
	var out []roleOption
	for _, r := range []quire.Role{quire.RoleRead, quire.RoleComment, quire.RoleReview, quire.RoleEdit, quire.RoleCreate, quire.RoleAdmin, ""} {
		out = append(out, roleOption{Value: string(r), Label: roleName(r)})
	}
	return out
}

// showInvites draws the organization's invite links with the form making
// one.
func (a *App) showInvites(w http.ResponseWriter, r *http.Request, status int, p *invitesPage) error {
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Invite links", "invites"
	list, err := a.cfg.Accounts.Invites(r.Context(), orgID)
	if err != nil {
		return err
	}
	p.OrgID, p.Enabled, p.Roles = orgID, sh.Org != nil && sh.Org.InviteLinks, inviteRoles()
	for _, inv := range list {
		p.Invites = append(p.Invites, inviteRow{ID: inv.ID, Role: roleName(inv.Role), URL: a.cfg.Accounts.InviteURL(inv), CreatedAt: inv.CreatedAt})
	}
	return a.render(w, r, status, "invites", sh, p)
}

// invites lists an organization's invite links.
func (a *App) invites(w http.ResponseWriter, r *http.Request) error {
	return a.showInvites(w, r, http.StatusOK, &invitesPage{Created: r.URL.Query().Get("created")})
}

// createInvite makes an invite link with the chosen role.
func (a *App) createInvite(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	inv, err := a.cfg.Accounts.CreateInvite(r.Context(), orgID, quire.Role(r.PostFormValue("role")))
	if err != nil {
		if _, msg, ok := formError(err); ok {
			return a.showInvites(w, r, http.StatusBadRequest, &invitesPage{Error: "Role " + msg})
		}
		if quire.ErrorCode(err) == quire.EPRECONDITION {
			return a.showInvites(w, r, http.StatusPreconditionFailed, &invitesPage{Error: quire.ErrorMessage(err)})
		}
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/invites?created="+inv.ID, http.StatusSeeOther)
	return nil
}

// revokeInvite deletes an invite link: it lets no one else in.
func (a *App) revokeInvite(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	if err := a.cfg.Accounts.RevokeInvite(r.Context(), orgID, r.PathValue("inviteId")); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/invites", http.StatusSeeOther)
	return nil
}
