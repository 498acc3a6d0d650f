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

// createsResult holds the write figures of one engine.
type createsResult struct {
	empty, full, bare summary
	fullSpaces        int
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
	full, bare, stopBare, err := createTargets(ctx, eng, ld, base, fx)
	if err != nil {
		return res, err
	}
	defer stopBare()

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
		empty := target{base: base, paths: []string{"/v1/orgs/" + orgID + "/spaces"}, token: fx.token, body: full.body}
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

	if cfg.cpuprofile != "" && cfg.profileCase == "create" && cfg.profileEngine == eng.name {
		c := benchCase{key: "create", name: "POST /v1/orgs/{id}/spaces", quire: full}
		if err := profile(ctx, cfg, ld, c, w); err != nil {
			return res, err
		}
	}
	return res, nil
}

// createTargets returns the space create in the seeded organization and,
// beside it, the bare insert answering the bytes that create answered;
// stop closes the bare server and its database.
func createTargets(ctx context.Context, eng *engine, ld *loader, base string, fx *fixture) (create, bare target, stop func(), err error) {
	create = target{base: base, paths: []string{"/v1/orgs/" + fx.orgID + "/spaces"}, token: fx.token,
		body: []byte(`{"title":"Bench space"}`)}
	answer, ctype, err := ld.capture(ctx, create, create.paths[0])
	if err != nil {
		return create, bare, nil, fmt.Errorf("capturing a create: %w", err)
	}
	db, err := openWriter(eng)
	if err != nil {
		return create, bare, nil, err
	}
	bareBase, stopBare, err := serveInsert(ctx, eng, db, fx.orgID, answer, ctype)
	if err != nil {
		return create, bare, nil, errors.Join(err, db.Close())
	}
	bare = target{base: bareBase, paths: create.paths, token: fx.token, body: create.body}
	return create, bare, func() { stopBare(); _ = db.Close() }, nil
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
}
