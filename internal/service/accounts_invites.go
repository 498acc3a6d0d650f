package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// invitesOff is the answer when an organization turned invite links off.
func invitesOff() error {
	return quire.Errorf(quire.EPRECONDITION, "this organization does not allow invite links: an admin can turn them on in its settings")
}

// CreateInvite makes an invite link into an organization that lets new
// members join with role ("" for guests). The organization must allow
// invite links. Who may call it is for the caller's access rows: an
// organization admin.
func (a *Accounts) CreateInvite(ctx context.Context, orgID string, role quire.Role) (*quire.Invite, error) {
	if role != "" && !role.Valid() {
		return nil, quire.Invalid("role", "must be one of admin, create, edit, review, comment, read, or empty for a guest")
	}
	o, err := a.store.Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !o.InviteLinks {
		return nil, invitesOff()
	}
	inv := &quire.Invite{ID: quire.NewID(), OrgID: orgID, Role: role, CreatedAt: a.Now()}
	if err := a.store.CreateInvite(ctx, inv); err != nil {
		return nil, err
	}
	return inv, nil
}

// Invites lists an organization's invite links, oldest first.
func (a *Accounts) Invites(ctx context.Context, orgID string) ([]*quire.Invite, error) {
	return a.store.Invites(ctx, orgID)
}

// RevokeInvite deletes an invite link. An unknown one is ENOTFOUND.
func (a *Accounts) RevokeInvite(ctx context.Context, orgID, id string) error {
	ok, err := a.store.DeleteInvite(ctx, orgID, id)
	if err == nil && !ok {
		return quire.NotFound("invite")
	}
	return err
}

// InviteURL is the link to hand out for an invite.
func (a *Accounts) InviteURL(inv *quire.Invite) string { return a.link("/app/join/" + inv.ID) }

// OpenInvite returns an invite link that can be used now and its
// organization: one that exists, of an organization allowing invite links.
// Anything else is ENOTFOUND.
func (a *Accounts) OpenInvite(ctx context.Context, id string) (*quire.Invite, *quire.Organization, error) {
	return openInvite(ctx, a.store, id)
}

// openInvite is OpenInvite reading st, so that a transaction can check
// the link it uses.
func openInvite(ctx context.Context, st quire.Store, id string) (*quire.Invite, *quire.Organization, error) {
	gone := quire.Errorf(quire.ENOTFOUND, "this invite link is not valid: it was revoked, or invite links are turned off")
	if id == "" || len(id) > 64 {
		return nil, nil, gone
	}
	inv, err := st.Invite(ctx, id)
	if quire.IsNotFound(err) {
		return nil, nil, gone
	} else if err != nil {
		return nil, nil, err
	}
	o, err := st.Organization(ctx, inv.OrgID)
	if err != nil {
		return nil, nil, err
	}
	if !o.InviteLinks {
		return nil, nil, gone
	}
	return inv, o, nil
}

// SignUpInput is a new account: a name, an email and a password.
type SignUpInput struct {
	Name     string
	Email    string
	Password string
	Client   Client
}

// checkSignUp checks the fields of a new account.
func checkSignUp(in SignUpInput) error {
	if !validEmail(strings.TrimSpace(in.Email)) {
		return quire.Invalid("email", "must be an email address")
	}
	if err := checkTitle("name", in.Name, 1, 64); err != nil {
		return err
	}
	return checkPasswordStrength("password", in.Password, in.Email)
}

