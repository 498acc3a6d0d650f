package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"quire/internal/quire"
)

// tokenCols are the columns scanToken reads, for a tokens table aliased t.
const tokenCols = "t.id, t.user_id, t.name, t.hash, t.created_at, t.last_used_at"

// scanToken reads the columns of tokenCols, and then extra.
func scanToken(sc scanner, t *quire.Token, extra ...any) error {
	var (
		created int64
		used    sql.NullInt64
	)
	if err := sc.Scan(append([]any{&t.ID, &t.UserID, &t.Name, &t.Hash, &created, &used}, extra...)...); err != nil {
		return err
	}
	t.CreatedAt = fromMillis(created)
	if used.Valid {
		t.LastUsedAt = fromMillis(used.Int64)
	}
	return nil
}

// CreateToken stores an API token.
func (s *Store) CreateToken(ctx context.Context, t *quire.Token) error {
	name := t.Name
	if name == "" {
		name = quire.DefaultTokenName
	}
	var used any
	if !t.LastUsedAt.IsZero() {
		used = millis(t.LastUsedAt)
	}
	_, err := s.exec(ctx, "INSERT INTO tokens (id, user_id, name, hash, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)",
		t.ID, t.UserID, name, t.Hash, millis(t.CreatedAt), used)
	if err != nil {
		return s.conflict("create token", err, "a token with this id already exists")
	}
	return nil
}

// Token returns an API token by id, or ENOTFOUND.
func (s *Store) Token(ctx context.Context, id string) (*quire.Token, error) {
	var t quire.Token
	err := scanToken(s.queryRow(ctx, "SELECT "+tokenCols+" FROM tokens t WHERE t.id = ?", id), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("token")
	}
	if err != nil {
		return nil, wrap("get token", err)
	}
	return &t, nil
}

// TokenUser returns an API token and its user, or ENOTFOUND.
func (s *Store) TokenUser(ctx context.Context, id string) (*quire.Token, *quire.User, error) {
	var (
		t           quire.Token
		u           quire.User
		userCreated int64
	)
	err := scanToken(s.queryRow(ctx, "SELECT "+tokenCols+", u.id, u.display_name, u.email, u.photo_url, u.created_at"+
		" FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?", id),
		&t, &u.ID, &u.DisplayName, &u.Email, &u.PhotoURL, &userCreated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, quire.NotFound("token")
	}
	if err != nil {
		return nil, nil, wrap("get token", err)
	}
	u.CreatedAt = fromMillis(userCreated)
	return &t, &u, nil
}

// Tokens lists a user's tokens, the newest first.
func (s *Store) Tokens(ctx context.Context, userID string) ([]*quire.Token, error) {
	out, err := fetchAll(ctx, s, "SELECT "+tokenCols+" FROM tokens t WHERE t.user_id = ?"+
		" ORDER BY t.created_at DESC, t.id DESC LIMIT "+strconv.Itoa(quire.MaxUserTokens),
		[]any{userID}, func(sc scanner) (*quire.Token, error) {
			var t quire.Token
			return &t, scanToken(sc, &t)
		})
	return out, wrap("list tokens", err)
}

// TouchToken moves a token's last-used time to now, unless another request
// did since.
func (s *Store) TouchToken(ctx context.Context, id string, now, since time.Time) (bool, error) {
	n, err := s.exec(ctx, "UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
		millis(now), id, millis(since))
	return n > 0, wrap("touch token", err)
}

// DeleteToken deletes a user's token.
func (s *Store) DeleteToken(ctx context.Context, userID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM tokens WHERE user_id = ? AND id = ?", userID, id)
	return n > 0, wrap("delete token", err)
}
