// Command bench measures how close Quire's read endpoints come to the
// ceiling set by the HTTP stack itself.
//
// It seeds an organization with 10,000 spaces (-spaces) and loads two
// endpoints:
//
//	GET /v1/spaces/{id}                  one space, cycling over all of them
//	GET /v1/orgs/{id}/spaces?limit=100   the first page of the space list
//
// Each is served twice in the same process, each over its own loopback
// TCP listener and net/http server: once by the real API handler
// (authentication, rate limit, access check, store, JSON; the rate limit
// counts every request at a limit the load never reaches), and once by a
// bare handler
// that writes the bytes the real handler answered, captured once, with the
// same Content-Type. The same load generator (one keep-alive client, C
// concurrent workers) drives both, in alternating runs after a warm-up,
// and each figure is the median over the rounds.
//
// The ratio column is quire's median throughput divided by the bare
// handler's.
// The bare handler costs only the server, the client and the bytes on
// loopback, so the ratio is the share of the stack's capacity left once
// Quire's own work is added: 1.0 would mean Quire's work is free, 0.5 that
// it costs as much CPU as everything else together. On a 2-core machine
// the load generator shares the CPUs with the server, which both handlers
// pay alike. The target is a ratio of at least 0.5 for the single read on
// SQLite; it is reported, not asserted.
//
// Last, on a fresh database of each engine, -merge-writers change
// requests of one space, each adding a different child page, are merged
// at the same moment over HTTP (bench/merges.go): merges per second, the
// merges answered 409 (goal 0) and PostgreSQL's rate as a share of
// SQLite's (goal at least 0.5). -sections merges runs that part alone.
//
// Then, on a fresh database of each engine, -writers (16) concurrent
// writers load writes over HTTP (bench/writes.go): a page edit (each
// writer replacing the Markdown of the same page in a change request of
// its own), a space comment, and the merge of a one-page change, each in
// alternating rounds with the bare insert of the creates section; each
// prints its rate, p99, errors and 409 answers and its rate as a share of
// the bare insert's (goal at least 0.5). A merge run merges a fixed
// number of change requests prepared before it, 32 per writer or -n,
// since each merges only once (see benchWrites). Last, the p99 of
// GET /v1/spaces/{id} at 8 readers alone and while half the writers
// create spaces and the other half merge (goal: at most twice).
// -sections writes runs that part alone.
//
// Then, on a fresh database of each engine, a generated GitBook
// repository of 1,000 pages and 100 images is imported from a local
// remote end to end, and the space exported to another (bench/gitsync.go;
// goal at most 2 s each). -sections gitsync runs that part alone.
//
// Then a generated repository of about 500 MB in 1,300 files (images,
// GIFs and videos of random bytes) is served over smart HTTP by the git
// binary and imported end to end on each engine (bench/gitlarge.go):
// the import time (goal under 60 s), this process's resident memory
// growth while it runs (goal under 200 MB) and the time of a re-import of
// the same commit. The space is then exported to a new repository, which
// must hold the source's files byte for byte, and that export imported
// into a new space and exported again, which must give the same files
// once more; the exports' time and memory growth are printed.
// -sections gitlarge runs that part alone.
//
// Then, on a fresh database of each engine, the web app's pages are
// timed in-process for an organization of 1,000 spaces in collections and
// a space of 10,000 pages (bench/app.go; goal p50 under 20 ms and p99
// under 100 ms on every page), each beside the published reader's cached
// page. -sections app runs that part alone.
//
// Last, on a fresh database of each engine, space searches run over an
// index of 100,000 generated pages (p50 and p99; goal p99 at most 20 ms
// on SQLite), and the index follows a merge changing one page in real
// spaces of two sizes (goal: the same time at both) (bench/search.go).
// -sections search runs that part alone.
//
// Finally, Quire is measured beside a peer, PocketBase, each built from
// source (PocketBase from its own module in bench/peers/pocketbase) and
// run as its own process on a fresh data directory (bench/peers.go).
// Each gets -spaces records through its own API, then the same loader,
// at -peer-c connections, reads a record by id, creates one, lists a
// first page of 100 and updates one on each in turn: requests per
// second, p99, Quire's throughput as a share of PocketBase's, and each
// server's resident memory when started, seeded and after the runs.
// Quire runs on SQLite and, with PostgreSQL named, on PostgreSQL too.
// -sections peers (make bench-peers) runs that part alone.
//
// The footprint section starts one quire serve on SQLite and reads its
// resident memory idle, after 1,000 pages written through the API and
// under -d of page reads at -peer-c connections, and the disk its data
// directory takes per 1,000 pages (bench/footprint.go).
// -sections footprint runs that part alone.
//
// The default engine is SQLite in a temporary directory. With
// QUIRE_TEST_POSTGRES_URL set, or -postgres URL, the benchmark also runs
// on PostgreSQL in a new database that it drops at the end; -no-sqlite
// leaves SQLite out. -cpuprofile
// writes a CPU profile of an extra quire run of one case (-profile-case
// single, list, or reader for the site reader's rendered page), for
// go tool pprof -top. The program exits non-zero only when something
// fails, including any request not answered 200 or a list page that does
// not hold the 100 items asked for.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"quire/internal/httpapi"
	"quire/internal/ratelimit"
	"quire/internal/service"
	"quire/internal/store"
)

