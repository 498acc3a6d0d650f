package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"quire/internal/quire"
)

// SessionLifetime is how long a browser session lasts after its sign-in.
const SessionLifetime = 12 * time.Hour

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

// sessionHash is what is stored of a session secret.
func sessionHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// SessionOrigin says how a session was opened and from where.
type SessionOrigin struct {
	// Method is how the person signed in: "password", "saml" or "oidc".
	Method string
	// ProviderID and OrgID name the SAML provider that vouched for the
	// person, and its organization; empty for other methods.
	ProviderID string
	OrgID      string
	// UserAgent and Address describe the browser, for the sessions list.
	UserAgent string
	Address   string
}

// OpenSession stores a new session for a user and returns its secret, to
// hand to the browser once, and when it expires. Every sign-in opens its
// session through it.
func (s *Service) OpenSession(ctx context.Context, userID string, o SessionOrigin) (string, time.Time, error) {
	return s.openSession(ctx, s.store, userID, o)
}

// openSession stores a new session for a user through st.
func (s *Service) openSession(ctx context.Context, st quire.Store, userID string, o SessionOrigin) (string, time.Time, error) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	secret := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.Now()
	ss := &quire.Session{Hash: sessionHash(secret), UserID: userID, ProviderID: o.ProviderID, OrgID: o.OrgID,
		CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := st.CreateSession(ctx, ss); err != nil {
		return "", time.Time{}, err
	}
	return secret, ss.ExpiresAt, nil
}

// AuthenticateSession resolves a session secret to its user and the
// session. Every request reads the database, so that a session ended on
// one replica is refused by all at once. Any failure is EUNAUTHORIZED.
func (s *Service) AuthenticateSession(ctx context.Context, secret string) (*quire.User, *quire.Session, error) {
	bad := quire.Errorf(quire.EUNAUTHORIZED, "invalid or expired session: sign in again")
	if secret == "" || len(secret) > 128 {
		return nil, nil, bad
	}
	ss, u, err := s.store.Session(ctx, sessionHash(secret), s.Now())
	if quire.IsNotFound(err) {
		return nil, nil, bad
	}
	return u, ss, err
}

// EndSession deletes a session; it reports whether one was open.
func (s *Service) EndSession(ctx context.Context, secret string) (bool, error) {
	if secret == "" || len(secret) > 128 {
		return false, nil
	}
	return s.store.DeleteSession(ctx, sessionHash(secret), s.Now())
}

// IssueToken issues a new API token for a user, shown once.
func (s *Service) IssueToken(ctx context.Context, u *quire.User) (string, error) {
	token, t := quire.NewToken(u.ID, s.Now())
	if err := s.store.CreateToken(ctx, t); err != nil {
		return "", err
	}
	return token, nil
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
