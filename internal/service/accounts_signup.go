package service

import (
	"context"
	"slices"
	"strings"
	"time"

	"quire/internal/quire"
)

// RequestSignUp starts a sign-up through an organization's allowed email
// domain: when an organization allows the email's domain and no account
// has the email, it emails a confirmation link, valid for
// ConfirmLinkLifetime. It answers the same in every case, so that no one
// learns which addresses have accounts. Without a mailer it is
// EUNAVAILABLE: the email must be proven.
func (a *Accounts) RequestSignUp(ctx context.Context, email string) error {
	if a.mailer == nil {
		return quire.Errorf(quire.EUNAVAILABLE, "this server sends no email, so sign-up by email domain is not offered: ask for an invite link")
	}
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return quire.Invalid("email", "must be an email address")
	}
	orgs, err := domainOrganizations(ctx, a.store, email)
	if err != nil || len(orgs) == 0 {
		return err
	}
	if _, err := a.store.UserByEmail(ctx, email); err == nil {
		return nil
	} else if !quire.IsNotFound(err) {
		return err
	}
	secret, err := a.createLink(ctx, a.store, quire.LinkConfirm, "", email, ConfirmLinkLifetime)
	if err != nil {
		return err
	}
	a.send(email, "Confirm your email for Quire",
		"To finish creating your Quire account, open this link within a day:\n\n"+
			a.link("/app/sign-up/"+secret)+"\n\nIf you did not ask for an account, ignore this email.\n")
	return nil
}

// SignUpEmail returns the email a confirmation link proves, leaving the
// link in place.
func (a *Accounts) SignUpEmail(ctx context.Context, secret string) (string, error) {
	if !validSecret(secret) {
		return "", expiredLink()
	}
	l, err := a.store.AccountLink(ctx, quire.LinkConfirm, linkHash(secret), a.Now())
	if quire.IsNotFound(err) {
		return "", expiredLink()
	}
	if err != nil {
		return "", err
	}
	return l.Email, nil
}

// CompleteSignUp uses a confirmation link: it creates the user with the
// proven email, a name and a password, makes them a member of every
// organization allowing the email's domain with its default role, and
// signs them in. SignedIn.OrgID is the first of those organizations.
func (a *Accounts) CompleteSignUp(ctx context.Context, secret string, in SignUpInput) (*SignedIn, error) {
	email, err := a.SignUpEmail(ctx, secret)
	if err != nil {
		return nil, err
	}
	in.Email = email
	if err := checkSignUp(in); err != nil {
		return nil, err
	}
	var first string
	u, err := a.createAccount(ctx, in, func(st quire.Store, u *quire.User) error {
		if _, err := st.TakeAccountLink(ctx, quire.LinkConfirm, linkHash(secret), a.Now()); err != nil {
			if quire.IsNotFound(err) {
				return expiredLink()
			}
			return err
		}
		orgs, err := domainOrganizations(ctx, st, email)
		if err != nil {
			return err
		}
		if len(orgs) == 0 {
			return quire.Errorf(quire.EPRECONDITION, "no organization allows this email's domain any more")
		}
		first = orgs[0].ID
		_, err = joinOrganizations(ctx, st, u, orgs, a.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	si, err := a.open(ctx, u, in.Client)
	if err != nil {
		return nil, err
	}
	si.OrgID = first
	return si, nil
}

// domainOrganizations lists the organizations a person joins through
// their email's domain: those allowing the domain, but not those that
// require single sign-on, whose members come through their own identity
// provider.
func domainOrganizations(ctx context.Context, st quire.Store, email string) ([]*quire.Organization, error) {
	orgs, err := st.OrganizationsForEmailDomain(ctx, emailDomain(email))
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(orgs, func(o *quire.Organization) bool { return o.SSO }), nil
}

// joinOrganizations makes u a member of each organization with its
// default role, and returns their ids.
func joinOrganizations(ctx context.Context, st quire.Store, u *quire.User, orgs []*quire.Organization, now time.Time) ([]string, error) {
	ids := make([]string, 0, len(orgs))
	for _, o := range orgs {
		if err := st.AddMember(ctx, &quire.Member{OrgID: o.ID, User: *u, Role: o.DefaultRole, JoinedAt: now}); err != nil {
			return nil, err
		}
		if err := auditJoined(ctx, st, o.ID, u.ID, o.DefaultRole, "email domain"); err != nil {
			return nil, err
		}
		ids = append(ids, o.ID)
	}
	return ids, nil
}
