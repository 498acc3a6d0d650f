// Package httpapi serves the Quire API over HTTP: one route table declares
// every operation, and the same declarations drive routing, request
// validation, the authorization check and the OpenAPI document served at
// /v1/openapi.json.
package httpapi

import (
	"log/slog"
	"net/http"
	"quire/internal/readermcp"
	"strings"

	"github.com/danielgtaylor/huma/v2/adapters/humago"
	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/app"
	"quire/internal/links"
	"quire/internal/reader"
	"quire/internal/service"
	"quire/internal/web"
)

// Config configures the API.
type Config struct {
	// BaseURL is the absolute URL the server is reached at, used in every
	// urls.* field (no trailing slash).
	BaseURL string
	// MaxBodyBytes bounds request bodies; larger ones get 413.
	MaxBodyBytes int64
	// Version and Build are reported by GET /v1/.
	Version string
	Build   string
	// Logger receives internal errors, and at debug level the request
	// fields an operation ignored.
	Logger *slog.Logger
	// StrictInput refuses request bodies with fields the operation does
	// not declare (400), and the OpenAPI document then forbids them. By
	// default such fields are ignored, as the published request schemas
	// allow them.
	StrictInput bool
	// GitSync runs Git imports and exports, and Imports content imports
	// from URLs; without them those operations answer that they are not
	// available on this server.
	GitSync *service.GitSync
	Imports *service.ContentImports
	// Links reads links and backlinks; when nil the server makes one
	// whose in-app links are those to BaseURL's /app and /v1.
	Links *service.Links
	// PDFs sets spaces and change requests as PDF; without it the PDF
	// operations answer that they are not available.
	PDFs *service.PDFs
	// SAML keeps SAML providers and signs members in through them;
	// without it those operations answer that they are not available.
	SAML *service.SAML

	// Translations keeps spaces translated; without it the translation
	// operations answer that they are not available.
	Translations *service.Translations
	// OpenAPI keeps OpenAPI specifications; without it their operations
	// answer that they are not available.
	OpenAPI *service.OpenAPISpecs
	// Integrations keeps integrations, their installations and events;
	// without it their operations answer that they are not available.
	Integrations *service.Integrations
	// SiteService keeps sites; when nil the server makes one, sealing the
	// private keys of sites under a key kept in the database.
	SiteService *service.Sites
	// OrgExports writes organizations out for their admins; when nil the
	// server makes one.
	OrgExports *service.OrgExports
	// Sites serves published sites to readers under /sites/; when nil the
	// server makes one over SiteService.
	Sites *service.SiteReader
	// App is the web app under /app/; its routes join the route table as
	// browser routes. Without it, /app/ answers 404.
	App *app.App
	// RateLimits counts requests against the server's rate limits; nil
	// limits nothing.
	RateLimits *service.RateLimits
}

// DefaultMaxBodyBytes is the request body limit when none is configured.
const DefaultMaxBodyBytes = 1 << 20

// Server holds what handlers need.
type Server struct {
	svc     *service.Service
	git     area[service.GitSync]
	imports area[service.ContentImports]
	links   *service.Links
	pdfs    area[service.PDFs]
	openapi area[service.OpenAPISpecs]
	cfg     Config
	log     *slog.Logger
	urls    urlBuilder
	routes  []Route
	// mux routes the API; publicRoutes are the operations it serves
	// without a token.
	mux          *http.ServeMux
	publicRoutes []publicRoute
	// spaceMemo keeps the JSON of listed spaces.
	spaceMemo *spaceMemo
	// saml signs members in through SAML; browserRoutes are its browser
	// endpoints. secure marks cookies Secure; origin is the server's own,
	// which cookie-authenticated writes must come from.
	saml          area[service.SAML]
	browserRoutes []BrowserRoute
	secure        bool
	origin        string

	// integrations runs the integrations area.
	integrations area[service.Integrations]
	// translations runs the translations area.
	translations area[service.Translations]
	// siteSvc keeps sites; sites serves them published under /sites/.
	siteSvc *service.Sites
	sites   *service.SiteReader
	// render renders the pages of sites; pages keeps rendered pages by
	// their ETag.
	render *reader.Renderer
	pages  *lru.Cache[string, []byte]
	// mcp serves the MCP endpoint of each published site.
	mcp *readermcp.Server
	// orgExports writes organization exports.
	orgExports *service.OrgExports
	// limits counts requests against the rate limits; nil when none.
	limits *service.RateLimits
}

// New returns the handler of the /v1 API and of the browser endpoints
// under /sso/.
func New(svc *service.Service, cfg Config) http.Handler {
	s, mux := newServer(svc, cfg)
	return noStore(s.authenticate(mux))
}

// noStore marks every answer of the API as not to be cached: answers
// depend on the caller's token. Downloads replace it with their own
// caching.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// newServer builds the server and its routes.
func newServer(svc *service.Service, cfg Config) (*Server, *http.ServeMux) {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	s := &Server{svc: svc, cfg: cfg, log: cfg.Logger, urls: urlBuilder{base: cfg.BaseURL},
		git:     area[service.GitSync]{cfg.GitSync, "Git Sync"},
		imports: area[service.ContentImports]{cfg.Imports, "Content import"},
		pdfs:    area[service.PDFs]{cfg.PDFs, "PDF export"}, links: cfg.Links,
		spaceMemo: newSpaceMemo(), limits: cfg.RateLimits}
	s.saml = area[service.SAML]{cfg.SAML, "SAML single sign-on"}
	s.secure, s.origin = web.SecureCookies(cfg.BaseURL), web.OriginOf(cfg.BaseURL)
	s.translations = area[service.Translations]{cfg.Translations, "Translations"}
	s.openapi = area[service.OpenAPISpecs]{cfg.OpenAPI, "OpenAPI specifications"}
	s.integrations = area[service.Integrations]{cfg.Integrations, "Integrations"}
	s.siteSvc = cfg.SiteService
	if s.siteSvc == nil {
		s.siteSvc = service.NewSites(svc)
	}
	if s.orgExports = cfg.OrgExports; s.orgExports == nil {
		s.orgExports = service.NewOrgExports(svc)
	}
	if s.links == nil {
		s.links = service.NewLinks(svc, links.Options{AppURLs: []string{s.urls.app(), s.urls.api()}})
	}
	mux := http.NewServeMux()
	s.mux = mux
	api := humago.New(exactMux{mux}, s.humaConfig())
	mux.HandleFunc(undeclaredPattern, undeclared(mux))
	api.UseMiddleware(s.checkAccess(api), s.checkBody(api))
	s.register(api)
	s.registerSiteReader()
	s.registerApp()
	dropUnprocessable(api)
	return s, mux
}
