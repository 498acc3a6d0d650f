package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"quire/internal/app"
	"quire/internal/blob"
	"quire/internal/fetch"
	"quire/internal/httpapi"
	"quire/internal/httpmw"
	"quire/internal/jobs"
	"quire/internal/service"
	"quire/internal/store"
)

// HTTP server timeouts.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
	// shutdownTimeout bounds the wait for requests in flight on shutdown.
	shutdownTimeout = 10 * time.Second
)

// runServe parses serve's flags and runs the server until ctx ends.
func runServe(ctx context.Context, args []string, env Env) error {
	cfg, err := Load(args, env.Getenv)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return usageError{err: err}
	}
	return serve(ctx, cfg, env)
}

// serve opens the store, bootstraps an empty database, and serves HTTP and
// the background jobs until ctx ends; then it drains requests in flight,
// stops the jobs and closes the store, in that order.
func serve(ctx context.Context, cfg Config, env Env) (err error) {
	level, _ := cfg.level()
	log := newLogger(env.Stderr, cfg.LogFormat, level)
	info := readBuildInfo()

	if err := cfg.prepare(); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	tracing, flushTraces, err := startTracing(ctx, env, info.Version, log)
	if err != nil {
		return err
	}
	defer flushTraces()
	storeCfg := cfg.store()
	storeCfg.OpenPool = tracing.OpenPool()
	st, err := store.Open(ctx, storeCfg)
	if err != nil {
		return fmt.Errorf("opening the database: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the database: %w", cerr)
		}
	}()
	blobs, err := blob.Open(ctx, cfg.BlobURL, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("opening the file storage: %w", err)
	}
	defer func() {
		if cerr := blobs.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the file storage: %w", cerr)
		}
	}()
	if cfg.AllowLocalFetch {
		log.Warn("files given by URL may be fetched from loopback, private and link-local addresses")
	}
	fetcher := fetch.New(fetch.Config{AllowLocal: cfg.AllowLocalFetch, Logger: log})
	queue, err := newQueue(st, log, tracing.RiverPlugins()...)
	if err != nil {
		return err
	}
	secretKey, err := readSecretKey(cfg.SecretKeyFile)
	if err != nil {
		return err
	}
	mailer, err := cfg.mailer()
	if err != nil {
		return err
	}
	svc := service.New(st, service.WithLogger(log), service.WithBlobs(blobs), service.WithFetcher(fetcher),
		service.WithQueue(queue), service.WithSessionLifetimes(cfg.SessionLifetime, cfg.SessionIdle),
		service.WithNotificationMail(mailer != nil))
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	baseURL := cfg.BaseURL
	if baseURL == "" {
		baseURL = deriveBaseURL(cfg.Addr, ln.Addr())
	}
	areas, err := newAreas(cfg, baseURL, svc, queue, fetcher, secretKey, log)
	if err != nil {
		ln.Close()
		return err
	}
	if mailer != nil {
		jobs.Register(queue, service.NewNotificationMail(svc, mailer, baseURL).RunJob)
	}
	accounts := service.NewAccounts(svc, service.AccountsConfig{BaseURL: baseURL, Mailer: mailer, Logger: log})
	if err := bootstrapIfFresh(ctx, svc, accounts, cfg, log, env.Stderr); err != nil {
		ln.Close()
		return err
	}
	handler, metricsHandler, err := newHandlers(svc, log, app.Config{Accounts: accounts, OIDC: areas.oidc, Live: areas.live}, httpapi.Config{
		BaseURL:      baseURL,
		MaxBodyBytes: cfg.MaxBodyBytes,
		StrictInput:  cfg.StrictInput,
		GitSync:      areas.git,
		Imports:      areas.imports,
		PDFs:         areas.pdfs,
		SAML:         areas.saml,
		Translations: areas.translations,
		OpenAPI:      areas.openapi,
		Integrations: areas.integrations,
		SiteService:  areas.sites,
		RateLimits:   service.NewRateLimits(svc, cfg.RateLimits),
		Version:      info.Version,
		Build:        info.Build,
		Logger:       log,
	}, queueMetrics(st, queue, log)...)
	if err != nil {
		ln.Close()
		return err
	}
	handler = tracing.Handler(handler)
	// Behind trusted proxies, the client address comes from X-Forwarded-For
	// (validated already).
	proxies, _ := httpmw.ParseProxies(cfg.TrustedProxies)
	handler = httpmw.ForwardedFor(proxies)(handler)
	// Building the handlers parsed every template and schema, most of it
	// garbage once checked: give that memory back now rather than keep it
	// resident until the runtime's scavenger gets to it.
	debug.FreeOSMemory()
	areas.self.serve(handler)
	servers := []*http.Server{newHTTPServer(handler, log)}
	// Shutting down waits for requests to end: the app's event streams
	// end at once.
	servers[0].RegisterOnShutdown(areas.live.Close)
	listeners := []net.Listener{ln}
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics listener: %w", err)
		}
		servers = append(servers, newHTTPServer(metricsHandler, log))
		listeners = append(listeners, mln)
	}

	if err := queue.Start(ctx); err != nil {
		for _, l := range listeners {
			l.Close()
		}
		return fmt.Errorf("starting the job queue: %w", err)
	}
	sweeper := jobs.NewSweeper(svc, jobs.SweeperConfig{Logger: log})
	sweeper.Start(ctx)
	defer sweeper.Stop()
	recoverCtx, stopRecover := context.WithCancel(ctx)
	defer stopRecover()
	go recoverContentEvents(recoverCtx, areas.events, log)

	served := make(chan error, len(servers))
	for i, srv := range servers {
		go func() { served <- srv.Serve(listeners[i]) }()
	}
	if len(listeners) > 1 {
		log.InfoContext(ctx, "metrics listening", "addr", listeners[1].Addr().String())
	}
	log.InfoContext(ctx, "listening", "addr", ln.Addr().String(), "base_url", baseURL,
		"version", info.Version, "build", info.Build)
	if env.Listening != nil {
		env.Listening(ln.Addr().String())
	}

	var failed error
	select {
	case err := <-served:
		// Serve only returns early on a listener failure.
		failed = fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	for _, srv := range servers {
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("requests still in flight at the shutdown deadline; closing their connections", "err", err)
			srv.Close()
		}
	}
	pending := len(servers)
	if failed != nil {
		pending--
	}
	for range pending {
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("server ended with an error", "err", err)
		}
	}
	stopQueue(context.WithoutCancel(ctx), queue, log)
	sweeper.Stop()
	if failed != nil {
		return failed
	}
	log.Info("stopped")
	return nil
}

