package cli

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"quire/internal/app"
	"quire/internal/fetch"
	"quire/internal/service"
)

// OIDCConfig configures sign-in through one OpenID Connect issuer.
type OIDCConfig struct {
	// Issuer is the issuer's URL; empty offers no OpenID Connect sign-in.
	Issuer   string
	ClientID string
	// ClientSecret is read from the environment only, so that it is never
	// seen in a process list; ClientSecretFile names a file holding it
	// instead (a mounted secret).
	ClientSecret     string
	ClientSecretFile string
	// Name labels the sign-in button.
	Name string
}

// registerOIDCFlags binds the flags of OpenID Connect sign-in.
func (c *Config) registerOIDCFlags(fs *flag.FlagSet, getenv func(string) string) {
	o := &c.OIDC
	fs.StringVar(&o.Issuer, "oidc-issuer", envDefault(getenv, "QUIRE_OIDC_ISSUER", ""),
		"OpenID Connect issuer people sign in through (Keycloak realm, Authentik application, https://accounts.google.com, https://gitlab.com, Entra https://login.microsoftonline.com/TENANT/v2.0); register BASE_URL"+app.OIDCCallbackPath+" as its redirect URI; empty offers none (env QUIRE_OIDC_ISSUER)")
	fs.StringVar(&o.ClientID, "oidc-client-id", envDefault(getenv, "QUIRE_OIDC_CLIENT_ID", ""),
		"client id of this server at the OpenID Connect issuer (env QUIRE_OIDC_CLIENT_ID)")
	o.ClientSecret = getenv("QUIRE_OIDC_CLIENT_SECRET")
	fs.StringVar(&o.ClientSecretFile, "oidc-client-secret-file", envDefault(getenv, "QUIRE_OIDC_CLIENT_SECRET_FILE", ""),
		"file holding the client secret at the OpenID Connect issuer; or give the secret in QUIRE_OIDC_CLIENT_SECRET, never on the command line (env QUIRE_OIDC_CLIENT_SECRET_FILE)")
	fs.StringVar(&o.Name, "oidc-name", envDefault(getenv, "QUIRE_OIDC_NAME", ""),
		"name on the sign-in button, as in \"Sign in with NAME\"; empty uses the issuer's host (env QUIRE_OIDC_NAME)")
}

// validate reports a setting of OpenID Connect sign-in that cannot work.
func (o OIDCConfig) validate() error {
	if o.Issuer == "" {
		if o.ClientID != "" || o.ClientSecretFile != "" {
			return errors.New("--oidc-client-id and --oidc-client-secret-file need --oidc-issuer")
		}
		return nil
	}
	u, err := url.Parse(o.Issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("--oidc-issuer %q: want an absolute https URL without a query", o.Issuer)
	}
	if strings.TrimSpace(o.ClientID) == "" {
		return errors.New("--oidc-issuer needs --oidc-client-id")
	}
	if o.ClientSecret != "" && o.ClientSecretFile != "" {
		return errors.New("give the OpenID Connect client secret in QUIRE_OIDC_CLIENT_SECRET or --oidc-client-secret-file, not both")
	}
	return nil
}

// newOIDC builds the OpenID Connect sign-in, nil when none is configured.
// The issuer is the operator's choice, never a user's, and is often a
// server beside Quire (Keycloak, Authentik): its client may reach local
// addresses, with the other limits of package fetch (see
// docs/decisions.md).
func newOIDC(cfg Config, baseURL string, svc *service.Service, log *slog.Logger) (*service.OIDC, error) {
	o := cfg.OIDC
	if o.Issuer == "" {
		return nil, nil
	}
	secret := o.ClientSecret
	if o.ClientSecretFile != "" {
		b, err := os.ReadFile(o.ClientSecretFile)
		if err != nil {
			return nil, fmt.Errorf("--oidc-client-secret-file: %w", err)
		}
		secret = strings.TrimSpace(string(b))
	}
	a, err := service.NewOIDC(svc, service.OIDCConfig{Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: secret,
		Name: o.Name, RedirectURL: strings.TrimSuffix(baseURL, "/") + app.OIDCCallbackPath,
		HTTPClient: fetch.NewHTTPClient(fetch.Config{AllowLocal: true, Timeout: fetch.DefaultTimeout, Logger: log})})
	if err != nil {
		return nil, fmt.Errorf("--oidc-issuer: %w", err)
	}
	log.Info("people may sign in with OpenID Connect", "issuer", o.Issuer, "redirect_uri", strings.TrimSuffix(baseURL, "/")+app.OIDCCallbackPath)
	return a, nil
}