// config holds the command line.
type config struct {
	concurrency   int
	duration      time.Duration
	requests      int
	warmup        time.Duration
	rounds        int
	spaces        int
	postgresURL   string
	cpuprofile    string
	profileEngine string
	profileCase   string
	profilePage   string
	merges        int
	skipContent   bool
	sections      string
	mergeWriters  int
	writers       int
	noSQLite      bool
	largeShare    float64
	// peerConcurrency is the connections of the peer benchmark.
	peerConcurrency int
}

// on reports whether the command line selects a section of the benchmark.
func (c config) on(section string) bool {
	return c.sections == "all" || slices.Contains(strings.Split(c.sections, ","), section)
}

// benchCase is one endpoint under load, with the quire and bare targets
// serving it.
type benchCase struct {
	key, name   string
	quire, bare target
}

// main runs the benchmark and exits 1 on any failure, 2 on a bad command
// line.
func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	} else if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = run(ctx, cfg, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line into a config.
func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.IntVar(&c.concurrency, "c", 8, "concurrent workers")
	fs.DurationVar(&c.duration, "d", 2*time.Second, "length of each measured run")
	fs.IntVar(&c.requests, "n", 0, "requests per measured run; when set, replaces -d")
	fs.DurationVar(&c.warmup, "warmup", 500*time.Millisecond, "warm-up per case and handler before the rounds")
	fs.IntVar(&c.rounds, "rounds", 3, "rounds of alternating bare and quire runs; the median is reported")
	fs.IntVar(&c.spaces, "spaces", 10000, "spaces to seed")
	fs.StringVar(&c.postgresURL, "postgres", os.Getenv("QUIRE_TEST_POSTGRES_URL"),
		"PostgreSQL server URL to also run on (default $QUIRE_TEST_POSTGRES_URL)")
	fs.StringVar(&c.cpuprofile, "cpuprofile", "", "write a CPU profile of an extra quire run to this file")
	fs.StringVar(&c.profileEngine, "profile-engine", "sqlite", "engine profiled by -cpuprofile: sqlite or postgres")
	fs.StringVar(&c.profileCase, "profile-case", "single", "case profiled by -cpuprofile: single or list, create for the space create, reader for the site reader's rendered page, app for a page of the app (-profile-page), or preview, save or live-save for the editor section's requests")
	fs.StringVar(&c.profilePage, "profile-page", "organization home", "app page profiled by -profile-case app, by its name in the app section's table")
	fs.IntVar(&c.merges, "merges", 15, "merges timed per space size in the content benchmark")
	fs.BoolVar(&c.skipContent, "skip-content", false, "skip the content engine benchmark")
	fs.StringVar(&c.sections, "sections", "all", "comma-separated sections to run: documents, reads, lists, content, creates, merges, writes, gitsync, gitlarge, search, app, editor, reader, footprint, peers, or all")
	fs.IntVar(&c.mergeWriters, "merge-writers", 50, "concurrent merges into one space in the merge benchmark")
	fs.IntVar(&c.writers, "writers", 16, "concurrent writers in the writes section")
	fs.Float64Var(&c.largeShare, "large-share", 1, "share of the large repository's pages and files to generate in the gitlarge section, for a quick run")
	fs.IntVar(&c.peerConcurrency, "peer-c", 16, "concurrent connections of the peer benchmark")
	fs.BoolVar(&c.noSQLite, "no-sqlite", false, "run on PostgreSQL alone (needs -postgres)")
	err := fs.Parse(args)
	if err != nil {
		return c, err
	}
	switch {
	case c.concurrency < 1:
		err = errors.New("-c must be at least 1")
	case c.peerConcurrency < 1:
		err = errors.New("-peer-c must be at least 1")
	case c.rounds < 1:
		err = errors.New("-rounds must be at least 1")
	case c.spaces < 100:
		err = errors.New("-spaces must be at least 100, one full page")
	case c.requests <= 0 && c.duration <= 0:
		err = errors.New("-d must be positive when -n is not set")
	case c.merges < 1:
		err = errors.New("-merges must be at least 1")
	case c.mergeWriters < 1:
		err = errors.New("-merge-writers must be at least 1")
	case c.writers < 2:
		err = errors.New("-writers must be at least 2: reads under writes split them between creates and merges")
	case c.largeShare <= 0 || c.largeShare > 1:
		err = errors.New("-large-share must be above 0 and at most 1")
	case c.noSQLite && c.postgresURL == "":
		err = errors.New("-no-sqlite needs -postgres or $QUIRE_TEST_POSTGRES_URL")
	case c.profileCase != "single" && c.profileCase != "list" && c.profileCase != "reader" && c.profileCase != "app" &&
		c.profileCase != "preview" && c.profileCase != "save" && c.profileCase != "live-save" && c.profileCase != "create":
		err = errors.New("-profile-case must be single, list, create, reader, app, preview, save or live-save")
	}
	if err != nil {
		fmt.Fprintln(fs.Output(), err)
		fs.Usage()
	}
	return c, err
}

