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
	ID        string
	UserID    string
	Hash      []byte
	CreatedAt time.Time
}

// UserStore persists users and their API tokens.
type UserStore interface {
	// CreateUser stores a new user. Returns ECONFLICT if the email is taken.
	CreateUser(ctx context.Context, u *User) error
	// User returns a user by id. Returns ENOTFOUND if it does not exist.
	User(ctx context.Context, id string) (*User, error)
	// UserByEmail returns a user by email, case-insensitively. Returns
	// ENOTFOUND if none matches.
	UserByEmail(ctx context.Context, email string) (*User, error)
	// CountUsers counts all users; zero means a fresh database.
	CountUsers(ctx context.Context) (int, error)
	// CreateToken stores a token.
	CreateToken(ctx context.Context, t *Token) error
	// Token returns a token by id. Returns ENOTFOUND if it does not exist.
	Token(ctx context.Context, id string) (*Token, error)
}
