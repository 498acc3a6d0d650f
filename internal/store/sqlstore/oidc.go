package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// PutOIDCRequest stores an OpenID Connect sign-in in flight and deletes
// the expired ones.
func (s *Store) PutOIDCRequest(ctx context.Context, r *quire.OIDCRequest, now time.Time) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "DELETE FROM oidc_requests WHERE expires_at <= ?", millis(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO oidc_requests (state_hash, nonce, verifier, redirect, expires_at)
			VALUES (?, ?, ?, ?, ?)`, r.StateHash, r.Nonce, r.Verifier, r.Redirect, millis(r.ExpiresAt))
		return err
	})
	return s.conflict("put OIDC request", err, "a sign-in with this state already exists")
}

// TakeOIDCRequest deletes and returns a sign-in in flight. Of two callers
// taking the same one, one gets it.
func (s *Store) TakeOIDCRequest(ctx context.Context, stateHash []byte, now time.Time) (*quire.OIDCRequest, error) {
	var out *quire.OIDCRequest
	err := s.inTx(ctx, func(tx *Store) error {
		r := quire.OIDCRequest{StateHash: stateHash}
		var expires int64
		err := tx.queryRow(ctx, `SELECT nonce, verifier, redirect, expires_at FROM oidc_requests
			WHERE state_hash = ?`, stateHash).Scan(&r.Nonce, &r.Verifier, &r.Redirect, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return quire.NotFound("sign-in")
		}
		if err != nil {
			return err
		}
		n, err := tx.exec(ctx, "DELETE FROM oidc_requests WHERE state_hash = ?", stateHash)
		if err != nil {
			return err
		}
		r.ExpiresAt = fromMillis(expires)
		if n == 0 || !r.ExpiresAt.After(now) {
			return quire.NotFound("sign-in")
		}
		out = &r
		return nil
	})
	if err != nil && quire.IsNotFound(err) {
		return nil, err
	}
	return out, wrap("take OIDC request", err)
}
