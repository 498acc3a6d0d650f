package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// mergeWarmup is how many merges run untimed first in each space, so the
// timed ones find the objects they read in memory as a running server
// would.
const mergeWarmup = 3

// contentResult holds the figures of the content engine benchmarks.
type contentResult struct {
	mergeSmall, mergeLarge time.Duration // median merge of a one-page edit
	editObjects            int           // objects stored by that edit
	editBytes              int64         // and their bytes
	markdown               time.Duration // median GET page?format=markdown
	markdownBytes          int
}

// benchContent measures the content engine: the merge of a change request
// editing one page in spaces of 100 and 10,000 pages, what that edit
// stores, and reading a 2,000-block page as Markdown.
func benchContent(ctx context.Context, cfg config, eng *engine, svc *service.Service, api http.Handler, token, orgID string, w io.Writer) (contentResult, error) {
	var res contentResult
	u, err := svc.Authenticate(ctx, token)
	if err != nil {
		return res, err
	}
	db, err := openRaw(eng)
	if err != nil {
		return res, err
	}
	defer db.Close()

	// Seed both spaces first and interleave their timed merges, so both
	// sizes run against the same database.
	type subject struct {
		pages           int
		spaceID, pageID string
		times           []time.Duration
	}
	subjects := []*subject{{pages: 100}, {pages: 10000}}
	for _, sub := range subjects {
		began := time.Now()
		if sub.spaceID, sub.pageID, err = seedPages(ctx, svc, u, orgID, sub.pages); err != nil {
			return res, fmt.Errorf("seeding %d pages: %w", sub.pages, err)
		}
		fmt.Fprintf(w, "%s: seeded a space of %d pages in %s\n", eng.name, sub.pages, time.Since(began).Round(time.Millisecond))
	}
	for i := 0; i < cfg.merges+mergeWarmup; i++ {
		for _, sub := range subjects {
			cr, err := svc.CreateChangeRequest(ctx, u, sub.spaceID, fmt.Sprintf("edit %d", i))
			if err != nil {
				return res, err
			}
			md := fmt.Sprintf("Edited %d times.\n\nA second paragraph.\n", i+1)
			beforeN, beforeB, err := objectStats(ctx, db)
			if err != nil {
				return res, err
			}
			_, _, err = svc.UpdateChangeRequestContent(ctx, u, sub.spaceID, cr.ID, []service.ContentChange{{
				Operation: service.OpUpdatePage, Page: sub.pageID, Document: &service.DocumentInput{Markdown: &md}}})
			if err != nil {
				return res, err
			}
			afterN, afterB, err := objectStats(ctx, db)
			if err != nil {
				return res, err
			}
			if sub.pages == 10000 {
				res.editObjects, res.editBytes = afterN-beforeN, afterB-beforeB
			}
			start := time.Now()
			out, err := svc.MergeChangeRequest(ctx, u, sub.spaceID, cr.ID)
			if i >= mergeWarmup {
				sub.times = append(sub.times, time.Since(start))
			}
			if err != nil {
				return res, err
			}
			if out.Result != service.ResultMerge {
				return res, fmt.Errorf("merge answered %s", out.Result)
			}
		}
	}
	res.mergeSmall, res.mergeLarge = medianDuration(subjects[0].times), medianDuration(subjects[1].times)

	spaceID, pageID, err := seedLongPage(ctx, svc, u, orgID, 2000)
	if err != nil {
		return res, err
	}
	path := "/v1/spaces/" + spaceID + "/content/page/" + pageID + "?format=markdown"
	var times []time.Duration
	for i := 0; i < 30; i++ {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		start := time.Now()
		api.ServeHTTP(rec, req)
		times = append(times, time.Since(start))
		if rec.Code != http.StatusOK {
			return res, fmt.Errorf("GET page as Markdown answered %d: %s", rec.Code, rec.Body.String())
		}
		res.markdownBytes = rec.Body.Len()
	}
	res.markdown = medianDuration(times)
	return res, nil
}

