package cli

import (
	"context"
	"log/slog"
	"time"

	"quire/internal/fetch"
	"quire/internal/gitremote"
	"quire/internal/importer"
	"quire/internal/jobs"
	"quire/internal/pdf"
	"quire/internal/service"
)

// areas are the services of the API areas with dependencies of their own,
// built over the core service.
type areas struct {
	git     *service.GitSync
	imports *service.ContentImports
	pdfs    *service.PDFs
	// events hands content events to their subscribers.
	events *service.ContentEvents
	// openapi keeps OpenAPI specifications.
	openapi *service.OpenAPISpecs
}

// newAreas builds the area services and registers their background
// workers on queue, which must not be started yet.
func newAreas(cfg Config, svc *service.Service, queue *jobs.Queue, fetcher *fetch.Client, log *slog.Logger) (*areas, error) {
	key, err := readSecretKey(cfg.SecretKeyFile)
	if err != nil {
		return nil, err
	}
	remote := gitremote.New(gitremote.Options{AllowLocal: cfg.AllowLocalFetch, Logger: log})
	git := service.NewGitSync(svc, remote, service.WithSealingKey(key))
	jobs.Register(queue, git.RunJob)
	// The one place where content subscribers are registered: each is
	// handed every move of a space's current revision.
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
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
	oas := service.NewOpenAPISpecs(svc, fetcher, service.OpenAPIOptions{
		FetchTimeout: cfg.OpenAPIFetchTimeout, RefreshInterval: cfg.OpenAPIRefresh})
	jobs.Register(queue, oas.RunJob)
	jobs.Register(queue, oas.RunRefresh)
	jobs.Every(queue, oas.RefreshInterval(), service.OpenAPIRefreshJob{})
	return &areas{git: git, imports: imports, pdfs: service.NewPDFs(svc, fonts), events: events, openapi: oas}, nil
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
