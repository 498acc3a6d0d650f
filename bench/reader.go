package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// Reader benchmark shape.
const (
	// readerBigBlocks is the block count of the page whose uncached
	// rendering is timed.
	readerBigBlocks = 2000
	// readerTTFBRequests is how many uncached requests of it are timed.
	readerTTFBRequests = 30
	// readerGoalRatio and readerGoalTTFB are the goals.
	readerGoalRatio = 0.5
	readerGoalTTFB  = 50 * time.Millisecond
)

// benchReader measures, on SQLite, a published site's page served by the
// site reader against a bare handler writing the same bytes (requests
// per second, median over the rounds; goal ratio >= readerGoalRatio),
// and the time to first byte of a page of readerBigBlocks blocks that
// the rendered-page cache does not hold (each request brings different
// visitor claims; goal p50 < readerGoalTTFB). The parsed document is
// reused across those requests; the first request's time, which parses
// it, is reported too.
func benchReader(ctx context.Context, cfg config, w io.Writer) (err error) {
	eng, err := newEngine(ctx, cfg, "sqlite")
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
	if err := seedReaderSite(ctx, svc); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	stop := serve(ln, httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet}))
	defer stop()
	ld := newLoader(cfg.concurrency)
	defer ld.close()

	q := target{base: base, paths: []string{"/sites/bench/"}}
	body, ctype, err := ld.capture(ctx, q, q.paths[0])
	if err != nil {
		return fmt.Errorf("capturing the page: %w", err)
	}
	bl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	stopBare := serve(bl, bareHandler(body, ctype))
	defer stopBare()
	bare := target{base: "http://" + bl.Addr().String(), paths: q.paths}
	fmt.Fprintf(w, "\nReader: a published page of %d bytes of %s, and an uncached page of %d blocks:\n", len(body), ctype, readerBigBlocks)
	if cfg.warmup > 0 {
		for _, t := range []target{bare, q} {
			if err := check("reader page", ld.run(ctx, t, cfg.warmup, 0)); err != nil {
				return fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	var qr, br []runStats
	for round := 1; round <= cfg.rounds; round++ {
		var a, b runStats
		if round%2 == 1 {
			b = ld.run(ctx, bare, cfg.duration, cfg.requests)
			a = ld.run(ctx, q, cfg.duration, cfg.requests)
		} else {
			a = ld.run(ctx, q, cfg.duration, cfg.requests)
			b = ld.run(ctx, bare, cfg.duration, cfg.requests)
		}
		if err := errors.Join(check("reader page", a), check("bare page", b)); err != nil {
			return err
		}
		qr, br = append(qr, a), append(br, b)
	}
	r := row{engine: "sqlite", name: "GET /sites/{name}/ (rendered page)", quire: summarize(qr), bare: summarize(br)}
	printTable(w, []row{r})
	verdict := "met"
	if r.ratio() < readerGoalRatio {
		verdict = "missed"
	}
	fmt.Fprintf(w, "target ratio >= %.2f for a rendered page: %.3f, %s\n", readerGoalRatio, r.ratio(), verdict)
	if cfg.cpuprofile != "" && cfg.profileCase == "reader" {
		if err := profile(ctx, cfg, ld, benchCase{name: r.name, quire: q}, w); err != nil {
			return err
		}
	}

	ttfb, cold, size, err := readerTTFB(ctx, base+"/sites/bench/big")
	if err != nil {
		return err
	}
	p50 := percentile(ttfb, 0.5)
	verdict = "met"
	if p50 >= readerGoalTTFB {
		verdict = "missed"
	}
	fmt.Fprintf(w, "uncached %d-block page (%d bytes): time to first byte p50 %s, p99 %s (goal p50 < %s), %s; the very first request, parsing the stored document too: %s\n",
		readerBigBlocks, size, ms(p50), ms(percentile(ttfb, 0.99)), readerGoalTTFB, verdict, ms(cold))
	return nil
}

// readerTTFB requests addr readerTTFBRequests times, one at a time, each
// with visitor claims of its own so that no rendered page is reused, and
// returns the times to the first byte of the answers after the first two,
// and that of the first (the document not yet parsed).
func readerTTFB(ctx context.Context, addr string) ([]time.Duration, time.Duration, int, error) {
	client := &http.Client{}
	defer client.CloseIdleConnections()
	var out []time.Duration
	var cold time.Duration
	size := 0
	for i := range readerTTFBRequests + 2 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		req.AddCookie(&http.Cookie{Name: "gitbook-visitor-public", Value: url.QueryEscape(fmt.Sprintf(`{"n":%d}`, i))})
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return nil, 0, 0, err
		}
		took := time.Since(t0)
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, 0, 0, err
		}
		if res.StatusCode != http.StatusOK {
			return nil, 0, 0, fmt.Errorf("GET %s: %d", addr, res.StatusCode)
		}
		size = len(b)
		if i == 0 {
			cold = took
		}
		if i >= 2 { // the first requests warm the connection and the stores
			out = append(out, took)
		}
	}
	return out, cold, size, nil
}

// seedReaderSite publishes a site named bench of one space: a short
// first page, and a page of readerBigBlocks blocks (paragraphs, headings,
// lists, code and tables).
func seedReaderSite(ctx context.Context, svc *service.Service) error {
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return err
	}
	sp, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		return err
	}
	cr, err := svc.CreateChangeRequest(ctx, u, sp.Space.ID, "pages")
	if err != nil {
		return err
	}
	var small, big strings.Builder
	for i := range 20 {
		fmt.Fprintf(&small, "## Part %d\n\nSome *text* with a [link](https://example.com/%d) and `code`.\n\n", i, i)
	}
	for i := 0; i < readerBigBlocks; i += 5 {
		fmt.Fprintf(&big, "## Heading %d\n\nA paragraph with **bold** and a [link](https://example.com/%d).\n\n- one\n- two\n\n```go\nfunc f%d() int { return %d }\n```\n\n| a | b |\n| - | - |\n| %d | x |\n\n", i, i, i, i, i)
	}
	titles := []string{"Welcome", "Big"}
	for i, text := range []string{small.String(), big.String()} {
		if _, _, err := svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, []service.ContentChange{{
			Operation: service.OpInsertPage, Fields: service.PageFields{Title: &titles[i]},
			Document: &service.DocumentInput{Markdown: &text}}}); err != nil {
			return err
		}
	}
	if _, err := svc.MergeChangeRequest(ctx, u, sp.Space.ID, cr.ID); err != nil {
		return err
	}
	sites := service.NewSites(svc)
	site, err := sites.CreateSite(ctx, u, boot.Organization, service.SiteCreate{Title: "Bench", Spaces: []string{sp.Space.ID}})
	if err != nil {
		return err
	}
	name, published := "bench", true
	_, err = sites.UpdateSite(ctx, boot.Organization, site.ID, quire.SiteUpdate{Basename: &name, Published: &published}, nil)
	return err
}