// run benchmarks every engine in turn, then prints the table.
func run(ctx context.Context, cfg config, w io.Writer) error {
	per := cfg.duration.String()
	if cfg.requests > 0 {
		per = fmt.Sprintf("%d requests", cfg.requests)
	}
	fmt.Fprintf(w, "quire bench: %s, GOMAXPROCS=%d, %d workers, %s per run, %d rounds, %d spaces\n",
		runtime.Version(), runtime.GOMAXPROCS(0), cfg.concurrency, per, cfg.rounds, cfg.spaces)
	if cfg.on("documents") {
		if err := benchDocuments(ctx, w); err != nil {
			return err
		}
	}

	var names []string
	if !cfg.noSQLite {
		names = append(names, "sqlite")
	}
	if cfg.postgresURL != "" {
		names = append(names, "postgres")
	}
	if !cfg.on("reads") && !cfg.on("lists") && !cfg.on("content") && !cfg.on("creates") {
		return benchAfterReads(ctx, cfg, names, w)
	}
	var rows []row
	for _, name := range names {
		r, err := runEngine(ctx, cfg, name, w)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, r...)
	}

	fmt.Fprintln(w)
	printTable(w, rows)
	for _, r := range rows {
		if r.engine == "sqlite" && r.name == "GET /v1/spaces/{id}" {
			verdict := "met"
			if r.ratio() < 0.5 {
				verdict = "missed"
			}
			fmt.Fprintf(w, "\ntarget ratio >= 0.50 for the single read on sqlite: %.3f, %s\n", r.ratio(), verdict)
		}
	}
	return benchAfterReads(ctx, cfg, names, w)
}

