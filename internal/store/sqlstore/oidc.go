package sqlstore

import (
	"context"
	"time"

	"quire/internal/quire"
)

// PutOIDCRequest stores an OpenID Connect sign-in in flight and deletes
// the expired ones.
func (s *Store) PutOIDCRequest(ctx context.Context, r *quire.OIDCRequest, now time.Time) error {
	err := s.putOnce(ctx, "oidc_requests", now, func(tx *Store) error {
		_, err := tx.exec(ctx, `INSERT INTO oidc_requests (state_hash, nonce, verifier, redirect, expires_at)
			VALUES (?, ?, ?, ?, ?)`, r.StateHash, r.Nonce, r.Verifier, r.Redirect, millis(r.ExpiresAt))
		return err
	})
	return s.conflict("put OIDC request", err, "a sign-in with this state already exists")
}

// TakeOIDCRequest deletes and returns a sign-in in flight. Of two callers
// taking the same one, one gets it.
func (s *Store) TakeOIDCRequest(ctx context.Context, stateHash []byte, now time.Time) (*quire.OIDCRequest, error) {
	r := quire.OIDCRequest{StateHash: stateHash}
	err := s.takeOnce(ctx, "sign-in", now, func(tx *Store) (int64, error) {
		var expires int64
		err := tx.queryRow(ctx, `SELECT nonce, verifier, redirect, expires_at FROM oidc_requests
			WHERE state_hash = ?`, stateHash).Scan(&r.Nonce, &r.Verifier, &r.Redirect, &expires)
		r.ExpiresAt = fromMillis(expires)
		return expires, err
	}, "DELETE FROM oidc_requests WHERE state_hash = ?", stateHash)
	if quire.IsNotFound(err) {
		return nil, err
	}
	if err != nil {
		return nil, wrap("take OIDC request", err)
	}
	return &r, nil
}
