package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/web"
)

// App benchmark shape and goals.
const (
	// appSpaces is how many spaces the organization holds, in
	// appCollections collections; appPages how many pages the big space
	// holds.
	appSpaces      = 1000
	appCollections = 20
	appPages       = 10000
	// appRequests is how many requests of each page are timed, one after
	// the other, after appWarmup untimed ones.
	appRequests = 200
	appWarmup   = 10
	// appGoalP50 and appGoalP99 are the goals for every page.
	appGoalP50 = 20 * time.Millisecond
	appGoalP99 = 100 * time.Millisecond
)

// appPage is a page of the app under measure.
type appPage struct {
	name, path string
}

// appFixture is what the app benchmark built.
type appFixture struct {
	orgID, collectionID, spaceID, pagePath string
	user                                   *quire.User
}

// benchApp measures, on each engine, the server time of the web app's
// pages for an organization of appSpaces spaces in appCollections
// collections and a space of appPages pages (goals: p50 under appGoalP50
// and p99 under appGoalP99 for every page), with each page's p50 as a
// multiple of that of the published reader's cached page, measured in the
// same run. Requests are served in-process, one at a time, so the figures
// are the handlers' own time.
func benchApp(ctx context.Context, cfg config, names []string, w io.Writer) error {
	for _, name := range names {
		if err := appOn(ctx, cfg, name, w); err != nil {
			return fmt.Errorf("app on %s: %w", name, err)
		}
	}
	return nil
}

// appOn runs the app benchmark on a fresh database of one engine.
func appOn(ctx context.Context, cfg config, name string, w io.Writer) (err error) {
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.WithLogger(quiet))

	began := time.Now()
	fx, err := seedApp(ctx, st, svc)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nApp (%s): %d spaces in %d collections and a space of %d pages, seeded in %s; %d sequential requests per page, in-process:\n",
		name, appSpaces, appCollections, appPages, time.Since(began).Round(time.Millisecond), appRequests)

	const base = "http://quire.bench"
	sites := service.NewSites(svc)
	a, err := app.New(svc, app.Config{BaseURL: base, Logger: quiet, Sites: sites})
	if err != nil {
		return err
	}
	h := httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet, SiteService: sites, App: a})
	secret, expires, err := svc.OpenSession(ctx, fx.user.ID, service.SessionOrigin{Method: "password"})
	if err != nil {
		return err
	}
	cookie := web.SessionCookieFor(secret, expires, false)

	reader, err := timePage(ctx, h, nil, "/sites/bench/")
	if err != nil {
		return fmt.Errorf("the reader's page: %w", err)
	}
	readerP50 := percentile(reader, 0.5)
	fmt.Fprintf(w, "  %-34s p50 %8s  p99 %8s  (the reference)\n", "reader: GET /sites/{name}/ cached", ms(readerP50), ms(percentile(reader, 0.99)))
	met := true
	for _, p := range appPageList(fx) {
		d, err := timePage(ctx, h, cookie, p.path)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		p50, p99 := percentile(d, 0.5), percentile(d, 0.99)
		ok := p50 < appGoalP50 && p99 < appGoalP99
		met = met && ok
		fmt.Fprintf(w, "  %-34s p50 %8s  p99 %8s  %6.1fx the reader's  %s\n", p.name, ms(p50), ms(p99),
			float64(p50)/float64(max(readerP50, time.Microsecond)), verdict(ok))
	}
	diffOK, err := timeChangeRequestDiff(ctx, h, cookie, svc, fx, readerP50, w)
	if err != nil {
		return fmt.Errorf("change request diff: %w", err)
	}
	d, err := timeAfterMerges(ctx, h, cookie, svc, fx)
	if err != nil {
		return fmt.Errorf("space home after a merge: %w", err)
	}
	fmt.Fprintf(w, "  %-34s p50 %8s  max %8s  (%d merges of one page, each followed by one request)\n", "space home, first after a merge",
		ms(percentile(d, 0.5)), ms(percentile(d, 1)), len(d))
	if cfg.cpuprofile != "" && cfg.profileCase == "app" && cfg.profileEngine == name {
		i := slices.IndexFunc(appPageList(fx), func(p appPage) bool { return p.name == cfg.profilePage })
		if i < 0 {
			return fmt.Errorf("-profile-page %q names no page of the app section", cfg.profilePage)
		}
		if err := profileApp(ctx, cfg.cpuprofile, h, cookie, appPageList(fx)[i].path, w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "  goal p50 < %s and p99 < %s on every page: %s\n", appGoalP50, appGoalP99, verdict(met))
	fmt.Fprintf(w, "  goal p50 < %s for a change request diff of %d pages: %s\n", appDiffGoalP50, appDiffPages, verdict(diffOK))
	return nil
}

// profileApp writes a CPU profile of the timed requests of one page.
func profileApp(ctx context.Context, file string, h http.Handler, cookie *http.Cookie, path string, w io.Writer) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	_, err = timePage(ctx, h, cookie, path)
	pprof.StopCPUProfile()
	if err := errors.Join(err, f.Close()); err != nil {
		return err
	}
	fmt.Fprintf(w, "  CPU profile of %d requests of %s written to %s\n", appRequests, path, file)
	return nil
}

// appPageList is the pages measured.
func appPageList(fx *appFixture) []appPage {
	org := "/app/o/" + fx.orgID
	return []appPage{
		{"organization home", org},
		{"collection", "/app/c/" + fx.collectionID},
		{"members", org + "/members"},
		{"space home", "/app/s/" + fx.spaceID},
		{"page deep in the tree", "/app/s/" + fx.spaceID + "/" + fx.pagePath},
		{"revisions", "/app/s/" + fx.spaceID + "/~/revisions"},
		{"search", org + "/search?q=page"},
		{"sites", org + "/sites"},
	}
}