// benchAfterReads runs the sections that start their own databases: the
// concurrent merges, Git Sync, search, the app, the editor, the reader and
// the peer benchmark.
func benchAfterReads(ctx context.Context, cfg config, names []string, w io.Writer) error {
	if cfg.on("merges") {
		if err := benchMerges(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("writes") {
		if err := benchWrites(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("gitsync") {
		if err := benchGitSync(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("gitlarge") {
		if err := benchGitLarge(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("search") {
		if err := benchSearch(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("app") {
		if err := benchApp(ctx, cfg, names, w); err != nil {
			return err
		}
	}
	if cfg.on("editor") {
		if err := benchEditor(ctx, cfg, w); err != nil {
			return err
		}
	}
	if cfg.on("reader") {
		if err := benchReader(ctx, cfg, w); err != nil {
			return err
		}
	}
	if cfg.on("footprint") {
		if err := benchFootprint(ctx, cfg, w); err != nil {
			return err
		}
	}
	if cfg.on("peers") {
		return benchPeers(ctx, cfg, names, w)
	}
	return nil
}

// runEngine creates the engine's database, benchmarks it and removes it.
func runEngine(ctx context.Context, cfg config, name string, w io.Writer) (rows []row, err error) {
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	return benchEngine(ctx, cfg, eng, w)
}

// benchEngine seeds the engine's store, serves both handlers of each case
// and runs the rounds.
func benchEngine(ctx context.Context, cfg config, eng *engine, w io.Writer) (rows []row, err error) {
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the store: %w", err)
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.WithLogger(quiet))

	began := time.Now()
	fx, err := seed(ctx, st, svc, cfg.spaces)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "%s: seeded %d spaces in %s\n", eng.name, len(fx.spaceIDs), time.Since(began).Round(time.Millisecond))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	stopQuire := serve(ln, httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet, RateLimits: unreachedRateLimits(svc)}))
	defer stopQuire()

	ld := newLoader(cfg.concurrency)
	defer ld.close()

	one := make([]string, len(fx.spaceIDs))
	for i, id := range fx.spaceIDs {
		one[i] = "/v1/spaces/" + id
	}
	var specs []caseSpec
	if cfg.on("reads") {
		specs = append(specs, caseSpec{"single", "GET /v1/spaces/{id}", one, -1})
	}
	if cfg.on("lists") {
		lists, err := listCases(ctx, ld, target{base: base, token: fx.token}, fx.orgID)
		if err != nil {
			return nil, err
		}
		specs = append(specs, lists...)
	}
	var cases []benchCase
	for _, s := range specs {
		q := target{base: base, paths: s.paths, token: fx.token}
		body, ctype, err := ld.capture(ctx, q, s.paths[0])
		if err != nil {
			return nil, fmt.Errorf("capturing %s: %w", s.name, err)
		}
		bl, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		stopBare := serve(bl, bareHandler(body, ctype))
		defer stopBare()
		if err := checkItems(body, s.items); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Fprintf(w, "%s: %s answers %d bytes of %s\n", eng.name, s.name, len(body), ctype)
		cases = append(cases, benchCase{key: s.key, name: s.name, quire: q,
			bare: target{base: "http://" + bl.Addr().String(), paths: s.paths, token: fx.token}})
	}

	if cfg.warmup > 0 {
		for _, c := range cases {
			for _, t := range []target{c.bare, c.quire} {
				if err := check(c.name, ld.run(ctx, t, cfg.warmup, 0)); err != nil {
					return nil, fmt.Errorf("warm-up: %w", err)
				}
			}
		}
	}

	quireRuns := make([][]runStats, len(cases))
	bareRuns := make([][]runStats, len(cases))
	for round := 1; round <= cfg.rounds; round++ {
		for i, c := range cases {
			// Alternate which handler goes first, so neither always runs
			// on a machine the other just heated.
			var q, b runStats
			if round%2 == 1 {
				b = ld.run(ctx, c.bare, cfg.duration, cfg.requests)
				q = ld.run(ctx, c.quire, cfg.duration, cfg.requests)
			} else {
				q = ld.run(ctx, c.quire, cfg.duration, cfg.requests)
				b = ld.run(ctx, c.bare, cfg.duration, cfg.requests)
			}
			if err := errors.Join(check("quire "+c.name, q), check("bare "+c.name, b)); err != nil {
				return nil, err
			}
			printRound(w, eng.name, c.name, round, q, b)
			quireRuns[i] = append(quireRuns[i], q)
			bareRuns[i] = append(bareRuns[i], b)
		}
	}
	for i, c := range cases {
		rows = append(rows, row{engine: eng.name, name: c.name, quire: summarize(quireRuns[i]), bare: summarize(bareRuns[i])})
	}

	printLists(w, eng.name, rows, st)

	if cfg.on("creates") {
		res, err := benchCreates(ctx, cfg, eng, st, svc, base, fx, ld, w)
		if err != nil {
			return nil, fmt.Errorf("creates: %w", err)
		}
		read := 0.0
		for _, r := range rows {
			if r.name == "GET /v1/spaces/{id}" {
				read = r.ratio()
			}
		}
		printCreates(w, eng.name, res, read)
	}

	if !cfg.skipContent && cfg.on("content") {
		api := httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet})
		res, err := benchContent(ctx, cfg, eng, svc, api, fx.token, fx.orgID, w)
		if err != nil {
			return nil, fmt.Errorf("content: %w", err)
		}
		printContent(w, eng.name, res)
	}

	if cfg.cpuprofile != "" && cfg.profileEngine == eng.name && cfg.profileCase != "reader" && cfg.profileCase != "app" {
		for _, c := range cases {
			if c.key == cfg.profileCase {
				if err := profile(ctx, cfg, ld, c, w); err != nil {
					return nil, err
				}
			}
		}
	}
	return rows, ctx.Err()
}

// checkItems makes sure a list body holds the page size asked for, so the
// case measures what its name says; want < 0 skips the check.
func checkItems(body []byte, want int) error {
	if want < 0 {
		return nil
	}
	var l struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		return fmt.Errorf("decoding the list: %w", err)
	}
	if len(l.Items) != want {
		return fmt.Errorf("the list answered %d items, want %d", len(l.Items), want)
	}
	return nil
}

// check turns failed requests of a run into an error.
func check(name string, s runStats) error {
	if s.errors == 0 {
		return nil
	}
	return fmt.Errorf("%s: %d of %d requests failed; first: %w",
		name, s.errors, s.errors+s.requests, s.firstErr)
}

// profile writes a CPU profile of one more quire run of c.
func profile(ctx context.Context, cfg config, ld *loader, c benchCase, w io.Writer) error {
	f, err := os.Create(cfg.cpuprofile)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	s := ld.run(ctx, c.quire, cfg.duration, cfg.requests)
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return err
	}
	if err := check("profiled "+c.name, s); err != nil {
		return err
	}
	fmt.Fprintf(w, "CPU profile of %d quire requests of %s written to %s\n", s.requests, c.name, cfg.cpuprofile)
	return nil
}

// serve serves h on ln until the returned function is called.
func serve(ln net.Listener, h http.Handler) (stop func()) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }
}

// unreachedRateLimits are a server's default rate limits with the API's
// raised beyond any load of the benchmark: each request pays for being
// counted, as on a real server, and none is refused.
func unreachedRateLimits(svc *service.Service) *service.RateLimits {
	cfg := service.DefaultRateLimits()
	cfg.Caller = ratelimit.PerMinute(ratelimit.MaxRequests)
	cfg.Address = cfg.Caller
	return service.NewRateLimits(svc, cfg)
}
