package quire

import (
	"context"
	"time"
)

// SAMLProvider is an identity provider an organization signs its members
// in through with SAML 2.0. It is active once EntityID, Certificate and
// SSOURL are all set; until then it is pending and no one can sign in
// with it.
type SAMLProvider struct {
	ID    string
	OrgID string
	Label string
	// EntityID is the identity provider's entity id, the issuer of its
	// assertions.
	EntityID string
	// Certificate is the PEM X.509 certificate the identity provider signs
	// with.
	Certificate string
	// SSOURL is where sign-ins are sent (HTTP-Redirect binding).
	SSOURL string
	// DefaultRole is the role of members the provider signs in for the
	// first time; "" makes them guests.
	DefaultRole Role
	// DefaultTeam, when set, is the team those members join.
	DefaultTeam string
	// IDPInitiated accepts sign-ins the identity provider starts, without
	// a request from this server.
	IDPInitiated bool
	CreatedAt    time.Time
}

// Active reports whether the provider is configured enough to sign in
// with.
func (p *SAMLProvider) Active() bool {
	return p.EntityID != "" && p.Certificate != "" && p.SSOURL != ""
}

// SAMLProviderUpdate changes the fields that are not nil.
type SAMLProviderUpdate struct {
	Label        *string
	EntityID     *string
	Certificate  *string
	SSOURL       *string
	DefaultRole  *Role
	DefaultTeam  *string // "" clears it
	IDPInitiated *bool
}

// SAMLRequest is a sign-in this server started and the identity provider
// has not answered yet, found again by the hash of its relay state.
type SAMLRequest struct {
	RelayHash  []byte
	ProviderID string
	// RequestID is the id of the authentication request, which the
	// answer must refer to.
	RequestID string
	// Redirect is the path the browser goes to once signed in.
	Redirect  string
	ExpiresAt time.Time
}

// SAMLStore persists SAML providers, sign-ins in flight and used
// assertions.
type SAMLStore interface {
	// CreateSAMLProvider stores a provider. An unknown default team is
	// EINVALID.
	CreateSAMLProvider(ctx context.Context, p *SAMLProvider) error
	// SAMLProvider returns a provider of an organization; an empty orgID
	// matches any organization. Returns ENOTFOUND.
	SAMLProvider(ctx context.Context, orgID, id string) (*SAMLProvider, error)
	// SAMLProviders lists an organization's providers, oldest first.
	SAMLProviders(ctx context.Context, orgID string, p Page) (*List[*SAMLProvider], error)
	// UpdateSAMLProvider changes a provider. Returns ENOTFOUND.
	UpdateSAMLProvider(ctx context.Context, orgID, id string, upd SAMLProviderUpdate) (*SAMLProvider, error)
	// DeleteSAMLProvider deletes a provider and its sign-ins in flight;
	// it reports whether one existed.
	DeleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error)

	// PutSAMLRequest stores a sign-in in flight, and deletes those
	// expired by now.
	PutSAMLRequest(ctx context.Context, r *SAMLRequest, now time.Time) error
	// TakeSAMLRequest deletes and returns the sign-in of a provider with
	// that relay state hash, if it has not expired by now. Returns
	// ENOTFOUND.
	TakeSAMLRequest(ctx context.Context, providerID string, relayHash []byte, now time.Time) (*SAMLRequest, error)
	// UseSAMLAssertion records an assertion as used until expires, and
	// deletes the records expired by now. An assertion recorded before is
	// ECONFLICT.
	UseSAMLAssertion(ctx context.Context, providerID, assertionID string, expires, now time.Time) error

	// JoinTeam adds a member of the organization to a team with the
	// member role, leaving one already in it as they are. Returns
	// ENOTFOUND for an unknown team.
	JoinTeam(ctx context.Context, orgID, teamID, userID string) error
	// SSOState reports whether the organization requires single sign-on
	// and whether the user is an SSO member of it. Returns ENOTFOUND when
	// the user is not a member.
	SSOState(ctx context.Context, orgID, userID string) (required, member bool, err error)
}
