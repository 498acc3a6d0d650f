package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"time"

	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

const (
	// writesReaders is how many workers read GET /v1/spaces/{id} in the
	// reads-under-writes measure.
	writesReaders = 8
	// writesReadSpaces is how many spaces the readers cycle over.
	writesReadSpaces = 100
	// mergeRunPerWriter is how many merges a measured merge run sends
	// per writer when -n is not set.
	mergeRunPerWriter = 32
	// mergeWarmupPerWriter is how many merges per writer warm the merge
	// path up.
	mergeWarmupPerWriter = 4
	// maxMergeBatch bounds the change requests prepared for the merges
	// that run beside the readers, whatever the measured rate.
	maxMergeBatch = 20000
)

// writeOp is one write case's figures on one engine: the medians over the
// rounds, and the failed requests and 409 answers summed over them.
type writeOp struct {
	name      string
	s         summary
	errors    int
	conflicts int
}

// writesResult is one engine's figures of the writes section.
type writesResult struct {
	engine string
	// ops holds the page edit, the comment, the merge and last the bare
	// insert.
	ops []writeOp
	// mergeRun is how many change requests each measured merge run
	// merges, and mergeLoad how many the merges beside the readers do.
	mergeRun, mergeLoad int
	// idle and loaded are the median p99 of the single space read alone
	// and under the writers.
	idle, loaded time.Duration
	// creates and merges are the writers' median rates while the readers
	// ran with them.
	creates, merges float64
}

// benchWrites measures, on a fresh database of each engine, writes over
// HTTP at cfg.writers concurrent writers beside the bare insert, then the
// single space read alone and under writers, and prints each engine's
// figures.
//
// A change request merges only once, so each merge run merges change
// requests prepared before it, untimed: a fixed count, -n when set, else
// mergeRunPerWriter per writer, rather than as many as a trial's rate
// would fill -d with. Every one of them is based on the main revision of
// before the run, and the k-th merges into a main that the merges before
// it grew and moved away from that base, so a merge costs more the
// further into its run it comes: on SQLite, on a shared 2-core machine,
// runs of 128 merged about 1,000 a second and runs of 2,000 about 300,
// while 128 merges out of 2,000 change requests prepared still ran at
// about 1,000 (open change requests alone cost little). A count sized
// from a rate would make the figure depend on -d and on the machine's
// speed; a fixed count keeps every run's merges equally far behind main.
// The merges that load the readers, which must last as long as they do,
// are instead as many as the merge runs' median rate sends in -d.
func benchWrites(ctx context.Context, cfg config, names []string, w io.Writer) error {
	for _, name := range names {
		res, err := writesOn(ctx, cfg, name, w)
		if err != nil {
			return fmt.Errorf("%s: writes: %w", name, err)
		}
		printWrites(w, cfg, res)
	}
	return nil
}