// createAccount creates a user with a password, and the memberships
// given, in one transaction. A taken email is EINVALID naming the field.
func (a *Accounts) createAccount(ctx context.Context, in SignUpInput, join func(st quire.Store, u *quire.User) error) (*quire.User, error) {
	h, err := a.hash(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	var u *quire.User
	err = a.store.WithTx(ctx, func(st quire.Store) error {
		u = &quire.User{ID: quire.NewID(), DisplayName: strings.TrimSpace(in.Name), Email: strings.TrimSpace(in.Email), CreatedAt: a.Now()}
		if err := st.CreateUser(ctx, u); err != nil {
			if quire.ErrorCode(err) == quire.ECONFLICT {
				return quire.Invalid("email", "has an account already: sign in, or reset your password")
			}
			return err
		}
		if err := st.SetPassword(ctx, u.ID, h, a.Now()); err != nil {
			return err
		}
		return join(st, u)
	})
	return u, err
}

// JoinByInvite signs up through an invite link: it creates the user with
// a password, makes them a member with the link's role, and signs them
// in.
func (a *Accounts) JoinByInvite(ctx context.Context, inviteID string, in SignUpInput) (*SignedIn, error) {
	inv, o, err := a.OpenInvite(ctx, inviteID)
	if err != nil {
		return nil, err
	}
	if err := checkSignUp(in); err != nil {
		return nil, err
	}
	u, err := a.createAccount(ctx, in, func(st quire.Store, u *quire.User) error {
		_, err := a.addInviteMember(ctx, st, inv, u)
		return err
	})
	if err != nil {
		return nil, err
	}
	si, err := a.open(ctx, u, in.Client)
	if err != nil {
		return nil, err
	}
	si.OrgID = o.ID
	return si, nil
}

// addInviteMember makes u a member of the invite link's organization
// with the link's role: the one way an invite link adds anyone, whether
// they sign up through it or already have an account.
func (a *Accounts) addInviteMember(ctx context.Context, st quire.Store, inv *quire.Invite, u *quire.User) (*quire.Member, error) {
	m := &quire.Member{OrgID: inv.OrgID, User: *u, Role: inv.Role, JoinedAt: a.Now()}
	if err := st.AddMember(ctx, m); err != nil {
		return nil, err
	}
	return m, auditJoined(ctx, st, inv.OrgID, u.ID, inv.Role, "invite link")
}

// InviteStanding is where a signed-in person stands with an invite
// link's organization.
type InviteStanding struct {
	Invite *quire.Invite
	Org    *quire.Organization
	// Member is the person's membership, nil when they are not a member.
	Member *quire.Member
	// Joined says AcceptInvite made the membership just now.
	Joined bool
}

// StandingForInvite returns a usable invite link, its organization and
// the signed-in person's membership there, if any. A link that cannot
// be used is ENOTFOUND.
func (a *Accounts) StandingForInvite(ctx context.Context, inviteID string, u *quire.User) (*InviteStanding, error) {
	return standingForInvite(ctx, a.store, inviteID, u)
}

// standingForInvite is StandingForInvite reading st.
func standingForInvite(ctx context.Context, st quire.Store, inviteID string, u *quire.User) (*InviteStanding, error) {
	inv, o, err := openInvite(ctx, st, inviteID)
	if err != nil {
		return nil, err
	}
	s := &InviteStanding{Invite: inv, Org: o}
	if m, err := st.Member(ctx, o.ID, u.ID); err == nil {
		s.Member = m
	} else if !quire.IsNotFound(err) {
		return nil, err
	}
	return s, nil
}

// AcceptInvite makes a person who has an account a member of an invite
// link's organization with the link's role, as signing up through the
// link does. A member already, enabled or not, keeps their membership
// as it is: Joined is false. A link that cannot be used (revoked, or
// invite links turned off) is ENOTFOUND.
func (a *Accounts) AcceptInvite(ctx context.Context, inviteID string, u *quire.User) (*InviteStanding, error) {
	var s *InviteStanding
	err := a.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if s, err = standingForInvite(ctx, st, inviteID, u); err != nil || s.Member != nil {
			return err
		}
		s.Member, err = a.addInviteMember(ctx, st, s.Invite, u)
		s.Joined = err == nil
		return err
	})
	if quire.ErrorCode(err) == quire.ECONFLICT {
		// Joined at the same moment through another request.
		return a.StandingForInvite(ctx, inviteID, u)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}
