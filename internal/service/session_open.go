package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"

	"quire/internal/quire"
)

// SessionOrigin says how a session was opened and from where.
type SessionOrigin struct {
	Method     string
	ProviderID string
	OrgID      string
	UserAgent  string
	Address    string
}

// OpenSession stores a new session for a user and returns its secret, to
// hand to the browser once, and when it expires.
func (s *Service) OpenSession(ctx context.Context, userID string, o SessionOrigin) (string, time.Time, error) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	secret := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.Now()
	ss := &quire.Session{Hash: sessionHash(secret), UserID: userID, ProviderID: o.ProviderID, OrgID: o.OrgID,
		CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := s.store.CreateSession(ctx, ss); err != nil {
		return "", time.Time{}, err
	}
	return secret, ss.ExpiresAt, nil
}
