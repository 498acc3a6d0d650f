package quire

import (
	"context"
	"time"
)

// OIDCRequest is an OpenID Connect sign-in this server started and the
// issuer has not answered yet, found again by the hash of its state. The
// browser that started it holds the state itself, in a cookie.
type OIDCRequest struct {
	StateHash []byte
	// Nonce is the value the ID token must carry back.
	Nonce string
	// Verifier is the PKCE code verifier the code is exchanged with.
	Verifier string
	// Redirect is the path the browser goes to once signed in.
	Redirect  string
	ExpiresAt time.Time
}

// OIDCStore persists OpenID Connect sign-ins in flight.
type OIDCStore interface {
	// PutOIDCRequest stores a sign-in in flight, and deletes those
	// expired by now.
	PutOIDCRequest(ctx context.Context, r *OIDCRequest, now time.Time) error
	// TakeOIDCRequest deletes and returns the sign-in with that state
	// hash, if it has not expired by now: of two callers, one gets it.
	// Returns ENOTFOUND.
	TakeOIDCRequest(ctx context.Context, stateHash []byte, now time.Time) (*OIDCRequest, error)
}