// writesOn runs the writes section on a fresh database of one engine.
func writesOn(ctx context.Context, cfg config, name string, w io.Writer) (res writesResult, err error) {
	res.engine = name
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.WithLogger(quiet))
	fx, err := seed(ctx, st, svc, writesReadSpaces)
	if err != nil {
		return res, err
	}
	u, err := svc.Authenticate(ctx, fx.token)
	if err != nil {
		return res, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	base := "http://" + ln.Addr().String()
	stop := serve(ln, httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet}))
	defer stop()
	ld := newLoader(cfg.writers)
	defer ld.close()

	create, bare, stopBare, err := createTargets(ctx, eng, ld, base, fx)
	if err != nil {
		return res, err
	}
	defer stopBare()

	edit, err := pageEditTarget(ctx, svc, u, fx, base, cfg.writers)
	if err != nil {
		return res, fmt.Errorf("preparing the page edits: %w", err)
	}
	comment, err := commentTarget(ctx, svc, u, fx, base)
	if err != nil {
		return res, fmt.Errorf("preparing the comments: %w", err)
	}
	res.mergeRun = mergeRunPerWriter * cfg.writers
	if cfg.requests > 0 {
		res.mergeRun = cfg.requests
	}
	fmt.Fprintf(w, "%s: writes: %d writers, %d merges per merge run\n", name, cfg.writers, res.mergeRun)

	if cfg.warmup > 0 {
		n := mergeWarmupPerWriter * cfg.writers
		merge, err := mergeTarget(ctx, svc, u, fx, base, n)
		if err != nil {
			return res, fmt.Errorf("preparing the merge warm-up: %w", err)
		}
		if err := checkWrites("merge warm-up", ld.run(ctx, merge, 0, n)); err != nil {
			return res, err
		}
		for _, c := range []struct {
			name string
			t    target
		}{{"bare insert", bare}, {"page edit", edit}, {"comment", comment}} {
			if err := checkWrites(c.name+" warm-up", ld.run(ctx, c.t, cfg.warmup, 0)); err != nil {
				return res, err
			}
		}
	}

	names := []string{"page edit", "comment", "merge of a one-page change", "bare insert"}
	runs := make([][]runStats, len(names))
	for round := 1; round <= cfg.rounds; round++ {
		merge, err := mergeTarget(ctx, svc, u, fx, base, res.mergeRun)
		if err != nil {
			return res, fmt.Errorf("preparing the merges: %w", err)
		}
		// The merge run sends exactly one merge per change request
		// prepared, so it is a fixed count, not a duration.
		do := []func() runStats{
			func() runStats { return ld.run(ctx, edit, cfg.duration, cfg.requests) },
			func() runStats { return ld.run(ctx, comment, cfg.duration, cfg.requests) },
			func() runStats { return ld.run(ctx, merge, 0, res.mergeRun) },
			func() runStats { return ld.run(ctx, bare, cfg.duration, cfg.requests) },
		}
		got := make([]runStats, len(do))
		// Alternate the order, so no case always runs on a machine
		// another just heated, or on a database another just grew.
		for k := range do {
			i := k
			if round%2 == 0 {
				i = len(do) - 1 - k
			}
			got[i] = do[i]()
		}
		fmt.Fprintf(w, "  %-8s writes round %d:", name, round)
		for i, s := range got {
			fmt.Fprintf(w, " %s %.0f/s p99 %s", names[i], s.rps(), ms(s.p99))
			if s.errors > 0 {
				fmt.Fprintf(w, " (%d errors, %d answered 409)", s.errors, s.conflict)
			}
			if i < len(got)-1 {
				fmt.Fprint(w, " |")
			}
		}
		fmt.Fprintln(w)
		for i, s := range got {
			if err := checkWrites(names[i], s); err != nil {
				return res, err
			}
			runs[i] = append(runs[i], s)
		}
	}
	for i, n := range names {
		op := writeOp{name: n, s: summarize(runs[i])}
		for _, s := range runs[i] {
			op.errors += s.errors
			op.conflicts += s.conflict
		}
		res.ops = append(res.ops, op)
	}

	// The merges beside the readers are as many as the merge runs' median
	// rate sends in -d (or -n of them): sharing the machine with the
	// creates and the readers, they last at least as long as the readers.
	res.mergeLoad = min(max(res.mergeRun, int(math.Ceil(res.ops[2].s.rps*cfg.duration.Seconds()))), maxMergeBatch)
	if cfg.requests > 0 {
		res.mergeLoad = cfg.requests
	}
	if err := readsUnderWrites(ctx, cfg, svc, u, fx, base, create, &res, w); err != nil {
		return res, fmt.Errorf("reads under writes: %w", err)
	}
	return res, nil
}

