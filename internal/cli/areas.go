package cli

import (
	"log/slog"

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
	imports := service.NewContentImports(svc, importer.New(fetcher, importer.Options{Logger: log}))
	fonts, err := pdf.LoadFonts(cfg.PDFFontDir)
	if err != nil {
		return nil, err
	}
	if !fonts.HasCJK() {
		log.Warn("no CJK fonts found: PDF exports leave out Chinese, Japanese and Korean characters; install fonts-droid-fallback and fonts-nanum, or give --pdf-font-dir",
			"fonts", fonts.Sources())
	}
	return &areas{git: git, imports: imports, pdfs: service.NewPDFs(svc, fonts)}, nil
}
