package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// mergeFigures are one engine's concurrent merge results: the median
// merges per second over the rounds, and every merge that answered 409.
type mergeFigures struct {
	engine    string
	perSecond float64
	merges    int
	retry     int // answered 409
}

// benchMerges measures, on each engine, cfg.mergeWriters merges of one
// space sent at the same moment over HTTP, each of a change request adding
// a different child page under one parent: none conflicts with another,
// so each should merge at the first call. Each engine runs on a database
// of its own, made and removed here. It prints merges per second, the 409
// answers (goal 0) and PostgreSQL's rate as a share of SQLite's (goal at
// least 0.5).
func benchMerges(ctx context.Context, cfg config, names []string, w io.Writer) error {
	var all []mergeFigures
	for _, name := range names {
		f, err := mergesOn(ctx, cfg, name, w)
		if err != nil {
			return fmt.Errorf("%s: concurrent merges: %w", name, err)
		}
		all = append(all, f)
	}
	fmt.Fprintf(w, "\n%d concurrent non-conflicting merges into one space, %d rounds (median):\n", cfg.mergeWriters, cfg.rounds)
	rate := map[string]float64{}
	for _, f := range all {
		rate[f.engine] = f.perSecond
		fmt.Fprintf(w, "%-8s  %8.1f merges/s  %d of %d merges answered 409 (goal 0)\n", f.engine, f.perSecond, f.retry, f.merges)
	}
	if pg, lite := rate["postgres"], rate["sqlite"]; pg > 0 && lite > 0 {
		verdict := "met"
		if pg/lite < 0.5 {
			verdict = "missed"
		}
		fmt.Fprintf(w, "postgres merges/s as a share of sqlite's: %.2f (goal >= 0.50), %s\n", pg/lite, verdict)
	}
	return nil
}

// mergesOn runs the rounds on a fresh database of one engine.
func mergesOn(ctx context.Context, cfg config, name string, w io.Writer) (f mergeFigures, err error) {
	f.engine = name
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return f, err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return f, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.WithLogger(quiet))
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{
		OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return f, err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return f, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return f, err
	}
	base := "http://" + ln.Addr().String()
	stop := serve(ln, httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet}))
	defer stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.mergeWriters}, Timeout: time.Minute}
	defer client.CloseIdleConnections()

	var rates []float64
	// Round 0 warms up the caches and connections and is not counted.
	for round := 0; round <= cfg.rounds; round++ {
		crs, spaceID, err := seedMerges(ctx, svc, u, boot.Organization, cfg.mergeWriters)
		if err != nil {
			return f, err
		}
		statuses, took, err := mergeAll(ctx, client, base, boot.Token, spaceID, crs)
		if err != nil {
			return f, err
		}
		merged, retry := 0, 0
		for _, s := range statuses {
			switch s {
			case http.StatusOK:
				merged++
			case http.StatusConflict:
				retry++
			default:
				return f, fmt.Errorf("a merge answered %d", s)
			}
		}
		if round == 0 {
			continue
		}
		rate := float64(merged) / took.Seconds()
		fmt.Fprintf(w, "%s: round %d: %d merges in %s, %.1f merges/s, %d answered 409\n",
			name, round, len(crs), ms(took), rate, retry)
		rates = append(rates, rate)
		f.merges += len(crs)
		f.retry += retry
	}
	sort.Float64s(rates)
	f.perSecond = rates[len(rates)/2]
	return f, nil
}

// seedMerges makes a space with one page and n change requests, each
// adding a child page of its own under it.
func seedMerges(ctx context.Context, svc *service.Service, u *quire.User, orgID string, n int) ([]string, string, error) {
	sp, err := svc.CreateSpace(ctx, u, orgID, service.SpaceInput{Title: "Merges"})
	if err != nil {
		return nil, "", err
	}
	spaceID := sp.Space.ID
	first, err := svc.CreateChangeRequest(ctx, u, spaceID, "parent")
	if err != nil {
		return nil, "", err
	}
	title, body := "Parent", "Children below.\n"
	_, res, err := svc.UpdateChangeRequestContent(ctx, u, spaceID, first.ID, []service.ContentChange{{
		Operation: service.OpInsertPage, Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &body}}})
	if err != nil {
		return nil, "", err
	}
	if _, err := svc.MergeChangeRequest(ctx, u, spaceID, first.ID); err != nil {
		return nil, "", err
	}
	parent := res[0].PageID
	crs := make([]string, n)
	for i := range crs {
		cr, err := svc.CreateChangeRequest(ctx, u, spaceID, fmt.Sprintf("child %d", i))
		if err != nil {
			return nil, "", err
		}
		title, body := fmt.Sprintf("Child %d", i), fmt.Sprintf("Child page %d.\n", i)
		_, _, err = svc.UpdateChangeRequestContent(ctx, u, spaceID, cr.ID, []service.ContentChange{{
			Operation: service.OpInsertPage, Into: &parent, Fields: service.PageFields{Title: &title},
			Document: &service.DocumentInput{Markdown: &body}}})
		if err != nil {
			return nil, "", err
		}
		crs[i] = cr.ID
	}
	return crs, spaceID, nil
}

// mergeAll sends the merge of every change request at the same moment and
// returns each answer's status and the time until the last one.
func mergeAll(ctx context.Context, client *http.Client, base, token, spaceID string, crs []string) ([]int, time.Duration, error) {
	statuses := make([]int, len(crs))
	errs := make([]error, len(crs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, cr := range crs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, err := http.NewRequestWithContext(ctx, http.MethodPost,
				base+"/v1/spaces/"+spaceID+"/change-requests/"+cr+"/merge", nil)
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := client.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			var out struct {
				Result string `json:"result"`
			}
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			statuses[i] = resp.StatusCode
			if resp.StatusCode == http.StatusOK && (err != nil || out.Result != service.ResultMerge) {
				errs[i] = fmt.Errorf("a non-conflicting merge answered %q (%v)", out.Result, err)
			}
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	return statuses, time.Since(began), errors.Join(errs...)
}
