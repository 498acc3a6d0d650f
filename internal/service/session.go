package service

import (
	"context"
	"strings"
	"time"

	"quire/internal/quire"
)

// DefaultSessionLifetime is how long a browser session lasts after its
// sign-in, used or not.
const DefaultSessionLifetime = 30 * 24 * time.Hour

// DefaultSessionIdle is how long a browser session lasts without use.
const DefaultSessionIdle = 7 * 24 * time.Hour

// sessionTouchEvery spaces the writes of a session's last-seen time (and
// a token's last-used time): a request writes only when the one recorded
// is older, so that reads do not write on every request.
const sessionTouchEvery = time.Minute

// The lengths a session's user agent and address are clipped to.
const (
	maxUserAgent = 256
	maxAddress   = 64
)

// WithSessionLifetimes sets how long browser sessions last: absolute
// after their sign-in, idle without use. Zero keeps a default.
func WithSessionLifetimes(absolute, idle time.Duration) Option {
	return func(s *Service) { s.sessionLifetime, s.sessionIdle = absolute, idle }
}

// sessionTimes returns the absolute and idle lifetimes of sessions.
func (s *Service) sessionTimes() (absolute, idle time.Duration) {
	absolute, idle = s.sessionLifetime, s.sessionIdle
	if absolute <= 0 {
		absolute = DefaultSessionLifetime
	}
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	return absolute, idle
}

// idleSince is the last-seen time at or before which a session has been
// idle too long, at now.
func (s *Service) idleSince(now time.Time) time.Time {
	_, idle := s.sessionTimes()
	return now.Add(-idle)
}

// sessionKey marks a context whose caller authenticated with a session.
type sessionKey struct{}

