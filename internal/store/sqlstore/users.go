package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"quire/internal/quire"
)

// userCols are the columns scanUser reads, for a users table aliased u.
const userCols = "u.id, u.display_name, u.email, u.photo_url, u.created_at"

// scanUser reads the columns of userCols.
func scanUser(sc scanner, u *quire.User) error {
	var created int64
	if err := sc.Scan(&u.ID, &u.DisplayName, &u.Email, &u.PhotoURL, &created); err != nil {
		return err
	}
	u.CreatedAt = fromMillis(created)
	return nil
}

// CreateUser stores a new user. The email is unique case-insensitively: a
// taken one is ECONFLICT.
func (s *Store) CreateUser(ctx context.Context, u *quire.User) error {
	_, err := s.exec(ctx, `INSERT INTO users
		(id, display_name, name_lower, email, email_lower, photo_url, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.DisplayName, strings.ToLower(u.DisplayName), u.Email, strings.ToLower(u.Email),
		u.PhotoURL, millis(u.CreatedAt))
	if err != nil {
		return s.conflict("create user", err, "a user with this email already exists")
	}
	return nil
}

// User returns a user by id, or ENOTFOUND.
func (s *Store) User(ctx context.Context, id string) (*quire.User, error) {
	return s.userWhere(ctx, "u.id = ?", id)
}

// UserByEmail returns the user with the email, compared
// case-insensitively, or ENOTFOUND.
func (s *Store) UserByEmail(ctx context.Context, email string) (*quire.User, error) {
	return s.userWhere(ctx, "u.email_lower = ?", strings.ToLower(email))
}

// userWhere returns the one user matching cond.
func (s *Store) userWhere(ctx context.Context, cond string, arg any) (*quire.User, error) {
	var u quire.User
	err := scanUser(s.queryRow(ctx, "SELECT "+userCols+" FROM users u WHERE "+cond, arg), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("user")
	}
	if err != nil {
		return nil, wrap("get user", err)
	}
	return &u, nil
}

// CountUsers counts all users.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	n, err := s.count(ctx, "SELECT COUNT(*) FROM users")
	return n, wrap("count users", err)
}

// SetDisplayName changes a user's display name, and the lower-case copy
// it is sorted and searched by.
func (s *Store) SetDisplayName(ctx context.Context, id, name string) error {
	n, err := s.exec(ctx, "UPDATE users SET display_name = ?, name_lower = ? WHERE id = ?", name, strings.ToLower(name), id)
	if err != nil {
		return wrap("set display name", err)
	}
	if n == 0 {
		return quire.NotFound("user")
	}
	return nil
}
