package app

import (
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// joinInvite is the page of an invite link for a person who is signed
// in: the organization, the role the link gives, and either the button
// joining with it or what stands in the way.
type joinInvite struct {
	Org  *quire.Organization
	Role string
	// Action is where the join button posts.
	Action string
	// Name and Email say which account joins.
	Name  string
	Email string
	// Member says the person is a member already, with MemberRole;
	// Disabled that their membership is turned off.
	Member     bool
	MemberRole string
	Disabled   bool
}

// joinInviteOf describes a person's standing with an invite link's
// organization for the page.
func joinInviteOf(u *quire.User, s *service.InviteStanding) *joinInvite {
	p := &joinInvite{Org: s.Org, Role: roleName(s.Invite.Role), Action: "/app/join/" + s.Invite.ID + "/accept",
		Name: u.DisplayName, Email: u.Email}
	if s.Member != nil {
		p.Member, p.MemberRole, p.Disabled = true, roleName(s.Member.Role), s.Member.Disabled
	}
	return p
}

// joinSignedIn shows a signed-in person an invite link: the button
// joining its organization, or that they are a member already.
func (a *App) joinSignedIn(w http.ResponseWriter, r *http.Request, u *quire.User) error {
	s, err := a.cfg.Accounts.StandingForInvite(r.Context(), r.PathValue("inviteId"), u)
	if err != nil {
		return a.linkGone(w, r, err)
	}
	a.renderBare(w, r, http.StatusOK, "join", joinInviteOf(u, s))
	return nil
}

// acceptInvite makes the signed-in person a member of the invite link's
// organization with the link's role and goes there. A member already
// keeps their role and is told so.
func (a *App) acceptInvite(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r.Context())
	s, err := a.cfg.Accounts.AcceptInvite(r.Context(), r.PathValue("inviteId"), u)
	if err != nil {
		return a.linkGone(w, r, err)
	}
	if !s.Joined {
		a.renderBare(w, r, http.StatusOK, "join", joinInviteOf(u, s))
		return nil
	}
	http.Redirect(w, r, "/app/o/"+s.Org.ID, http.StatusSeeOther)
	return nil
}
