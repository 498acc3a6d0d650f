package quire

import (
	"context"
	"time"
)

// The ways a browser session is opened: Session.Method.
const (
	SessionPassword = "password"
	SessionSAML     = "saml"
	SessionOIDC     = "oidc"
)

// Session is a browser session, opened by a sign-in. Only the hash of its
// secret is stored; its ID names it when it is listed or ended.
type Session struct {
	ID     string
	Hash   []byte
	UserID string
	// Method is how it was opened: SessionPassword, SessionSAML or
	// SessionOIDC.
	Method     string
	ProviderID string
	// OrgID is the organization whose provider opened the session.
	OrgID string
	// UserAgent and Address are the browser's User-Agent and the client
	// address it signed in from, clipped.
	UserAgent string
	Address   string
	CreatedAt time.Time
	// LastSeenAt is when the session was last used, to within the
	// minute or so its writes are spaced by.
	LastSeenAt time.Time
	// ExpiresAt is when it ends whether used or not.
	ExpiresAt time.Time
}

// SessionStore persists browser sessions. A session is live when it has
// not expired by now and was last seen after idleSince; the others are
// never returned.
type SessionStore interface {
	// CreateSession stores a session. A taken hash or id is ECONFLICT.
	CreateSession(ctx context.Context, s *Session) error
	// Session returns the live session with that hash and its user.
	// Returns ENOTFOUND.
	Session(ctx context.Context, hash []byte, now, idleSince time.Time) (*Session, *User, error)
	// TouchSession sets the last-seen time of a session to now unless it
	// is after since already; it reports whether it wrote.
	TouchSession(ctx context.Context, id string, now, since time.Time) (bool, error)
	// UserSessions lists a user's live sessions, the most recently seen
	// first, at most MaxUserSessions.
	UserSessions(ctx context.Context, userID string, now, idleSince time.Time) ([]*Session, error)
	// DeleteSession deletes the session with that hash; it reports
	// whether it existed.
	DeleteSession(ctx context.Context, hash []byte) (bool, error)
	// DeleteUserSession deletes a user's session by id; it reports
	// whether it existed.
	DeleteUserSession(ctx context.Context, userID, id string) (bool, error)
	// DeleteUserSessions deletes every session of a user except the one
	// with id except (none when empty) and returns how many it deleted.
	DeleteUserSessions(ctx context.Context, userID, except string) (int, error)
	// SweepSessions deletes the sessions that are no longer live and
	// returns how many.
	SweepSessions(ctx context.Context, now, idleSince time.Time) (int, error)
}

// MaxUserSessions bounds the sessions UserSessions lists.
const MaxUserSessions = 200