// newHTTPServer returns a server for h with the timeouts of every
// listener.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// newHandlers returns the server's two HTTP handlers. The first serves
// the health and readiness endpoints, the start page and the API
// reference, and hands every other address to the API, which serves the
// routes of its table (the API under /v1/, sign-in under /sso/, published
// sites, spaces' published addresses, integration images) and answers
// the rest with its 404; it is wrapped in
// the nosniff header, metrics, request logging and panic recovery
// (innermost, so that a panic is logged and counted as a 500). The second
// serves /metrics (with the extra collectors), for a listener of its own
// that operators keep off the public address.
func newHandlers(svc *service.Service, log *slog.Logger, web app.Config, api httpapi.Config, extra ...prometheus.Collector) (http.Handler, http.Handler, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, nil, err
	}
	for _, c := range extra {
		if err := reg.Register(c); err != nil {
			return nil, nil, err
		}
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, nil, err
	}
	metrics, err := httpmw.NewMetrics(reg)
	if err != nil {
		return nil, nil, err
	}

	if api.SiteService == nil {
		api.SiteService = service.NewSites(svc)
	}
	sites, err := service.NewSiteReader(api.SiteService)
	if err != nil {
		return nil, nil, err
	}
	api.Sites = sites
	// The app works over the same services as the API.
	web.BaseURL, web.Logger, web.SAML = api.BaseURL, log, api.SAML
	web.Sites, web.Integrations, web.OpenAPI = api.SiteService, api.Integrations, api.OpenAPI
	web.GitSync, web.Imports, web.PDFs = api.GitSync, api.Imports, api.PDFs
	web.Translations = api.Translations
	if api.App, err = app.New(svc, web); err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	apiHandler := httpapi.New(svc, api)
	// The API owns every address of its route table, and answers those
	// outside it.
	mux.Handle("/", apiHandler)
	mux.HandleFunc("GET /healthz", healthz)
	mux.HandleFunc("GET /readyz", readyz(svc, log))
	if err := addReaderPages(mux, apiHandler, httpapi.SiteList{Sites: sites}, log); err != nil {
		return nil, nil, err
	}

	mmux := http.NewServeMux()
	mmux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mmux.HandleFunc("/", notFound)

	return httpmw.Chain(mux, httpmw.NoSniff, metrics.Handler, httpmw.Log(log), httpmw.Recover(log)),
		httpmw.Chain(mmux, httpmw.NoSniff, httpmw.Recover(log)), nil
}
