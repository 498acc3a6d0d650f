package service

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"quire/internal/quire"
)

// integrationTokenPrefix starts the tokens of integrations and their
// installations, telling them from users' tokens.
const integrationTokenPrefix = "qit_"

// integrationClaims is the signed body of an integration token.
type integrationClaims struct {
	// Integration is the integration's id, Installation the installation's
	// ("" for the integration's own token).
	Integration  string `json:"i"`
	Installation string `json:"n,omitempty"`
	// Expires is when the token stops working, in Unix seconds.
	Expires int64 `json:"e"`
}

// integrationTokenKey returns the key signing integration tokens: an HMAC
// under the server's download key, so that rotating that key revokes
// every token.
func (s *Service) integrationTokenKey(ctx context.Context) ([]byte, error) {
	key, err := s.downloadKey(ctx)
	if err != nil {
		return nil, err
	}
	return linkMAC(key, "quire integration token v1"), nil
}

// signIntegrationToken returns a token of an integration, or of one of
// its installations, working for ttl. Tokens are not stored: each is its
// claims and their signature, checked on use against the integration and
// installation as they are then.
func (s *Service) signIntegrationToken(ctx context.Context, integrationID, installationID string, ttl time.Duration) (string, error) {
	key, err := s.integrationTokenKey(ctx)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(integrationClaims{Integration: integrationID, Installation: installationID,
		Expires: s.now().Add(ttl).Unix()}) // strings and a number: cannot fail
	enc := base64.RawURLEncoding.EncodeToString(body)
	return integrationTokenPrefix + enc + "." + base64.RawURLEncoding.EncodeToString(linkMAC(key, enc)), nil
}

// authenticateIntegration resolves an integration token to the
// integration's user, holding the grant of the token: the installation's
// organization, scopes and covered spaces and sites.
func (s *Service) authenticateIntegration(ctx context.Context, token string) (*quire.User, error) {
	bad := quire.Errorf(quire.EUNAUTHORIZED, "invalid or expired integration token")
	enc, sig, ok := strings.Cut(strings.TrimPrefix(token, integrationTokenPrefix), ".")
	if !ok {
		return nil, bad
	}
	key, err := s.integrationTokenKey(ctx)
	if err != nil {
		return nil, err
	}
	mac, err := decodeSignature(sig)
	if err != nil || !hmac.Equal(mac, linkMAC(key, enc)) {
		return nil, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	var c integrationClaims
	if err != nil || json.Unmarshal(raw, &c) != nil || s.now().Unix() >= c.Expires {
		return nil, bad
	}
	in, err := s.store.IntegrationByID(ctx, c.Integration)
	if quire.IsNotFound(err) {
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	g := &quire.IntegrationGrant{IntegrationID: in.ID, IntegrationName: in.Name, Scopes: in.Manifest.Scopes}
	if c.Installation != "" {
		inst, err := s.store.Installation(ctx, in.ID, c.Installation)
		if quire.IsNotFound(err) {
			return nil, bad
		} else if err != nil {
			return nil, err
		}
		g.InstallationID, g.OrgID = inst.ID, inst.OrgID
		g.AllSpaces, g.AllSites = inst.SpaceSelection == quire.SelectionAll, inst.SiteSelection == quire.SelectionAll
		if g.Spaces, err = s.store.InstallationTargets(ctx, inst.ID, quire.OnSpace); err != nil {
			return nil, err
		}
		if g.Sites, err = s.store.InstallationTargets(ctx, inst.ID, quire.OnSite); err != nil {
			return nil, err
		}
	}
	u, err := s.store.User(ctx, in.UserID)
	if err != nil {
		return nil, err
	}
	u.Integration = g
	return u, nil
}
