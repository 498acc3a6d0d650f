package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store/sqlstore"
)

// appendBatch is how many pages one content write appends in the page
// append measure.
const appendBatch = service.MaxContentChanges

// createsResult holds the write figures of one engine.
type createsResult struct {
	empty, full, bare summary
	fullSpaces        int
	// Page appends after about 100 siblings in a still small database
	// (early), after about 10,000 siblings (large), and after about 100
	// siblings in the database the 10,000 pages grew (small).
	appendEarly, appendLarge, appendSmall appendWindow
	pages                                 int
}

// appendStored is what the measured append batches stored per page.
type appendStored struct {
	objects, bytes float64
}

// benchCreates measures POST /v1/orgs/{id}/spaces in a new, empty
// organization and in the seeded one, side by side with a bare handler
// that inserts one row into a table of the same database and answers the
// bytes quire answered. Each round starts a new empty organization.
func benchCreates(ctx context.Context, cfg config, eng *engine, st quire.Store, svc *service.Service, base string, fx *fixture, ld *loader, w io.Writer) (createsResult, error) {
	var res createsResult
	res.fullSpaces = len(fx.spaceIDs)
	owner, err := svc.Authenticate(ctx, fx.token)
	if err != nil {
		return res, err
	}
	body := []byte(`{"title":"Bench space"}`)
	full := target{base: base, paths: []string{"/v1/orgs/" + fx.orgID + "/spaces"}, token: fx.token, body: body}
	answer, ctype, err := ld.capture(ctx, full, full.paths[0])
	if err != nil {
		return res, fmt.Errorf("capturing a create: %w", err)
	}

	db, err := openWriter(eng)
	if err != nil {
		return res, err
	}
	defer db.Close()
	bareBase, stopBare, err := serveInsert(ctx, eng, db, fx.orgID, answer, ctype)
	if err != nil {
		return res, err
	}
	defer stopBare()
	bare := target{base: bareBase, paths: full.paths, token: fx.token, body: body}

	if cfg.warmup > 0 {
		for _, t := range []target{bare, full} {
			if err := check("create warm-up", ld.run(ctx, t, cfg.warmup, 0)); err != nil {
				return res, err
			}
		}
	}
	var emptyRuns, fullRuns, bareRuns []runStats
	for round := 1; round <= cfg.rounds; round++ {
		orgID, err := emptyOrg(ctx, st, owner, round)
		if err != nil {
			return res, err
		}
		empty := target{base: base, paths: []string{"/v1/orgs/" + orgID + "/spaces"}, token: fx.token, body: body}
		order := []*target{&empty, &full, &bare}
		if round%2 == 0 {
			order = []*target{&bare, &full, &empty}
		}
		got := map[*target]runStats{}
		for _, t := range order {
			s := ld.run(ctx, *t, cfg.duration, cfg.requests)
			if err := check("create", s); err != nil {
				return res, err
			}
			got[t] = s
		}
		e, f, b := got[&empty], got[&full], got[&bare]
		fmt.Fprintf(w, "  %-8s POST /v1/orgs/{id}/spaces round %d: empty org %5.0f rps | %d spaces %5.0f rps p99 %-8s | bare insert %5.0f rps\n",
			eng.name, round, e.rps(), res.fullSpaces, f.rps(), ms(f.p99), b.rps())
		emptyRuns, fullRuns, bareRuns = append(emptyRuns, e), append(fullRuns, f), append(bareRuns, b)
	}
	res.empty, res.full, res.bare = summarize(emptyRuns), summarize(fullRuns), summarize(bareRuns)

	res.pages = 10000
	res.appendEarly, res.appendLarge, res.appendSmall, err = benchPageAppend(ctx, svc, db, owner, fx.orgID, res.pages)
	if err != nil {
		return res, fmt.Errorf("page append: %w", err)
	}
	return res, nil
}

// emptyOrg creates an organization with no spaces, administered by u.
func emptyOrg(ctx context.Context, st quire.Store, u *quire.User, round int) (string, error) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	o := &quire.Organization{ID: quire.NewID(), Title: fmt.Sprintf("Empty %d", round), CreatedAt: now,
		Type: "business", DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
	if err := st.CreateOrganization(ctx, o); err != nil {
		return "", err
	}
	if err := st.AddMember(ctx, &quire.Member{OrgID: o.ID, User: *u, Role: quire.RoleAdmin, JoinedAt: now}); err != nil {
		return "", err
	}
	return o.ID, nil
}

