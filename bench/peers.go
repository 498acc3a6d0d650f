package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"quire/internal/ratelimit"
)

// peerSettle is how long the servers stay idle before their resident
// memory is read, so that what a burst of work left behind can settle.
const peerSettle = 5 * time.Second

// peerCase is one case of the peer benchmark: its key, which names the
// targets of peerAPI.caseTarget, and its name in the table.
type peerCase struct {
	key, name string
}

// peerCases are the cases of the peer benchmark, in the order they run.
func peerCases() []peerCase {
	return []peerCase{
		{"get", "GET by id"},
		{"create", "create"},
		{"list", "list of 100"},
		{"update", "update"},
	}
}

// Moments at which the peer benchmark reads each server's resident memory.
const (
	memStarted = iota // started and set up, empty, idle peerSettle
	memSeeded         // seeded, idle peerSettle
	memAfter          // after the last run
	memMoments
)

// peerServer is one server process under load in the peer benchmark.
type peerServer struct {
	name string // "quire sqlite", "quire postgres" or "pocketbase"
	proc *process
	api  peerAPI
	ids  []string                   // the seeded records
	mem  [memMoments]residentMemory // resident memory at each moment
	runs map[string][]runStats      // per case key, one per round
}

// benchPeers measures Quire beside PocketBase, each its own process built
// from source, serving the same four cases to the same loader: a record
// read by id, a create, a first page of 100 and an update, Quire's
// requests authenticated by an admin's API token and PocketBase's public
// (its collection's rules let anyone in). Quire runs once per engine in
// names (SQLite, and PostgreSQL when asked), PocketBase on its SQLite.
//
// Each server gets cfg.spaces records through its own API, then every
// case runs on every server, the servers taking turns in each round and
// swapping order every other round; the table shows each case's median
// over the rounds and Quire's throughput as a share of PocketBase's.
// An update run writes a title new to the records it reaches (unless a
// run sends more updates than there are records). Resident memory is
// read when the servers have started, after seeding and after the runs.
func benchPeers(ctx context.Context, cfg config, names []string, w io.Writer) (err error) {
	began := time.Now()
	fmt.Fprintf(w, "\nPeers: quire beside PocketBase, %d connections, %s per run, %d rounds, %d records each\n",
		cfg.peerConcurrency, perRun(cfg), cfg.rounds, cfg.spaces)
	dir, err := os.MkdirTemp("", "quire-peers-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(dir)) }()
	bins, err := buildPeers(ctx, dir, w)
	if err != nil {
		return err
	}
	ld := newLoader(cfg.peerConcurrency)
	defer ld.close()

	servers, stop, err := startPeers(ctx, cfg, names, bins, dir, ld)
	defer func() { err = errors.Join(err, stop()) }()
	if err != nil {
		return err
	}
	if err := readMemory(ctx, servers, memStarted); err != nil {
		return err
	}
	for _, s := range servers {
		if err := seedServer(ctx, ld, s, cfg.spaces, w); err != nil {
			return err
		}
	}
	if err := readMemory(ctx, servers, memSeeded); err != nil {
		return err
	}
	if err := checkPeerAnswers(ctx, ld, servers, w); err != nil {
		return err
	}
	if err := runPeerRounds(ctx, cfg, ld, servers, w); err != nil {
		return err
	}
	for _, s := range servers {
		if s.mem[memAfter], err = s.proc.rss(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	printPeers(w, servers, bins.pbVersion)
	fmt.Fprintf(w, "peers: the section took %s, builds included\n", time.Since(began).Round(time.Second))
	return ctx.Err()
}

// perRun describes the length of each measured run.
func perRun(cfg config) string {
	if cfg.requests > 0 {
		return fmt.Sprintf("%d requests", cfg.requests)
	}
	return cfg.duration.String()
}

// startPeers starts a quire per engine in names, then PocketBase, each on
// a new data directory under dir, and waits until each answers. stop
// stops every server started, even when err is not nil, and drops
// PostgreSQL's database.
func startPeers(ctx context.Context, cfg config, names []string, bins peerBinaries, dir string, ld *loader) (servers []*peerServer, stop func() error, err error) {
	var cleanups []func() error
	stop = func() error {
		var errs []error
		for _, c := range slices.Backward(cleanups) {
			errs = append(errs, c())
		}
		return errors.Join(errs...)
	}
	add := func(s *peerServer, err error) error {
		if s != nil && s.proc != nil {
			servers = append(servers, s)
			cleanups = append(cleanups, s.proc.stop)
		}
		return err
	}
	for _, name := range names {
		databaseURL := ""
		if name == "postgres" {
			eng, err := postgresEngine(ctx, cfg.postgresURL)
			if err != nil {
				return servers, stop, err
			}
			cleanups = append(cleanups, eng.cleanup)
			databaseURL = eng.cfg.DatabaseURL
		}
		if err := add(startQuire(ctx, ld, bins.quire, dir, name, databaseURL)); err != nil {
			return servers, stop, err
		}
	}
	return servers, stop, add(startPocketBase(ctx, ld, bins.pocketbase, dir))
}

// startQuire starts `quire serve` on a new data directory, on SQLite or on
// the PostgreSQL database at databaseURL, and finds the organization and
// token it bootstrapped.
func startQuire(ctx context.Context, ld *loader, bin, dir, engine, databaseURL string) (*peerServer, error) {
	data := filepath.Join(dir, "quire-"+engine)
	if err := os.Mkdir(data, 0o700); err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	s := &peerServer{name: "quire " + engine, runs: map[string][]runStats{}}
	s.proc, err = startProcess(s.name, data+".log", bin,
		"serve", "--addr", addr, "--data", data, "--database="+databaseURL,
		// The rate limiter counts every request, at a limit the load never
		// reaches (PocketBase's is off by default).
		fmt.Sprintf("--rate-limit=%d/1m", ratelimit.MaxRequests))
	if err != nil {
		return nil, err
	}
	if err := s.proc.waitReady(ctx, ld.client, "http://"+addr+"/readyz"); err != nil {
		return s, err
	}
	s.api, err = quireAPI(ctx, ld, "http://"+addr, data)
	return s, err
}

// startPocketBase creates PocketBase's superuser on a new data directory,
// starts `pocketbase serve` on it and creates the collection of spaces.
func startPocketBase(ctx context.Context, ld *loader, bin, dir string) (*peerServer, error) {
	data := filepath.Join(dir, "pocketbase")
	if err := runOnce(ctx, bin, "superuser", "upsert", pbEmail, pbPassword, "--dir", data); err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	s := &peerServer{name: "pocketbase", runs: map[string][]runStats{}}
	s.proc, err = startProcess(s.name, data+".log", bin, "serve", "--http", addr, "--dir", data)
	if err != nil {
		return nil, err
	}
	if err := s.proc.waitReady(ctx, ld.client, "http://"+addr+"/api/health"); err != nil {
		return s, err
	}
	s.api, err = pocketbaseAPI(ctx, ld, "http://"+addr)
	return s, err
}

// readMemory waits peerSettle, then reads every server's resident memory
// at moment m.
func readMemory(ctx context.Context, servers []*peerServer, m int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(peerSettle):
	}
	for _, s := range servers {
		rss, err := s.proc.rss()
		if err != nil {
			return err
		}
		s.mem[m] = rss
	}
	return nil
}

// seedServer creates n records in s through its API and reports the rate.
func seedServer(ctx context.Context, ld *loader, s *peerServer, n int, w io.Writer) error {
	began := time.Now()
	ids, err := seedPeer(ctx, ld, s.api, n)
	if err != nil {
		return fmt.Errorf("seeding %s: %w", s.name, err)
	}
	took := time.Since(began)
	s.ids = ids
	fmt.Fprintf(w, "peers: seeded %d records in %s in %s (%.0f/s)\n", n, s.name, took.Round(time.Millisecond), float64(n)/took.Seconds())
	return nil
}

// checkPeerAnswers fetches one record and the list page of each server
// once: it reports the size of each answer, so the table's figures can be
// read against what each server sends, and makes sure the page holds 100
// records.
func checkPeerAnswers(ctx context.Context, ld *loader, servers []*peerServer, w io.Writer) error {
	for _, s := range servers {
		one, _, err := ld.capture(ctx, s.api.caseTarget("get", s.ids[:1], 0), s.api.records+s.ids[0])
		if err != nil {
			return fmt.Errorf("%s: reading a record: %w", s.name, err)
		}
		list, _, err := ld.capture(ctx, s.api.caseTarget("list", nil, 0), s.api.list)
		if err != nil {
			return fmt.Errorf("%s: reading the list: %w", s.name, err)
		}
		if err := checkItems(list, 100); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Fprintf(w, "peers: %s answers a record in %d bytes, a page of 100 in %d bytes\n", s.name, len(one), len(list))
	}
	return nil
}

// runPeerRounds warms every case up on every server, then runs the
// rounds: each case on each server in turn, in the order of servers in
// odd rounds and the reverse in even ones, so no server always runs on a
// machine another just heated.
func runPeerRounds(ctx context.Context, cfg config, ld *loader, servers []*peerServer, w io.Writer) error {
	if cfg.warmup > 0 {
		for _, c := range peerCases() {
			for _, s := range servers {
				t := s.api.caseTarget(c.key, s.ids, 0)
				if err := check(s.name+" "+c.name+" warm-up", ld.run(ctx, t, cfg.warmup, 0)); err != nil {
					return err
				}
			}
		}
	}
	for round := 1; round <= cfg.rounds; round++ {
		order := slices.Clone(servers)
		if round%2 == 0 {
			slices.Reverse(order)
		}
		for _, c := range peerCases() {
			for _, s := range order {
				r := ld.run(ctx, s.api.caseTarget(c.key, s.ids, round), cfg.duration, cfg.requests)
				if err := check(s.name+" "+c.name, r); err != nil {
					return err
				}
				s.runs[c.key] = append(s.runs[c.key], r)
			}
			printPeerRound(w, servers, c, round)
		}
	}
	return nil
}

// printPeerRound writes one round of a case on every server, so noise
// between rounds shows.
func printPeerRound(w io.Writer, servers []*peerServer, c peerCase, round int) {
	fmt.Fprintf(w, "  %-12s round %d:", c.name, round)
	for i, s := range servers {
		r := s.runs[c.key][len(s.runs[c.key])-1]
		sep := " |"
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %6.0f rps p99 %-8s", sep, s.name, r.rps(), ms(r.p99))
	}
	fmt.Fprintln(w)
}

// printPeers writes the table of the cases, a row per case and quire
// engine beside PocketBase's figures, then resident memory.
func printPeers(w io.Writer, servers []*peerServer, pbVersion string) {
	quires, pb := servers[:len(servers)-1], servers[len(servers)-1]
	const format = "%-12s  %-8s  %9s  %9s  %14s  %9s  %6s\n"
	fmt.Fprintf(w, "Quire beside PocketBase %s (median over the rounds; ratio = quire rps / pocketbase rps)\n", pbVersion)
	fmt.Fprintf(w, format, "case", "quire on", "quire_rps", "quire_p99", "pocketbase_rps", "pb_p99", "ratio")
	for _, c := range peerCases() {
		p := summarize(pb.runs[c.key])
		for _, q := range quires {
			s := summarize(q.runs[c.key])
			fmt.Fprintf(w, format, c.name, strings.TrimPrefix(q.name, "quire "), fmt.Sprintf("%.0f", s.rps), ms(s.p99),
				fmt.Sprintf("%.0f", p.rps), ms(p.p99), fmt.Sprintf("%.3f", s.rps/max(p.rps, 1e-9)))
		}
	}
	fmt.Fprintln(w)
	const memFormat = "%-30s  %16s  %16s  %16s\n"
	idle := fmt.Sprintf("seeded, %s idle", peerSettle)
	for _, part := range []struct {
		name string
		of   func(residentMemory) int64
	}{
		{"resident memory (VmRSS)", func(m residentMemory) int64 { return m.rss }},
		{"of it anonymous (RssAnon)", func(m residentMemory) int64 { return m.anon }},
	} {
		fmt.Fprintf(w, memFormat, part.name, "started, idle", idle, "after the runs")
		for _, s := range servers {
			fmt.Fprintf(w, memFormat, s.name, mib(part.of(s.mem[memStarted])), mib(part.of(s.mem[memSeeded])), mib(part.of(s.mem[memAfter])))
		}
		for _, q := range quires {
			ratio := func(m int) string {
				return fmt.Sprintf("%.2f", float64(part.of(q.mem[m]))/max(float64(part.of(pb.mem[m])), 1))
			}
			fmt.Fprintf(w, memFormat, q.name+" / pocketbase", ratio(memStarted), ratio(memSeeded), ratio(memAfter))
		}
	}
}

// mib formats a size in bytes in mebibytes.
func mib(b int64) string {
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}
