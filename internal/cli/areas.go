package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"quire/internal/fetch"
	"quire/internal/gitremote"
	"quire/internal/importer"
	"quire/internal/jobs"
	"quire/internal/jsruntime"
	"quire/internal/pdf"
	"quire/internal/service"
	"quire/internal/translate"
)

// areas are the services of the API areas with dependencies of their own,
// built over the core service.
type areas struct {
	git     *service.GitSync
	imports *service.ContentImports
	pdfs    *service.PDFs
	// events hands content events to their subscribers.
	events *service.ContentEvents
	// saml signs members in through their SAML identity providers.
	saml *service.SAML
	// oidc signs people in through the operator's OpenID Connect issuer;
	// nil when none is configured.
	oidc *service.OIDC

	// translations keeps spaces translated.
	translations *service.Translations
	// openapi keeps OpenAPI specifications.
	openapi *service.OpenAPISpecs
	// integrations keeps integrations and sends them their events.
	integrations *service.Integrations
	// sites keeps sites, their private keys sealed under the server's
	// secret key.
	sites *service.Sites
	// self answers integration scripts' calls to this server once it
	// serves.
	self *selfAPI
	// live streams what people do to the pages open in the app.
	live *service.Live
}

// newAreas builds the area services and registers their background
// workers on queue, which must not be started yet. baseURL is the
// server's public base URL; key is the server's secret key (nil for the
// one kept in the database).
func newAreas(cfg Config, baseURL string, svc *service.Service, queue *jobs.Queue, fetcher *fetch.Client, key []byte, log *slog.Logger) (*areas, error) {
	remote := gitremote.New(gitremote.Options{AllowLocal: cfg.AllowLocalFetch, Timeout: cfg.GitTimeout, Logger: log})
	git := service.NewGitSync(svc, remote, service.WithSealingKey(key), service.WithGitTimeout(cfg.GitTimeout))
	jobs.Register(queue, git.RunJob, jobs.Timeout(git.JobTimeout()))
	// The one place where content subscribers are registered: each is
	// handed every move of a space's current revision.
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
	live := service.NewLive(svc)
	events.Subscribe("live", live.RecordMoves)
	// Integration scripts run each in a child process under a hard memory
	// limit; their fetches come back here, and calls to this server's API
	// are answered in process.
	self, err := newSelfAPI(baseURL, fetch.NewHTTPClient(fetch.Config{AllowLocal: cfg.AllowLocalFetch, Logger: log}))
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", baseURL, err)
	}
	sandbox, err := scriptSandbox()
	if err != nil {
		return nil, err
	}
	runner := jsruntime.New(jsruntime.Config{Doer: self, Logger: log, Sandbox: sandbox})
	integrations := service.NewIntegrations(svc, fetcher, runner, service.IntegrationOptions{BaseURL: baseURL})
	events.Subscribe("integrations", integrations.ContentUpdated)
	svc.WatchSpaces(integrations.SpaceChanged)
	jobs.Register(queue, integrations.RunJob)
	jobs.Register(queue, events.RunJob)
	imports := service.NewContentImports(svc, importer.New(fetcher, importer.Options{Logger: log}))
	fonts, err := pdf.LoadFonts(cfg.PDFFontDir)
	if err != nil {
		return nil, err
	}
	if !fonts.HasCJK() {
		log.Warn("no CJK fonts found: PDF exports leave out Chinese, Japanese and Korean characters; install fonts-droid-fallback and fonts-nanum, or give --pdf-font-dir",
			"fonts", fonts.Sources())
	}
	translations, err := newTranslations(cfg, svc, queue, log)
	if err != nil {
		return nil, err
	}
	oas := service.NewOpenAPISpecs(svc, fetcher, service.OpenAPIOptions{
		FetchTimeout: cfg.OpenAPIFetchTimeout, RefreshInterval: cfg.OpenAPIRefresh})
	jobs.Register(queue, oas.RunJob)
	jobs.Register(queue, oas.RunRefresh)
	jobs.Every(queue, oas.RefreshInterval(), service.OpenAPIRefreshJob{})
	oidc, err := newOIDC(cfg, baseURL, svc, log)
	if err != nil {
		return nil, err
	}
	return &areas{oidc: oidc, git: git, imports: imports, pdfs: service.NewPDFs(svc, fonts), events: events,
		saml: service.NewSAML(svc, service.WithSAMLSealingKey(key)), translations: translations, openapi: oas,
		integrations: integrations, sites: service.NewSites(svc, service.WithSecretKey(key)), self: self, live: live}, nil
}

// translatorTimeout bounds one request to the translation engine: a
// model on modest hardware takes a while over a batch.
const translatorTimeout = 2 * time.Minute

// newTranslations builds the translation service with the engine
// cfg names, if any, and registers its runs on queue. The engine's
// address comes from the operator, never from a user, and is often a
// server beside Quire (LibreTranslate, Ollama): its client may reach
// local addresses, with the other limits of package fetch.
func newTranslations(cfg Config, svc *service.Service, queue *jobs.Queue, log *slog.Logger) (*service.Translations, error) {
	var tr translate.Translator
	if cfg.TranslatorURL != "" {
		client := fetch.New(fetch.Config{AllowLocal: true, Timeout: translatorTimeout, Logger: log})
		e, err := translate.New(cfg.TranslatorURL, translate.Options{Fetch: client, Key: cfg.TranslatorKey})
		if err != nil {
			return nil, fmt.Errorf("--translator: %w", err)
		}
		log.Info("translations run with an engine", "engine", e.Name())
		tr = e
	}
	t := service.NewTranslations(svc, tr)
	jobs.Register(queue, t.RunJob)
	return t, nil
}

// contentRecoverInterval is how often recoverContentEvents looks for
// content events whose job was never queued, and how old they must be.
const contentRecoverInterval = time.Minute

// recoverContentEvents queues again, every contentRecoverInterval until
// ctx ends, the content events left without a job by a process that
// stopped between a commit and its queuing.
func recoverContentEvents(ctx context.Context, events *service.ContentEvents, log *slog.Logger) {
	t := time.NewTicker(contentRecoverInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := events.RecoverContent(ctx, contentRecoverInterval); err != nil {
			log.WarnContext(ctx, "content event recovery failed", "error", err)
		} else if n > 0 {
			log.InfoContext(ctx, "content events queued again", "spaces", n)
		}
	}
}
