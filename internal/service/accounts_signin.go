package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// SignInInput is a sign-in with an email and a password.
type SignInInput struct {
	Email    string
	Password string
	Client   Client
}

// wrongCredentials is the one answer to an unknown email, a wrong
// password and a user without a password alike.
func wrongCredentials() error {
	return quire.Errorf(quire.EUNAUTHORIZED, "the email or the password is wrong")
}

// tooManyFailures is the answer once an account or an address has failed
// too often.
func tooManyFailures() error {
	return quire.Errorf(quire.ETOOMANY,
		"too many failed sign-ins: wait 15 minutes before trying again, or reset your password")
}

// signInKeys are the keys failed sign-ins are counted under.
func signInKeys(email, address string) (account, addr string) {
	return "account:" + normalEmail(email), "address:" + address
}

// SignIn checks an email and a password and opens a session. An unknown
// email and a wrong password get the same answer in about the same time
// (a dummy hash is checked). Failures are counted per account and per
// client address in the database, so that every replica refuses an
// account or an address that failed too often in SignInWindow.
func (a *Accounts) SignIn(ctx context.Context, in SignInInput) (*SignedIn, error) {
	if strings.TrimSpace(in.Email) == "" {
		return nil, quire.Invalid("email", "is required")
	}
	if in.Password == "" {
		return nil, quire.Invalid("password", "is required")
	}
	accountKey, addressKey := signInKeys(in.Email, in.Client.Address)
	now := a.Now()
	since := now.Add(-SignInWindow)
	n, err := a.store.SignInFailures(ctx, accountKey, since)
	if err != nil {
		return nil, err
	}
	m, err := a.store.SignInFailures(ctx, addressKey, since)
	if err != nil {
		return nil, err
	}
	if n >= MaxSignInFailuresAccount || m >= MaxSignInFailuresAddress {
		return nil, tooManyFailures()
	}
	if len(in.Password) > maxPasswordLength {
		in.Password = in.Password[:maxPasswordLength+1] // still wrong, hashed as long as any
	}
	var encoded string
	u, err := a.store.UserByEmail(ctx, strings.TrimSpace(in.Email))
	switch {
	case err == nil:
		encoded, err = a.store.PasswordHash(ctx, u.ID)
		if err != nil && !quire.IsNotFound(err) {
			return nil, err
		}
	case !quire.IsNotFound(err):
		return nil, err
	}
	ok, stale, err := a.verify(ctx, encoded, in.Password)
	if err != nil {
		return nil, err
	}
	if !ok {
		if err := a.store.RecordSignInFailure(ctx, []string{accountKey, addressKey}, now, since); err != nil {
			return nil, err
		}
		return nil, wrongCredentials()
	}
	if err := a.store.ClearSignInFailures(ctx, accountKey); err != nil {
		return nil, err
	}
	if stale {
		// The parameters moved on since this hash was made.
		if h, err := a.hash(ctx, in.Password); err == nil {
			_ = a.store.SetPassword(ctx, u.ID, h, now)
		}
	}
	return a.open(ctx, u, in.Client)
}

// ChangePassword replaces the password of u, who must give the current
// one, and ends u's other sessions: keep is the id of the session to
// keep (the caller's), empty to end them all.
func (a *Accounts) ChangePassword(ctx context.Context, u *quire.User, current, next, keep string) error {
	encoded, err := a.store.PasswordHash(ctx, u.ID)
	if err != nil && !quire.IsNotFound(err) {
		return err
	}
	ok, _, err := a.verify(ctx, encoded, current)
	if err != nil {
		return err
	}
	if !ok {
		return quire.Invalid("currentPassword", "is not your current password")
	}
	if current == next {
		return quire.Invalid("password", "must differ from the current password")
	}
	if err := checkPasswordStrength("password", next, u.Email); err != nil {
		return err
	}
	// Hashed before the transaction: the database is not held while
	// waiting for a turn and hashing.
	h, err := a.hash(ctx, next)
	if err != nil {
		return err
	}
	return a.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.SetPassword(ctx, u.ID, h, a.Now()); err != nil {
			return err
		}
		if err := st.DeleteAccountLinks(ctx, u.ID, quire.LinkReset); err != nil {
			return err
		}
		_, err := st.DeleteUserSessions(ctx, u.ID, keep)
		return err
	})
}

// HasPassword reports whether a user has a password.
func (a *Accounts) HasPassword(ctx context.Context, userID string) (bool, error) {
	_, err := a.store.PasswordHash(ctx, userID)
	if quire.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