// readsUnderWrites measures the p99 of GET /v1/spaces/{id} at
// writesReaders readers alone, then while half the writers create spaces
// and the other half merge one-page change requests, in alternating
// rounds, and stores the medians in res.
func readsUnderWrites(ctx context.Context, cfg config, svc *service.Service, u *quire.User, fx *fixture, base string, create target, res *writesResult, w io.Writer) error {
	paths := make([]string, len(fx.spaceIDs))
	for i, id := range fx.spaceIDs {
		paths[i] = "/v1/spaces/" + id
	}
	read := target{base: base, paths: paths, token: fx.token}
	readers := newLoader(writesReaders)
	defer readers.close()
	creators := newLoader(cfg.writers / 2)
	defer creators.close()
	mergers := newLoader(cfg.writers - cfg.writers/2)
	defer mergers.close()
	if cfg.warmup > 0 {
		if err := check("read warm-up", readers.run(ctx, read, cfg.warmup, 0)); err != nil {
			return err
		}
	}

	var idle, loaded []time.Duration
	var creates, merges []float64
	for round := 1; round <= cfg.rounds; round++ {
		merge, err := mergeTarget(ctx, svc, u, fx, base, res.mergeLoad)
		if err != nil {
			return err
		}
		alone := func() (runStats, error) {
			s := readers.run(ctx, read, cfg.duration, cfg.requests)
			return s, check("read alone", s)
		}
		under := func() (runStats, error) {
			var c, m runStats
			done := make(chan struct{}, 2)
			go func() { c = creators.run(ctx, create, cfg.duration, cfg.requests); done <- struct{}{} }()
			go func() { m = mergers.run(ctx, merge, 0, res.mergeLoad); done <- struct{}{} }()
			s := readers.run(ctx, read, cfg.duration, cfg.requests)
			<-done
			<-done
			fmt.Fprintf(w, "  %-8s round %d: under %d readers, %d writers created %.0f spaces/s and %d merged %.0f change requests/s (%d answered 409)\n",
				res.engine, round, writesReaders, creators.concurrency, c.rps(), mergers.concurrency, m.rps(), m.conflict)
			creates, merges = append(creates, c.rps()), append(merges, m.rps())
			return s, errors.Join(check("read under writes", s), check("create under reads", c), checkWrites("merge under reads", m))
		}
		var a, b runStats
		if round%2 == 1 {
			if a, err = alone(); err == nil {
				b, err = under()
			}
		} else {
			if b, err = under(); err == nil {
				a, err = alone()
			}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %-8s round %d: GET /v1/spaces/{id} p99 %s alone, %s under writes\n", res.engine, round, ms(a.p99), ms(b.p99))
		idle, loaded = append(idle, a.p99), append(loaded, b.p99)
	}
	res.idle, res.loaded = median(idle), median(loaded)
	res.creates, res.merges = median(creates), median(merges)
	return nil
}

// pageEditTarget makes a space with one merged page and a change request
// per writer, and returns the target of the page edits: each writer
// replaces the page's Markdown in its own change request, with text that
// changes at every request.
func pageEditTarget(ctx context.Context, svc *service.Service, u *quire.User, fx *fixture, base string, writers int) (target, error) {
	sp, err := svc.CreateSpace(ctx, u, fx.orgID, service.SpaceInput{Title: "Page edits"})
	if err != nil {
		return target{}, err
	}
	spaceID := sp.Space.ID
	first, err := svc.CreateChangeRequest(ctx, u, spaceID, "the page")
	if err != nil {
		return target{}, err
	}
	title, md := "Edited page", "The first text of the page.\n"
	_, out, err := svc.UpdateChangeRequestContent(ctx, u, spaceID, first.ID, []service.ContentChange{{
		Operation: service.OpInsertPage, Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &md}}})
	if err != nil {
		return target{}, err
	}
	if _, err := svc.MergeChangeRequest(ctx, u, spaceID, first.ID); err != nil {
		return target{}, err
	}
	pageID := out[0].PageID
	paths := make([]string, writers)
	for i := range paths {
		cr, err := svc.CreateChangeRequest(ctx, u, spaceID, fmt.Sprintf("edits of writer %d", i))
		if err != nil {
			return target{}, err
		}
		paths[i] = "/v1/spaces/" + spaceID + "/change-requests/" + cr.ID + "/content"
	}
	return target{base: base, token: fx.token, status: http.StatusOK,
		vary: func(worker, i int) (string, []byte) {
			return paths[worker], fmt.Appendf(nil,
				`{"changes":[{"operation":"update_page","page":%q,"document":{"markdown":"# Edited page\n\nEdit %d of this page, by writer %d.\n"}}]}`,
				pageID, i, worker)
		}}, nil
}