// openWriter opens the engine's database as its store's writer does: on
// SQLite one connection with the same pragmas.
func openWriter(eng *engine) (*sql.DB, error) {
	if eng.cfg.DatabaseURL != "" {
		return sql.Open("pgx", eng.cfg.DatabaseURL)
	}
	db, err := sql.Open("sqlite", eng.cfg.DataDir+"/quire.db?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// serveInsert creates the bench_insert table in db, the engine's
// database, and serves insertHandler on a new loopback listener; it
// returns the server's base URL and what stops it.
func serveInsert(ctx context.Context, eng *engine, db *sql.DB, orgID string, answer []byte, contentType string) (string, func(), error) {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_insert
		(id TEXT PRIMARY KEY, org_id TEXT NOT NULL, title TEXT NOT NULL, position TEXT NOT NULL, created_at BIGINT NOT NULL)`); err != nil {
		return "", nil, fmt.Errorf("creating the bare insert table: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	insert := "INSERT INTO bench_insert (id, org_id, title, position, created_at) VALUES (?, ?, ?, ?, ?)"
	if eng.cfg.DatabaseURL != "" {
		insert = sqlstore.RebindDollar(insert)
	}
	return "http://" + ln.Addr().String(), serve(ln, insertHandler(db, insert, orgID, answer, contentType)), nil
}

// insertHandler is the bare write: it reads the request, inserts one row
// and answers 201 with the given bytes, nothing else.
func insertHandler(db *sql.DB, insert, orgID string, answer []byte, contentType string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		id := quire.NewID()
		if _, err := db.ExecContext(r.Context(), insert, id, orgID, "Bench space", id, time.Now().UnixMilli()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(answer)
	})
}

// appendWindow is what the batches of one measured window cost: the
// median time per page, and the objects and bytes stored per page.
type appendWindow struct {
	perPage time.Duration
	times   []time.Duration // per page, of each batch
	stored  appendStored
}

// appendWindowBatches is how many batches each measured window of the
// page append measure takes its median over.
const appendWindowBatches = 20

// benchPageAppend appends n pages under one parent page in a new space,
// then 100 pages and a few batches more under a parent in each of a few
// other new spaces, and measures the batches written after about 100
// siblings in the first space (while the database is still small), the
// last ones in the first space, near n siblings, and those after about
// 100 siblings in the other spaces, whose database already holds
// everything the first space wrote. The last two differ only in the
// number of siblings, so they are the pair the target compares; the
// first shows what the database's own growth adds.
func benchPageAppend(ctx context.Context, svc *service.Service, db *sql.DB, u *quire.User, orgID string, n int) (early, large, small appendWindow, err error) {
	const perSpace = 5 // measured batches per small space
	w, err := appendPages(ctx, svc, db, u, orgID, "Appends", n, func(done int) int {
		switch {
		case done >= 100 && done < 100+perSpace*appendBatch:
			return 0
		case done >= n-appendWindowBatches*appendBatch:
			return 1
		}
		return -1
	})
	if err != nil {
		return early, large, small, err
	}
	var smalls []appendWindow
	for i := 0; i < appendWindowBatches/perSpace; i++ {
		w2, err := appendPages(ctx, svc, db, u, orgID, fmt.Sprintf("Appends next to a large space %d", i+1), 100+perSpace*appendBatch, func(done int) int {
			if done >= 100 {
				return 0
			}
			return -1
		})
		if err != nil {
			return early, large, small, err
		}
		smalls = append(smalls, w2[0])
	}
	return w[0], w[1], mergeWindows(smalls), nil
}

// mergeWindows combines windows of the same size: the median of their
// times per page and the mean of what they stored per page.
func mergeWindows(ws []appendWindow) appendWindow {
	var out appendWindow
	var times []time.Duration
	for _, w := range ws {
		times = append(times, w.times...)
		out.stored.objects += w.stored.objects / float64(len(ws))
		out.stored.bytes += w.stored.bytes / float64(len(ws))
	}
	out.times, out.perPage = times, medianDuration(times)
	return out
}

// appendPages appends n pages, one after another, under one parent page
// of a change request in a new space titled title, appendBatch to a write.
// window gives the measured window (0 or 1) of the batch that starts
// after done pages, or -1; the result holds each window's median time per
// page and what its batches stored per page, counted in db outside the
// timed writes.
func appendPages(ctx context.Context, svc *service.Service, db *sql.DB, u *quire.User, orgID, title string, n int, window func(done int) int) ([2]appendWindow, error) {
	var out [2]appendWindow
	sp, err := svc.CreateSpace(ctx, u, orgID, service.SpaceInput{Title: title})
	if err != nil {
		return out, err
	}
	cr, err := svc.CreateChangeRequest(ctx, u, sp.Space.ID, "appends")
	if err != nil {
		return out, err
	}
	parentTitle, md := "Parent", "Some text for this page.\n"
	doc := &service.DocumentInput{Markdown: &md}
	_, res, err := svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, []service.ContentChange{{
		Operation: service.OpInsertPage, Fields: service.PageFields{Title: &parentTitle}, Document: doc}})
	if err != nil {
		return out, err
	}
	parent := res[0].PageID
	var (
		times  [2][]time.Duration
		stored [2]struct{ objects, bytes, pages int64 }
	)
	for done := 0; done < n; done += appendBatch {
		batch := make([]service.ContentChange, 0, appendBatch)
		for i := done; i < min(done+appendBatch, n); i++ {
			t := fmt.Sprintf("Page %d", i)
			batch = append(batch, service.ContentChange{Operation: service.OpInsertPage, Into: &parent,
				Fields: service.PageFields{Title: &t}, Document: doc})
		}
		win := window(done)
		var beforeN int
		var beforeB int64
		if win >= 0 {
			if beforeN, beforeB, err = objectStats(ctx, db); err != nil {
				return out, err
			}
		}
		start := time.Now()
		if _, _, err := svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, batch); err != nil {
			return out, err
		}
		per := time.Since(start) / time.Duration(len(batch))
		if win >= 0 {
			afterN, afterB, err := objectStats(ctx, db)
			if err != nil {
				return out, err
			}
			s := &stored[win]
			s.objects, s.bytes, s.pages = s.objects+int64(afterN-beforeN), s.bytes+afterB-beforeB, s.pages+int64(len(batch))
			times[win] = append(times[win], per)
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
	for i := range out {
		if stored[i].pages == 0 {
			continue
		}
		out[i] = appendWindow{perPage: medianDuration(times[i]), times: times[i], stored: appendStored{
			objects: float64(stored[i].objects) / float64(stored[i].pages),
			bytes:   float64(stored[i].bytes) / float64(stored[i].pages),
		}}
	}
	if len(times[0]) == 0 {
		return out, errors.New("too few pages to measure")
	}
	return out, nil
}

// printCreates reports the write figures of one engine.
func printCreates(w io.Writer, engine string, r createsResult, readRatio float64) {
	fmt.Fprintf(w, "\n%-8s  POST /v1/orgs/{id}/spaces: empty org %.0f rps (p99 %s), %d spaces %.0f rps (p99 %s), bare insert %.0f rps (p99 %s)\n",
		engine, r.empty.rps, ms(r.empty.p99), r.fullSpaces, r.full.rps, ms(r.full.p99), r.bare.rps, ms(r.bare.p99))
	ratio := 0.0
	if r.empty.rps > 0 {
		ratio = r.full.rps / r.empty.rps
	}
	fmt.Fprintf(w, "%-8s  creates with %d spaces / in an empty org: %.2f (target >= 0.8)\n", engine, r.fullSpaces, ratio)
	fmt.Fprintf(w, "%-8s  create ratio to the bare insert: %.3f; read ratio (GET /v1/spaces/{id}) to the bare handler: %.3f\n",
		engine, r.full.rps/max(r.bare.rps, 1e-9), readRatio)
	fmt.Fprintf(w, "%-8s  page append, per page: %s after ~100 siblings and %s after ~%d in the same database: ratio %.2f\n",
		engine, ms(r.appendSmall.perPage), ms(r.appendLarge.perPage), r.pages,
		float64(r.appendLarge.perPage)/float64(max(r.appendSmall.perPage, 1)))
	fmt.Fprintf(w, "%-8s  page append, per page: %s after ~100 siblings while the database was still small\n",
		engine, ms(r.appendEarly.perPage))
	for _, x := range []struct {
		name string
		a    appendWindow
	}{{"~100 siblings, small database", r.appendEarly}, {"~100 siblings", r.appendSmall}, {fmt.Sprintf("~%d siblings", r.pages), r.appendLarge}} {
		fmt.Fprintf(w, "%-8s  page append stores per page after %s: %.1f objects, %.0f bytes\n", engine, x.name, x.a.stored.objects, x.a.stored.bytes)
	}
}
