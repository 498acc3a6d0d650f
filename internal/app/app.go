package app

import (
	"log/slog"
	"net/http"
	"strings"

	"quire/internal/reader"
	"quire/internal/service"
	"quire/internal/web"
)

// Config configures the app.
type Config struct {
	// BaseURL is the absolute URL the server is reached at (no trailing
	// slash): it decides whether cookies are Secure, and which origin
	// state-changing requests must come from.
	BaseURL string
	// Logger receives internal errors.
	Logger *slog.Logger
	// Sites, Integrations and OpenAPI serve the pages of sites,
	// integrations and OpenAPI specifications; when nil, those pages say
	// the feature is not available on this server.
	Sites        *service.Sites
	Integrations *service.Integrations
	OpenAPI      *service.OpenAPISpecs
	// GitSync and Imports serve a space's Git Sync and content import
	// pages; when nil, those pages say the feature is not available on
	// this server.
	GitSync *service.GitSync
	Imports *service.ContentImports
	// OIDC, when set, offers sign-in through the operator's OpenID
	// Connect issuer.
	OIDC *service.OIDC
	// SAML, when set, lets people find their organization's SAML
	// identity provider from their email on the sign-in page.
	SAML *service.SAML
	// Accounts signs people in with passwords and hands out setup, reset
	// and invite links; nil builds one over the service that sends no
	// email.
	Accounts *service.Accounts
	// PDFs draws the PDF exports the app links to; nil says PDF export
	// is not available.
	PDFs *service.PDFs
	// Translations serves the organization's translations pages; when
	// nil, those pages say the feature is not available on this server.
	Translations *service.Translations
	// Live streams what others do to the pages open in the app; nil
	// builds one over the service (its loop starts with the first
	// watcher). The server closes it when it shuts down.
	Live *service.Live
}

// App serves the web app. Build one with New.
type App struct {
	svc    *service.Service
	cfg    Config
	log    *slog.Logger
	reader *reader.Renderer
	views  *views
	assets *assets
	// blocks is the editor's insert menu, served as JSON.
	blocks *blocksJSON
	// secure marks cookies Secure; csrf refuses state-changing requests
	// from other origins.
	secure bool
	csrf   *http.CrossOriginProtection
	routes []Route
	live   *service.Live
}

// Route is one declared address of the app, ready to register.
type Route struct {
	ID      string
	Method  string
	Path    string
	Handler http.Handler
	// Limit is the rate limit its requests count against, per client
	// address; "" for none.
	Limit service.RateClass
}

// New builds the app over the service.
func New(svc *service.Service, cfg Config) (*App, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Accounts == nil {
		cfg.Accounts = service.NewAccounts(svc, service.AccountsConfig{BaseURL: cfg.BaseURL, Logger: cfg.Logger})
	}
	render, err := reader.New()
	if err != nil {
		return nil, err
	}
	if cfg.Live == nil {
		cfg.Live = service.NewLive(svc)
	}
	a := &App{svc: svc, cfg: cfg, log: cfg.Logger, reader: render, secure: web.SecureCookies(cfg.BaseURL), live: cfg.Live}
	a.csrf = http.NewCrossOriginProtection()
	if o := web.OriginOf(cfg.BaseURL); o != "" {
		if err := a.csrf.AddTrustedOrigin(o); err != nil {
			return nil, err
		}
	}
	a.csrf.SetDenyHandler(http.HandlerFunc(a.crossOriginRefused))
	if a.assets, err = newAssets(render); err != nil {
		return nil, err
	}
	if a.blocks, err = newBlocksJSON(); err != nil {
		return nil, err
	}
	if a.views, err = parseViews(a); err != nil {
		return nil, err
	}
	for _, rt := range a.table() {
		a.routes = append(a.routes, Route{ID: rt.id, Method: rt.method, Path: rt.path, Handler: a.wrap(rt), Limit: rt.access.limit})
	}
	return a, nil
}

// Routes lists the app's routes, each with its handler.
func (a *App) Routes() []Route { return a.routes }
