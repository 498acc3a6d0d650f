package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// SetPassword stores or replaces a user's encoded password hash.
func (s *Store) SetPassword(ctx context.Context, userID, encoded string, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
		userID, encoded, millis(at))
	if s.dialect.Classify(err) == FailForeignKey {
		return quire.NotFound("user")
	}
	return wrap("set password", err)
}

// PasswordHash returns a user's encoded password hash.
func (s *Store) PasswordHash(ctx context.Context, userID string) (string, error) {
	var h string
	err := s.queryRow(ctx, "SELECT hash FROM passwords WHERE user_id = ?", userID).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", quire.NotFound("password")
	}
	return h, wrap("get password", err)
}

// CreateAccountLink stores a link and deletes the expired ones.
func (s *Store) CreateAccountLink(ctx context.Context, l *quire.AccountLink) error {
	err := s.putOnce(ctx, "account_links", l.CreatedAt, func(tx *Store) error {
		_, err := tx.exec(ctx, `INSERT INTO account_links (hash, purpose, user_id, email, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?)`, l.Hash, string(l.Purpose), nullString(l.UserID), l.Email,
			millis(l.CreatedAt), millis(l.ExpiresAt))
		if tx.dialect.Classify(err) == FailForeignKey {
			return quire.NotFound("user")
		}
		return tx.conflict("create account link", err, "this link exists already")
	})
	return wrap("create account link", err)
}

// scanAccountLink reads the link of a purpose and hash, expired or not,
// into l and returns its expiry in milliseconds.
func (s *Store) scanAccountLink(ctx context.Context, l *quire.AccountLink) (int64, error) {
	var (
		user             sql.NullString
		created, expires int64
	)
	err := s.queryRow(ctx, `SELECT user_id, email, created_at, expires_at FROM account_links
		WHERE hash = ? AND purpose = ?`, l.Hash, string(l.Purpose)).Scan(&user, &l.Email, &created, &expires)
	l.UserID, l.CreatedAt, l.ExpiresAt = user.String, fromMillis(created), fromMillis(expires)
	return expires, err
}

// AccountLink returns a link that has not expired, leaving it in place.
func (s *Store) AccountLink(ctx context.Context, purpose quire.AccountLinkPurpose, hash []byte, now time.Time) (*quire.AccountLink, error) {
	l := &quire.AccountLink{Hash: hash, Purpose: purpose}
	_, err := s.scanAccountLink(ctx, l)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !l.ExpiresAt.After(now) {
		return nil, quire.NotFound("link")
	}
	if err != nil {
		return nil, wrap("get account link", err)
	}
	return l, nil
}

// TakeAccountLink deletes and returns a link that has not expired. The
// delete decides between two callers: only the one whose delete removed
// the row gets the link.
func (s *Store) TakeAccountLink(ctx context.Context, purpose quire.AccountLinkPurpose, hash []byte, now time.Time) (*quire.AccountLink, error) {
	l := &quire.AccountLink{Hash: hash, Purpose: purpose}
	err := s.takeOnce(ctx, "link", now, func(tx *Store) (int64, error) { return tx.scanAccountLink(ctx, l) },
		"DELETE FROM account_links WHERE hash = ? AND purpose = ?", hash, string(purpose))
	if quire.IsNotFound(err) {
		return nil, err
	}
	if err != nil {
		return nil, wrap("take account link", err)
	}
	return l, nil
}

// DeleteAccountLinks deletes a user's links of a purpose.
func (s *Store) DeleteAccountLinks(ctx context.Context, userID string, purpose quire.AccountLinkPurpose) error {
	_, err := s.exec(ctx, "DELETE FROM account_links WHERE user_id = ? AND purpose = ?", userID, string(purpose))
	return wrap("delete account links", err)
}

// RecordSignInFailure records a failure under each key and forgets every
// failure older than before, of any key: the keys that never fail again
// are pruned too.
func (s *Store) RecordSignInFailure(ctx context.Context, keys []string, at, before time.Time) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "DELETE FROM sign_in_failures WHERE at < ?", millis(before)); err != nil {
			return err
		}
		for _, k := range keys {
			if _, err := tx.exec(ctx, "INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)", k, millis(at)); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("record sign-in failure", err)
}

// SignInFailures counts the failures under key since then.
func (s *Store) SignInFailures(ctx context.Context, key string, since time.Time) (int, error) {
	n, err := s.count(ctx, "SELECT COUNT(*) FROM sign_in_failures WHERE subject = ? AND at >= ?", key, millis(since))
	return n, wrap("count sign-in failures", err)
}

// ClearSignInFailures forgets the failures under key.
func (s *Store) ClearSignInFailures(ctx context.Context, key string) error {
	_, err := s.exec(ctx, "DELETE FROM sign_in_failures WHERE subject = ?", key)
	return wrap("clear sign-in failures", err)
}
