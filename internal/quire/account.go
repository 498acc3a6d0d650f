package quire

import (
	"context"
	"time"
)

// AccountLinkPurpose says what a one-time account link does.
type AccountLinkPurpose string

// The purposes of account links.
const (
	// LinkSetup lets the first admin, created on first start, choose a
	// password.
	LinkSetup AccountLinkPurpose = "setup"
	// LinkReset lets a user choose a new password.
	LinkReset AccountLinkPurpose = "reset"
	// LinkConfirm proves an email address that signs up through an
	// organization's allowed email domain.
	LinkConfirm AccountLinkPurpose = "confirm"
)

// AccountLink is a one-time link sent or shown to someone: only the hash
// of its secret is stored, and using it deletes it.
type AccountLink struct {
	Hash    []byte
	Purpose AccountLinkPurpose
	// UserID is the user a setup or reset link is for; empty for a
	// confirmation, whose user does not exist yet.
	UserID string
	// Email is the address a confirmation link proves.
	Email     string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// AccountStore persists password hashes, one-time account links and the
// failed sign-ins that rate-limit password guessing.
type AccountStore interface {
	// SetPassword stores or replaces the encoded password hash of a user.
	// Returns ENOTFOUND for an unknown user.
	SetPassword(ctx context.Context, userID, encoded string, at time.Time) error
	// PasswordHash returns the encoded password hash of a user. Returns
	// ENOTFOUND when the user has no password.
	PasswordHash(ctx context.Context, userID string) (string, error)

	// CreateAccountLink stores a link, and deletes those expired by its
	// creation time.
	CreateAccountLink(ctx context.Context, l *AccountLink) error
	// AccountLink returns the link of that purpose and hash if it has not
	// expired by now, leaving it in place. Returns ENOTFOUND.
	AccountLink(ctx context.Context, purpose AccountLinkPurpose, hash []byte, now time.Time) (*AccountLink, error)
	// TakeAccountLink deletes and returns the link of that purpose and
	// hash if it has not expired by now: of two callers taking the same
	// link, one gets it. Returns ENOTFOUND.
	TakeAccountLink(ctx context.Context, purpose AccountLinkPurpose, hash []byte, now time.Time) (*AccountLink, error)
	// DeleteAccountLinks deletes a user's links of a purpose.
	DeleteAccountLinks(ctx context.Context, userID string, purpose AccountLinkPurpose) error

	// RecordSignInFailure records one failed sign-in at that time under
	// each key, and deletes every record older than before, of any key.
	RecordSignInFailure(ctx context.Context, keys []string, at, before time.Time) error
	// SignInFailures counts the failures recorded under key since then.
	SignInFailures(ctx context.Context, key string, since time.Time) (int, error)
	// ClearSignInFailures deletes the failures recorded under key.
	ClearSignInFailures(ctx context.Context, key string) error
}
