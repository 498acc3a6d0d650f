package service

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// errVisitorToken is any refused visitor token.
func errVisitorToken() error { return errors.New("invalid visitor token") }

// verifyVisitorToken checks a compact JWT signed with HS256 under key and
// returns its claims; a token past its "exp" or before its "nbf" is
// refused.
func verifyVisitorToken(token string, key []byte, now time.Time) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errVisitorToken()
	}
	var header struct {
		Alg string `json:"alg"`
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || json.Unmarshal(raw, &header) != nil || header.Alg != "HS256" {
		return nil, errVisitorToken()
	}
	sig, err := decodeSignature(parts[2])
	if err != nil {
		return nil, errVisitorToken()
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, m.Sum(nil)) {
		return nil, errVisitorToken()
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, errVisitorToken()
	}
	var claims map[string]any
	if json.Unmarshal(body, &claims) != nil || claims == nil {
		return nil, errVisitorToken()
	}
	unix := float64(now.Unix())
	if exp, ok := claims["exp"].(float64); ok && unix >= exp {
		return nil, errVisitorToken()
	}
	if nbf, ok := claims["nbf"].(float64); ok && unix < nbf {
		return nil, errVisitorToken()
	}
	return claims, nil
}

// SignVisitorToken signs claims as a visitor token of a site (HS256 under
// the site's private key), as a site's own sign-in would.
func (s *Sites) SignVisitorToken(ctx context.Context, orgID, siteID string, claims map[string]any) (string, error) {
	auth, err := s.SitePublishingAuth(ctx, orgID, siteID)
	if err != nil {
		return "", err
	}
	return SignVisitorToken([]byte(auth.PrivateKey), claims)
}

// SignVisitorToken signs claims as a compact JWT, HS256 under key.
func SignVisitorToken(key []byte, claims map[string]any) (string, error) {
	body, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	unsigned := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(body)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(m.Sum(nil)), nil
}
