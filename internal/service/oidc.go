package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"quire/internal/quire"
)

// OIDCConfig is the one OpenID Connect issuer the operator configured.
type OIDCConfig struct {
	// Issuer is the issuer's URL, whose discovery document is at
	// Issuer + "/.well-known/openid-configuration".
	Issuer string
	// ClientID and ClientSecret are this server's client at the issuer.
	ClientID     string
	ClientSecret string
	// Name labels the sign-in button ("Sign in with <Name>").
	Name string
	// RedirectURL is the callback the issuer sends the browser back to;
	// it must be registered with the issuer.
	RedirectURL string
	// HTTPClient fetches the discovery document and keys and exchanges
	// codes; nil is http.DefaultClient.
	HTTPClient *http.Client
	// Scopes asked for besides openid; nil asks for email and profile.
	Scopes []string
}

// OIDC signs people in through one OpenID Connect issuer configured by
// the operator (Keycloak, Authentik, Google, GitLab, Entra ID...): the
// authorization code flow with PKCE, with the state and nonce bound to
// the browser that started it, and the ID token checked by go-oidc.
type OIDC struct {
	s   *Service
	cfg OIDCConfig
	log *slog.Logger
	// requestTTL bounds how long a started sign-in may take.
	requestTTL time.Duration

	mu       sync.Mutex
	provider *oidc.Provider
}

// NewOIDC returns the OpenID Connect sign-in service over s. Discovery
// happens on the first sign-in, so that a server starts while its issuer
// is down.
func NewOIDC(s *Service, cfg OIDCConfig) (*OIDC, error) {
	u, err := url.Parse(cfg.Issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("OIDC issuer %q: want an absolute https URL", cfg.Issuer)
	}
	if strings.TrimSpace(cfg.ClientID) == "" {
		return nil, errors.New("OIDC client id is missing")
	}
	if _, err := url.Parse(cfg.RedirectURL); err != nil || cfg.RedirectURL == "" {
		return nil, fmt.Errorf("OIDC redirect URL %q is not valid", cfg.RedirectURL)
	}
	if strings.TrimSpace(cfg.Name) == "" {
		cfg.Name = u.Hostname()
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.Scopes == nil {
		cfg.Scopes = []string{"email", "profile"}
	}
	return &OIDC{s: s, cfg: cfg, log: s.log, requestTTL: 10 * time.Minute}, nil
}

// Name is the issuer's name for the sign-in button.
func (o *OIDC) Name() string { return o.cfg.Name }

// client puts the configured HTTP client in ctx for go-oidc and oauth2.
func (o *OIDC) client(ctx context.Context) context.Context {
	ctx = oidc.ClientContext(ctx, o.cfg.HTTPClient)
	return context.WithValue(ctx, oauth2.HTTPClient, o.cfg.HTTPClient)
}

// discover returns the issuer's provider, fetching its discovery
// document the first time. A failure is not remembered.
func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, nil
	}
	// The provider keeps the client (not the context) for its keys.
	p, err := oidc.NewProvider(o.client(context.WithoutCancel(ctx)), o.cfg.Issuer)
	if err != nil {
		return nil, signInRefused(quire.EUNAVAILABLE, "the identity provider cannot be reached: try again later",
			fmt.Errorf("discovery of %s: %w", o.cfg.Issuer, err))
	}
	o.provider = p
	return p, nil
}

// oauth2Config is the OAuth 2 client of the issuer.
func (o *OIDC) oauth2Config(p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     o.cfg.ClientID,
		ClientSecret: o.cfg.ClientSecret,
		Endpoint:     p.Endpoint(),
		RedirectURL:  o.cfg.RedirectURL,
		Scopes:       append([]string{oidc.ScopeOpenID}, o.cfg.Scopes...),
	}
}