// commentTarget makes a space and returns the target of comments posted
// on it, each with a short Markdown body of its own.
func commentTarget(ctx context.Context, svc *service.Service, u *quire.User, fx *fixture, base string) (target, error) {
	sp, err := svc.CreateSpace(ctx, u, fx.orgID, service.SpaceInput{Title: "Comments"})
	if err != nil {
		return target{}, err
	}
	path := "/v1/spaces/" + sp.Space.ID + "/comments"
	return target{base: base, token: fx.token, status: http.StatusOK,
		vary: func(_, i int) (string, []byte) {
			return path, fmt.Appendf(nil, `{"body":{"markdown":"Comment %d: **looks good** to me."}}`, i)
		}}, nil
}

// mergeTarget prepares n change requests of a new space, each adding a
// page of its own (seedMerges), and returns the target merging
// them, the i-th request the i-th change request: a run of exactly n
// requests merges each once.
func mergeTarget(ctx context.Context, svc *service.Service, u *quire.User, fx *fixture, base string, n int) (target, error) {
	crs, spaceID, err := seedMerges(ctx, svc, u, fx.orgID, n)
	if err != nil {
		return target{}, err
	}
	return target{base: base, token: fx.token, status: http.StatusOK,
		vary: func(_, i int) (string, []byte) {
			return "/v1/spaces/" + spaceID + "/change-requests/" + crs[i%len(crs)] + "/merge", nil
		}}, nil
}

// checkWrites turns the failed requests of a write run into an error,
// except answers 409: those are counted and reported, not fatal.
func checkWrites(name string, s runStats) error {
	if s.errors == s.conflict {
		return nil
	}
	return fmt.Errorf("%s: %d of %d requests failed, %d of them answered 409; first: %w",
		name, s.errors, s.errors+s.requests, s.conflict, s.firstErr)
}

// printWrites reports one engine's writes: each case's rate, p99, errors
// and 409 answers and its rate as a share of the bare insert's (goal at
// least 0.5), then the read's p99 alone and under writes (goal: at most
// twice).
func printWrites(w io.Writer, cfg config, r writesResult) {
	bare := r.ops[len(r.ops)-1]
	fmt.Fprintf(w, "\n%-8s  writes over HTTP at %d writers, median of %d rounds (merge runs of %d merges):\n",
		r.engine, cfg.writers, cfg.rounds, r.mergeRun)
	const format = "%-8s  %-28s  %8s  %8s  %6s  %5s  %9s  %s\n"
	fmt.Fprintf(w, format, "engine", "write", "rps", "p99", "errors", "409", "vs. bare", "goal >= 0.50")
	for _, op := range r.ops {
		ratio, verdict := "", ""
		if op.name != bare.name {
			x := op.s.rps / max(bare.s.rps, 1e-9)
			ratio, verdict = fmt.Sprintf("%.3f", x), "met"
			if x < 0.5 {
				verdict = "missed"
			}
		}
		fmt.Fprintf(w, format, r.engine, op.name, fmt.Sprintf("%.0f", op.s.rps), ms(op.s.p99),
			fmt.Sprint(op.errors), fmt.Sprint(op.conflicts), ratio, verdict)
	}
	ratio := float64(r.loaded) / float64(max(r.idle, 1))
	verdict := "met"
	if ratio > 2 {
		verdict = "missed"
	}
	fmt.Fprintf(w, "%-8s  GET /v1/spaces/{id} p99 at %d readers: %s alone, %s while %d writers create spaces (%.0f/s) and merge (%.0f/s): ratio %.2f (goal <= 2), %s\n",
		r.engine, writesReaders, ms(r.idle), ms(r.loaded), cfg.writers, r.creates, r.merges, ratio, verdict)
}
