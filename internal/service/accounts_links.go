package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// SetupLink makes the one-time link with which a user, the admin created
// on first start, sets their password: <base>/app/setup/<secret>, valid
// for SetupLinkLifetime.
func (a *Accounts) SetupLink(ctx context.Context, userID string) (string, error) {
	secret, err := a.createLink(ctx, a.store, quire.LinkSetup, userID, "", SetupLinkLifetime)
	if err != nil {
		return "", err
	}
	return a.link("/app/setup/" + secret), nil
}

// ResetLink makes a one-time password reset link for the user with that
// email, valid for ResetLinkLifetime: what an administrator hands over.
// An unknown email is ENOTFOUND.
func (a *Accounts) ResetLink(ctx context.Context, email string) (string, error) {
	u, err := a.store.UserByEmail(ctx, strings.TrimSpace(email))
	if err != nil {
		return "", err
	}
	secret, err := a.createLink(ctx, a.store, quire.LinkReset, u.ID, "", ResetLinkLifetime)
	if err != nil {
		return "", err
	}
	return a.link("/app/reset/" + secret), nil
}

// RequestReset emails a reset link to the user with that email, when
// there is one. It answers the same for every well-formed email, in about
// the same time: the email goes out in the background. Without a mailer
// it is EUNAVAILABLE.
func (a *Accounts) RequestReset(ctx context.Context, email string) error {
	if a.mailer == nil {
		return quire.Errorf(quire.EUNAVAILABLE, "this server sends no email: ask an administrator for a reset link")
	}
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return quire.Invalid("email", "must be an email address")
	}
	u, err := a.store.UserByEmail(ctx, email)
	if quire.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	secret, err := a.createLink(ctx, a.store, quire.LinkReset, u.ID, "", ResetLinkLifetime)
	if err != nil {
		return err
	}
	a.send(u.Email, "Reset your Quire password",
		"Someone, probably you, asked to reset the password of your Quire account.\n\n"+
			"Choose a new password within an hour at:\n\n"+a.link("/app/reset/"+secret)+"\n\n"+
			"If it was not you, ignore this email: your password stays as it is.\n")
	return nil
}

// linkUser returns the user of a setup or reset link, leaving the link
// in place: what the page shows before the form is sent.
func (a *Accounts) linkUser(ctx context.Context, purpose quire.AccountLinkPurpose, secret string) (*quire.User, error) {
	if !validSecret(secret) {
		return nil, expiredLink()
	}
	l, err := a.store.AccountLink(ctx, purpose, linkHash(secret), a.Now())
	if quire.IsNotFound(err) {
		return nil, expiredLink()
	} else if err != nil {
		return nil, err
	}
	return a.store.User(ctx, l.UserID)
}

// SetupUser returns the user a setup link is for.
func (a *Accounts) SetupUser(ctx context.Context, secret string) (*quire.User, error) {
	return a.linkUser(ctx, quire.LinkSetup, secret)
}

// ResetUser returns the user a reset link is for.
func (a *Accounts) ResetUser(ctx context.Context, secret string) (*quire.User, error) {
	return a.linkUser(ctx, quire.LinkReset, secret)
}

// CompleteSetup uses a setup link: it sets the password and signs the
// user in.
func (a *Accounts) CompleteSetup(ctx context.Context, secret, password string, c Client) (*SignedIn, error) {
	return a.useLink(ctx, quire.LinkSetup, secret, password, c)
}

// CompleteReset uses a reset link: it sets the password, ends every
// session of the user and signs them in anew.
func (a *Accounts) CompleteReset(ctx context.Context, secret, password string, c Client) (*SignedIn, error) {
	return a.useLink(ctx, quire.LinkReset, secret, password, c)
}

// useLink checks the password against the link's user first, so that a
// weak password leaves the link usable, then takes the link and sets it.
func (a *Accounts) useLink(ctx context.Context, purpose quire.AccountLinkPurpose, secret, password string, c Client) (*SignedIn, error) {
	u, err := a.linkUser(ctx, purpose, secret)
	if err != nil {
		return nil, err
	}
	if err := checkPasswordStrength("password", password, u.Email); err != nil {
		return nil, err
	}
	h, err := a.hash(ctx, password)
	if err != nil {
		return nil, err
	}
	err = a.store.WithTx(ctx, func(st quire.Store) error {
		l, err := st.TakeAccountLink(ctx, purpose, linkHash(secret), a.Now())
		if quire.IsNotFound(err) {
			return expiredLink()
		} else if err != nil {
			return err
		}
		if err := st.SetPassword(ctx, l.UserID, h, a.Now()); err != nil {
			return err
		}
		if err := st.DeleteAccountLinks(ctx, l.UserID, quire.LinkReset); err != nil {
			return err
		}
		if err := st.ClearSignInFailures(ctx, "account:"+normalEmail(u.Email)); err != nil {
			return err
		}
		_, err = st.DeleteUserSessions(ctx, l.UserID, "")
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.open(ctx, u, c)
}