// seedPages creates a space whose main content holds n pages, as sections
// of at most 100 pages, and returns it with the id of one page.
func seedPages(ctx context.Context, svc *service.Service, u *quire.User, orgID string, n int) (string, string, error) {
	sp, err := svc.CreateSpace(ctx, u, orgID, service.SpaceInput{Title: fmt.Sprintf("%d pages", n)})
	if err != nil {
		return "", "", err
	}
	cr, err := svc.CreateChangeRequest(ctx, u, sp.Space.ID, "seed")
	if err != nil {
		return "", "", err
	}
	sections := (n + 99) / 100
	var batch []service.ContentChange
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, _, err := svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, batch)
		batch = nil
		return err
	}
	add := func(ch service.ContentChange) error {
		batch = append(batch, ch)
		if len(batch) == service.MaxContentChanges {
			return flush()
		}
		return nil
	}
	body := "Some text for this page.\n"
	for s := 0; s < sections; s++ {
		title, ref := fmt.Sprintf("Section %d", s), fmt.Sprintf("s%d", s)
		if err := add(service.ContentChange{Operation: service.OpInsertPage, Ref: ref,
			Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &body}}); err != nil {
			return "", "", err
		}
		if err := flush(); err != nil { // later batches name the section by id
			return "", "", err
		}
	}
	c, err := svc.Content(ctx, service.ContentRef{SpaceID: sp.Space.ID, ChangeRequest: cr.ID})
	if err != nil {
		return "", "", err
	}
	tops, err := c.Children(ctx, "")
	if err != nil {
		return "", "", err
	}
	for i := 0; i < n-sections; i++ {
		parent := tops[i%len(tops)].ID
		title := fmt.Sprintf("Page %d", i)
		if err := add(service.ContentChange{Operation: service.OpInsertPage, Into: &parent,
			Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &body}}); err != nil {
			return "", "", err
		}
	}
	if err := flush(); err != nil {
		return "", "", err
	}
	if _, err := svc.MergeChangeRequest(ctx, u, sp.Space.ID, cr.ID); err != nil {
		return "", "", err
	}
	return sp.Space.ID, tops[len(tops)/2].ID, nil
}

// seedLongPage creates a space with one page of about n blocks of mixed
// kinds.
func seedLongPage(ctx context.Context, svc *service.Service, u *quire.User, orgID string, n int) (string, string, error) {
	var b strings.Builder
	for i := 0; i < n; i += 4 {
		fmt.Fprintf(&b, "## Section %d\n\nA paragraph with **bold**, `code` and a [link](https://example.com/%d).\n\n", i, i)
		fmt.Fprintf(&b, "* first item\n* second item\n\n{%% hint style=\"info\" %%}\nA hint %d.\n{%% endhint %%}\n\n", i)
	}
	md := b.String()
	sp, err := svc.CreateSpace(ctx, u, orgID, service.SpaceInput{Title: "Long page"})
	if err != nil {
		return "", "", err
	}
	cr, err := svc.CreateChangeRequest(ctx, u, sp.Space.ID, "long page")
	if err != nil {
		return "", "", err
	}
	title := "Long"
	_, results, err := svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, []service.ContentChange{{
		Operation: service.OpInsertPage, Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &md}}})
	if err != nil {
		return "", "", err
	}
	if _, err := svc.MergeChangeRequest(ctx, u, sp.Space.ID, cr.ID); err != nil {
		return "", "", err
	}
	return sp.Space.ID, results[0].PageID, nil
}

// openRaw opens the engine's database directly, to measure storage.
func openRaw(eng *engine) (*sql.DB, error) {
	if eng.cfg.DatabaseURL != "" {
		return sql.Open("pgx", eng.cfg.DatabaseURL)
	}
	return sql.Open("sqlite", eng.cfg.DataDir+"/quire.db?_pragma=busy_timeout(5000)")
}

// objectStats counts the stored content objects and their bytes.
func objectStats(ctx context.Context, db *sql.DB) (int, int64, error) {
	var (
		n int
		b sql.NullInt64
	)
	err := db.QueryRowContext(ctx, "SELECT COUNT(*), SUM(LENGTH(data)) FROM objects").Scan(&n, &b)
	return n, b.Int64, err
}

// medianDuration returns the median of a non-empty sample.
func medianDuration(v []time.Duration) time.Duration {
	s := append([]time.Duration(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// printContent prints the content engine figures of one engine.
func printContent(w io.Writer, engine string, r contentResult) {
	fmt.Fprintf(w, "\n%-8s  merge of a one-page edit: 100 pages %s, 10,000 pages %s, ratio %.2f (target <= 2)\n",
		engine, ms(r.mergeSmall), ms(r.mergeLarge), float64(r.mergeLarge)/float64(r.mergeSmall))
	fmt.Fprintf(w, "%-8s  storage of that edit in the 10,000-page space: %d objects, %d bytes\n", engine, r.editObjects, r.editBytes)
	fmt.Fprintf(w, "%-8s  GET /content/page/{id}?format=markdown, 2,000-block page: %s (%d bytes)\n", engine, ms(r.markdown), r.markdownBytes)
}
