package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"quire/internal/quire"
)

// sessionCols are the columns scanSession reads, for a sessions table
// aliased x.
const sessionCols = `x.id, x.hash, x.user_id, x.method, x.provider_id, x.org_id, x.user_agent, x.address,
	x.created_at, x.last_seen_at, x.expires_at`

// scanSession reads the columns of sessionCols, and then extra.
func scanSession(sc scanner, ss *quire.Session, extra ...any) error {
	var (
		provider, org          sql.NullString
		created, seen, expires int64
	)
	dest := append([]any{&ss.ID, &ss.Hash, &ss.UserID, &ss.Method, &provider, &org, &ss.UserAgent, &ss.Address,
		&created, &seen, &expires}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	ss.ProviderID, ss.OrgID = provider.String, org.String
	ss.CreatedAt, ss.LastSeenAt, ss.ExpiresAt = fromMillis(created), fromMillis(seen), fromMillis(expires)
	return nil
}

// liveSession is the condition a session aliased x meets while it is
// live, given now and the idle cutoff.
const liveSession = "x.expires_at > ? AND x.last_seen_at > ?"

// CreateSession stores a session.
func (s *Store) CreateSession(ctx context.Context, ss *quire.Session) error {
	_, err := s.exec(ctx, `INSERT INTO sessions (id, hash, user_id, method, provider_id, org_id, user_agent, address,
			created_at, last_seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ss.ID, ss.Hash, ss.UserID, ss.Method, nullString(ss.ProviderID), nullString(ss.OrgID), ss.UserAgent, ss.Address,
		millis(ss.CreatedAt), millis(ss.LastSeenAt), millis(ss.ExpiresAt))
	return s.conflict("create session", err, "a session with this secret or id already exists")
}

// Session returns a live session and its user.
func (s *Store) Session(ctx context.Context, hash []byte, now, idleSince time.Time) (*quire.Session, *quire.User, error) {
	var (
		ss quire.Session
		u  quire.User
	)
	var userCreated int64
	err := scanSession(s.queryRow(ctx, "SELECT "+sessionCols+`, u.id, u.display_name, u.email, u.photo_url, u.created_at
		FROM sessions x JOIN users u ON u.id = x.user_id WHERE x.hash = ? AND `+liveSession,
		hash, millis(now), millis(idleSince)), &ss, &u.ID, &u.DisplayName, &u.Email, &u.PhotoURL, &userCreated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, quire.NotFound("session")
	}
	if err != nil {
		return nil, nil, wrap("get session", err)
	}
	u.CreatedAt = fromMillis(userCreated)
	return &ss, &u, nil
}

// TouchSession moves a session's last-seen time to now, unless another
// request did since.
func (s *Store) TouchSession(ctx context.Context, id string, now, since time.Time) (bool, error) {
	n, err := s.exec(ctx, "UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at <= ?",
		millis(now), id, millis(since))
	return n > 0, wrap("touch session", err)
}

// UserSessions lists a user's live sessions, the most recently seen first.
func (s *Store) UserSessions(ctx context.Context, userID string, now, idleSince time.Time) ([]*quire.Session, error) {
	out, err := fetchAll(ctx, s, "SELECT "+sessionCols+" FROM sessions x WHERE x.user_id = ? AND "+liveSession+
		" ORDER BY x.last_seen_at DESC, x.id LIMIT "+strconv.Itoa(quire.MaxUserSessions),
		[]any{userID, millis(now), millis(idleSince)}, func(sc scanner) (*quire.Session, error) {
			var ss quire.Session
			return &ss, scanSession(sc, &ss)
		})
	return out, wrap("list sessions", err)
}

// DeleteSession deletes a session by the hash of its secret.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM sessions WHERE hash = ?", hash)
	return n > 0, wrap("delete session", err)
}

// DeleteUserSession deletes a user's session by id.
func (s *Store) DeleteUserSession(ctx context.Context, userID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM sessions WHERE user_id = ? AND id = ?", userID, id)
	return n > 0, wrap("delete session", err)
}

// DeleteUserSessions deletes a user's sessions but one.
func (s *Store) DeleteUserSessions(ctx context.Context, userID, except string) (int, error) {
	n, err := s.exec(ctx, "DELETE FROM sessions WHERE user_id = ? AND id <> ?", userID, except)
	return int(n), wrap("delete sessions", err)
}

// SweepSessions deletes the sessions expired by now or idle since before
// idleSince.
func (s *Store) SweepSessions(ctx context.Context, now, idleSince time.Time) (int, error) {
	n, err := s.exec(ctx, "DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?", millis(now), millis(idleSince))
	return int(n), wrap("sweep sessions", err)
}
