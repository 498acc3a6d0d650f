package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/app"
	"quire/internal/blob"
	"quire/internal/content"
	"quire/internal/fetch"
	"quire/internal/gitremote"
	"quire/internal/httpapi"
	"quire/internal/importer"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/store/storetest"
	"quire/internal/testutil"
	"quire/internal/web"
)

// testClock is the service's clock: wall time shifted by an offset the
// test moves forward.
type testClock struct{ offset atomic.Int64 }

// Now returns the shifted time.
func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward.
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// harness is a running server (API and app) over a fresh database, with
// an organization whose admin is Ada.
type harness struct {
	Engine string
	URL    string
	Store  quire.Store
	Svc    *service.Service
	Clock  *testClock
	Org    string
	// Admin is the organization's first admin.
	Admin *quire.User
	// AdminToken is the admin's API token.
	AdminToken string
	// Queue is the job queue; options may register workers on it, as it
	// starts after them.
	Queue *jobs.Queue
}

// harnessOption adjusts the API's configuration (and through it the
// app's) before the server starts.
type harnessOption func(h *harness, cfg *httpapi.Config, acfg *app.Config)

// newHarness starts a server over a fresh store of the engine.
func newHarness(t *testing.T, engine string, opts ...harnessOption) *harness {
	t.Helper()
	ctx := context.Background()
	clock := &testClock{}
	st := openTestStore(t, engine, clock.Now)
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	blobs, err := blob.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatalf("open blob store: %v", err)
	}
	t.Cleanup(func() { _ = blobs.Close() })
	eng := content.New(content.WithClock(clock.Now))
	fetcher := fetch.New(fetch.Config{AllowLocal: true, Logger: logger})
	queue, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: logger, PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("job queue: %v", err)
	}
	svc := service.New(st, service.WithClock(clock.Now), service.WithLogger(logger),
		service.WithEngine(eng), service.WithBlobs(blobs), service.WithFetcher(fetcher), service.WithQueue(queue))
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
	live := service.NewLive(svc, service.WithLivePoll(20*time.Millisecond))
	events.Subscribe("live", live.RecordMoves)
	t.Cleanup(live.Close)
	jobs.Register(queue, events.RunJob)
	// Git Sync and content import, reaching repositories and sites the
	// tests serve on loopback.
	git := service.NewGitSync(svc, gitremote.New(gitremote.Options{AllowLocal: true, Logger: logger}))
	jobs.Register(queue, git.RunJob)
	imports := service.NewContentImports(svc, importer.New(fetcher, importer.Options{Logger: logger}))

	hs := httptest.NewUnstartedServer(nil)
	base := "http://" + hs.Listener.Addr().String()
	h := &harness{Engine: engine, URL: base, Store: st, Svc: svc, Clock: clock, Queue: queue}
	cfg := httpapi.Config{BaseURL: base, Logger: logger, SAML: service.NewSAML(svc), SiteService: service.NewSites(svc),
		GitSync: git, Imports: imports}
	acfg := app.Config{BaseURL: base, Logger: logger, Live: live, GitSync: git, Imports: imports}
	for _, o := range opts {
		o(h, &cfg, &acfg)
	}
	// The queue starts once the options registered their workers.
	if err := queue.Start(ctx); err != nil {
		t.Fatalf("start the job queue: %v", err)
	}
	t.Cleanup(func() { _ = queue.Stop(context.Background()) })
	if cfg.App, err = app.New(svc, acfg); err != nil {
		t.Fatalf("app: %v", err)
	}
	hs.Config.Handler = httpapi.New(svc, cfg)
	hs.Start()
	t.Cleanup(hs.Close)

	res, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Acme Docs", Email: "ada@acme.test", Name: "Ada Admin"})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	h.Org, h.AdminToken = res.Organization, res.Token
	if h.Admin, err = st.User(ctx, res.User); err != nil {
		t.Fatal(err)
	}
	return h
}

// newUser creates a person, a member of the harness's organization with
// role unless role is "" (then a member of no organization).
func (h *harness) newUser(t *testing.T, email, name string, role quire.Role) *quire.User {
	t.Helper()
	in := service.CreateUserInput{Email: email, Name: name}
	if role != "" {
		in.OrgID, in.Role = h.Org, role
	}
	u, _, err := h.Svc.CreateUser(context.Background(), in)
	if err != nil {
		t.Fatalf("create user %s: %v", email, err)
	}
	return u
}

// signIn opens a session for the user through the service, as a sign-in
// would, and returns its cookie.
func (h *harness) signIn(t *testing.T, u *quire.User) *http.Cookie {
	t.Helper()
	secret, expires, err := h.Svc.OpenSession(context.Background(), u.ID, service.SessionOrigin{Method: quire.SessionPassword})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	return web.SessionCookieFor(secret, expires, false)
}

// client returns an HTTP client holding the cookie (none when nil) that
// does not follow redirects, so tests see them.
func (h *harness) client(t *testing.T, c *http.Cookie) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		u, _ := url.Parse(h.URL)
		jar.SetCookies(u, []*http.Cookie{c})
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches a path of the server with the client and returns the
// status, the Location header and the body.
func (h *harness) get(t *testing.T, c *http.Client, path string) (int, string, string) {
	t.Helper()
	return h.do(t, c, http.MethodGet, path, nil, nil)
}

// postForm sends a form to a path, as the app's own page would (same
// origin).
func (h *harness) postForm(t *testing.T, c *http.Client, path string, form url.Values) (int, string, string) {
	t.Helper()
	return h.do(t, c, http.MethodPost, path, strings.NewReader(form.Encode()), http.Header{
		"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {h.URL}, "Sec-Fetch-Site": {"same-origin"}})
}

// do sends a request and reads its answer.
func (h *harness) do(t *testing.T, c *http.Client, method, path string, body io.Reader, hdr http.Header) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, h.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Location"), string(b)
}

// openTestStore opens a fresh store of the engine on the clock now,
// closed (and for PostgreSQL dropped) at the end of the test. The
// database is a copy of a migrated one (see storetest.MigratedSQLite).
func openTestStore(t *testing.T, engine string, now func() time.Time) quire.Store {
	t.Helper()
	cfg := store.Config{Now: now}
	if engine == "postgres" {
		cfg.DatabaseURL = storetest.MigratedPostgresDB(t)
	} else {
		cfg.DataDir = storetest.MigratedSQLiteDir(t, store.SQLiteFile)
	}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open %s store: %v", engine, err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// forEachEngine runs fn against a fresh harness on every engine, in
// parallel subtests.
func forEachEngine(t *testing.T, fn func(t *testing.T, h *harness), opts ...harnessOption) {
	t.Helper()
	engines := []string{"sqlite"}
	if os.Getenv(storetest.PostgresEnv) != "" {
		engines = append(engines, "postgres")
	}
	for _, e := range engines {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, e, opts...))
		})
	}
}

// newBrowser starts a headless Chromium for the test; its screenshots go
// to $QUIRE_SCREENSHOT_DIR.
func newBrowser(t *testing.T) *testutil.BrowserPage {
	t.Helper()
	return testutil.NewBrowserPage(t)
}

// signInBrowser gives the browser the session cookie of u.
func (h *harness) signInBrowser(t *testing.T, b *testutil.BrowserPage, u *quire.User) {
	t.Helper()
	c := h.signIn(t, u)
	b.SetCookie(h.URL, c.Name, c.Value)
}