// timePage requests path appWarmup times, then appRequests times, each
// served by h in-process, and returns the times of the latter. Any
// answer but 200 is an error.
func timePage(ctx context.Context, h http.Handler, cookie *http.Cookie, path string) ([]time.Duration, error) {
	out := make([]time.Duration, 0, appRequests)
	for i := range appWarmup + appRequests {
		took, err := serveOnce(ctx, h, cookie, path)
		if err != nil {
			return nil, err
		}
		if i >= appWarmup {
			out = append(out, took)
		}
	}
	return out, nil
}

// serveOnce serves one GET of path by h in-process, with the cookie when
// not nil, and returns how long it took; any answer but 200 is an error.
func serveOnce(ctx context.Context, h http.Handler, cookie *http.Cookie, path string) (time.Duration, error) {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	rec := httptest.NewRecorder()
	t0 := time.Now()
	h.ServeHTTP(rec, req)
	took := time.Since(t0)
	if rec.Code != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d %s", path, rec.Code, strings.TrimSpace(rec.Body.String()[:min(rec.Body.Len(), 200)]))
	}
	return took, nil
}

// seedApp bootstraps an organization whose owner signs in, with
// appCollections collections holding appSpaces-1 spaces (stored directly,
// as the reads benchmark does) and a space of appPages pages (built
// through the service), published as the site "bench".
func seedApp(ctx context.Context, st quire.Store, svc *service.Service) (*appFixture, error) {
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return nil, err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return nil, err
	}
	fx := &appFixture{orgID: boot.Organization}
	if fx.user, err = st.User(ctx, u.ID); err != nil {
		return nil, err
	}
	colls := make([]string, appCollections)
	for i := range colls {
		c, err := svc.CreateCollection(ctx, u, fx.orgID, fmt.Sprintf("Collection %02d", i), "")
		if err != nil {
			return nil, err
		}
		colls[i] = c.Collection.ID
	}
	fx.collectionID = colls[len(colls)/2]
	now := svc.Now()
	for start := 0; start < appSpaces-1; start += seedBatch {
		end := min(start+seedBatch, appSpaces-1)
		err := st.WithTx(ctx, func(tx quire.Store) error {
			for i := start; i < end; i++ {
				sp := newSpace(fx.orgID, i, now)
				sp.Parent = colls[i%len(colls)]
				if err := tx.CreateSpace(ctx, sp); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("seeding spaces %d-%d: %w", start, end-1, err)
		}
	}
	if fx.spaceID, fx.pagePath, err = seedDeepPage(ctx, svc, u, fx.orgID); err != nil {
		return nil, err
	}
	sites := service.NewSites(svc)
	site, err := sites.CreateSite(ctx, u, fx.orgID, service.SiteCreate{Title: "Bench", Spaces: []string{fx.spaceID}})
	if err != nil {
		return nil, err
	}
	name, published := "bench", true
	_, err = sites.UpdateSite(ctx, fx.orgID, site.ID, quire.SiteUpdate{Basename: &name, Published: &published}, nil)
	return fx, err
}

// seedDeepPage builds the space of appPages pages and returns it with the
// path of a page below one of its sections, deep in the tree.
func seedDeepPage(ctx context.Context, svc *service.Service, u *quire.User, orgID string) (string, string, error) {
	spaceID, sectionID, err := seedPages(ctx, svc, u, orgID, appPages)
	if err != nil {
		return "", "", err
	}
	c, err := svc.Content(ctx, service.ContentRef{SpaceID: spaceID})
	if err != nil {
		return "", "", err
	}
	kids, err := c.Children(ctx, sectionID)
	if err != nil {
		return "", "", err
	}
	if len(kids) == 0 {
		return "", "", fmt.Errorf("the seeded section has no pages")
	}
	path, err := c.Path(ctx, kids[len(kids)-1])
	return spaceID, path, err
}

// appMerges is how many merges timeAfterMerges makes.
const appMerges = 10

// timeAfterMerges merges appMerges change requests of one page each into
// the big space and times the first request of the space's home after
// each: the request that reads the new revision's page tree.
func timeAfterMerges(ctx context.Context, h http.Handler, cookie *http.Cookie, svc *service.Service, fx *appFixture) ([]time.Duration, error) {
	out := make([]time.Duration, 0, appMerges)
	for i := range appMerges {
		cr, err := svc.CreateChangeRequest(ctx, fx.user, fx.spaceID, fmt.Sprintf("Merge %d", i))
		if err != nil {
			return nil, err
		}
		title, body, top := fmt.Sprintf("Merged page %d", i), "Text.\n", ""
		if _, _, err := svc.UpdateChangeRequestContent(ctx, fx.user, fx.spaceID, cr.ID, []service.ContentChange{{
			Operation: service.OpInsertPage, Into: &top, Fields: service.PageFields{Title: &title},
			Document: &service.DocumentInput{Markdown: &body}}}); err != nil {
			return nil, err
		}
		if _, err := svc.MergeChangeRequest(ctx, fx.user, fx.spaceID, cr.ID); err != nil {
			return nil, err
		}
		took, err := serveOnce(ctx, h, cookie, "/app/s/"+fx.spaceID)
		if err != nil {
			return nil, err
		}
		out = append(out, took)
	}
	return out, nil
}
