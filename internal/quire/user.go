package quire

import (
	"context"
	"time"
)

// User is a person who can sign in and hold API tokens.
type User struct {
	ID          string
	DisplayName string
	Email       string
	PhotoURL    string
	CreatedAt   time.Time
	// Integration, when set, says the caller is an integration acting
	// with one of its tokens, as the integration's own user: it reaches
	// what the grant allows and nothing through memberships.
	Integration *IntegrationGrant
}

// Token is an API token. Only the hash of its secret is stored.
type Token struct {
	ID     string
	UserID string
	// Name is the label its owner gave it.
	Name      string
	Hash      []byte
	CreatedAt time.Time
	// LastUsedAt is when it last authenticated a request, to within the
	// minute or so its writes are spaced by; zero when never.
	LastUsedAt time.Time
}

// DefaultTokenName names a token made without a name.
const DefaultTokenName = "API token"

// MaxUserTokens bounds the tokens Tokens lists.
const MaxUserTokens = 200

// UserStore persists users, their API tokens and their browser sessions.
type UserStore interface {
	SessionStore

	// CreateUser stores a new user. Returns ECONFLICT if the email is taken.
	CreateUser(ctx context.Context, u *User) error
	// User returns a user by id. Returns ENOTFOUND if it does not exist.
	User(ctx context.Context, id string) (*User, error)
	// UserByEmail returns a user by email, case-insensitively. Returns
	// ENOTFOUND if none matches.
	UserByEmail(ctx context.Context, email string) (*User, error)
	// SetDisplayName changes a user's display name. Returns ENOTFOUND.
	SetDisplayName(ctx context.Context, id, name string) error
	// CountUsers counts all users; zero means a fresh database.
	CountUsers(ctx context.Context) (int, error)
	// CreateToken stores a token.
	CreateToken(ctx context.Context, t *Token) error
	// Token returns a token by id. Returns ENOTFOUND if it does not exist.
	Token(ctx context.Context, id string) (*Token, error)
	// TokenUser returns a token by id and its user in one read. Returns
	// ENOTFOUND.
	TokenUser(ctx context.Context, id string) (*Token, *User, error)
	// Tokens lists a user's tokens, the newest first, at most
	// MaxUserTokens.
	Tokens(ctx context.Context, userID string) ([]*Token, error)
	// TouchToken sets the last-used time of a token to now unless it is
	// after since already; it reports whether it wrote.
	TouchToken(ctx context.Context, id string, now, since time.Time) (bool, error)
	// DeleteToken deletes a user's token; it reports whether it existed.
	DeleteToken(ctx context.Context, userID, id string) (bool, error)
}