// WithSession marks ctx as the context of a caller who authenticated with
// a browser session rather than an API token: the organizations that
// require single sign-on then let in only their SSO members, signed in
// through one of their own providers.
func WithSession(ctx context.Context, s *quire.Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// sessionOf returns the caller's session, nil for a token.
func sessionOf(ctx context.Context) *quire.Session {
	s, _ := ctx.Value(sessionKey{}).(*quire.Session)
	return s
}

// signInRefused is the error of a SAML or OpenID Connect sign-in that
// cannot go on: what the browser is told, and for the log why.
func signInRefused(code, message string, why error) error {
	return &quire.Error{Code: code, Message: message, Err: why}
}

// SessionOrigin says how and from where a session is opened.
type SessionOrigin struct {
	// Method is quire.SessionPassword, quire.SessionSAML or
	// quire.SessionOIDC.
	Method string
	// ProviderID and OrgID name the identity provider that vouched for
	// the user and its organization, for SAML and OIDC sign-ins.
	ProviderID string
	OrgID      string
	// UserAgent is the browser's User-Agent header and Address the
	// client's address; both are kept clipped, to show the user.
	UserAgent string
	Address   string
}

// OpenSession stores a new session for a user, as every sign-in does, and
// returns its secret, to hand to the browser once, and when it expires.
func (s *Service) OpenSession(ctx context.Context, userID string, o SessionOrigin) (string, time.Time, error) {
	return s.openSession(ctx, s.store, userID, o)
}

// openSession stores a new session on st (which may be a transaction),
// after deleting the sessions no longer live.
func (s *Service) openSession(ctx context.Context, st quire.Store, userID string, o SessionOrigin) (string, time.Time, error) {
	switch o.Method {
	case quire.SessionPassword, quire.SessionSAML, quire.SessionOIDC:
	default:
		return "", time.Time{}, quire.Invalid("method", "must be password, saml or oidc")
	}
	secret := randomToken(32)
	now := s.Now()
	absolute, _ := s.sessionTimes()
	if _, err := st.SweepSessions(ctx, now, s.idleSince(now)); err != nil {
		return "", time.Time{}, err
	}
	ss := &quire.Session{ID: quire.NewID(), Hash: secretHash(secret), UserID: userID, Method: o.Method,
		ProviderID: o.ProviderID, OrgID: o.OrgID,
		UserAgent: clip(strings.TrimSpace(o.UserAgent), maxUserAgent), Address: clip(strings.TrimSpace(o.Address), maxAddress),
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(absolute)}
	if err := st.CreateSession(ctx, ss); err != nil {
		return "", time.Time{}, err
	}
	return secret, ss.ExpiresAt, nil
}

// AuthenticateSession resolves a session secret to its user and the
// session. Every request reads the database, so that a session ended on
// one replica is refused by all at once; a session past its absolute
// expiry or unused for the idle lifetime is refused. The last-seen time is
// written at most once a minute. Any failure is EUNAUTHORIZED.
func (s *Service) AuthenticateSession(ctx context.Context, secret string) (*quire.User, *quire.Session, error) {
	bad := quire.Errorf(quire.EUNAUTHORIZED, "invalid or expired session: sign in again")
	if secret == "" || len(secret) > 128 {
		return nil, nil, bad
	}
	now := s.Now()
	ss, u, err := s.store.Session(ctx, secretHash(secret), now, s.idleSince(now))
	if quire.IsNotFound(err) {
		return nil, nil, bad
	}
	if err != nil {
		return nil, nil, err
	}
	if since := now.Add(-sessionTouchEvery); !ss.LastSeenAt.After(since) {
		// A failed write leaves the session as good as it was.
		if _, err := s.store.TouchSession(ctx, ss.ID, now, since); err != nil {
			s.log.WarnContext(ctx, "recording a session's use", "err", err)
		} else {
			ss.LastSeenAt = now
		}
	}
	return u, ss, nil
}

// EndSession deletes a session; it reports whether one was open.
func (s *Service) EndSession(ctx context.Context, secret string) (bool, error) {
	if secret == "" || len(secret) > 128 {
		return false, nil
	}
	return s.store.DeleteSession(ctx, secretHash(secret))
}

// ListedSession is one of a user's sessions as listed to them.
type ListedSession struct {
	*quire.Session
	// Current marks the session the listing was asked with.
	Current bool
}

// ListSessions lists the live sessions of u, the most recently used
// first, marking the one with id current.
func (s *Service) ListSessions(ctx context.Context, u *quire.User, current string) ([]ListedSession, error) {
	now := s.Now()
	list, err := s.store.UserSessions(ctx, u.ID, now, s.idleSince(now))
	if err != nil {
		return nil, err
	}
	out := make([]ListedSession, 0, len(list))
	for _, ss := range list {
		ss.Hash = nil
		out = append(out, ListedSession{Session: ss, Current: current != "" && ss.ID == current})
	}
	return out, nil
}

// RevokeSession ends one of u's sessions by id, on every replica at once.
// A session that is not u's is ENOTFOUND.
func (s *Service) RevokeSession(ctx context.Context, u *quire.User, id string) error {
	ok, err := s.store.DeleteUserSession(ctx, u.ID, id)
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("session")
	}
	s.log.InfoContext(ctx, "session revoked", "user", u.ID, "session", id)
	return nil
}

// EndUserSessions ends every session of a user but the one with id except
// (all when empty): signing out everywhere, or after a password change. It
// returns how many it ended.
func (s *Service) EndUserSessions(ctx context.Context, userID, except string) (int, error) {
	n, err := s.store.DeleteUserSessions(ctx, userID, except)
	if err != nil {
		return 0, err
	}
	s.log.InfoContext(ctx, "sessions ended", "user", userID, "ended", n, "kept", except)
	return n, nil
}

// checkSSO refuses a session caller a member of an organization that
// requires single sign-on unless they are one of its SSO members and the
// session was opened by one of its own providers: another organization's
// identity provider does not vouch for its members.
func (s *Service) checkSSO(ctx context.Context, u *quire.User, f quire.Facts) error {
	ss := sessionOf(ctx)
	if ss == nil || u == nil || f.OrgID == "" || !f.Member || f.Disabled {
		return nil
	}
	required, member, err := s.store.SSOState(ctx, f.OrgID, u.ID)
	if err != nil {
		if quire.IsNotFound(err) {
			return nil
		}
		return err
	}
	if required && (!member || ss.OrgID != f.OrgID) {
		return quire.Errorf(quire.EFORBIDDEN, "this organization requires single sign-on: sign in through its identity provider")
	}
	return nil
}
