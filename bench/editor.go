package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"quire/internal/app"
	"quire/internal/document"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/web"
)

// Editor benchmark shape and goals.
const (
	editorBlocks   = 2000
	editorRequests = 50
	editorGoalPrev = 30 * time.Millisecond
	editorGoalSave = 20 * time.Millisecond
)

// benchEditor times, on SQLite, the editor's preview of a page of
// editorBlocks blocks after a one-block edit and the save of a one-block
// edit (server time, in-process), each beside the published reader's
// cached page.
func benchEditor(ctx context.Context, cfg config, w io.Writer) (err error) {
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
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return err
	}
	u, err := st.User(ctx, boot.User)
	if err != nil {
		return err
	}
	sv, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Editor"})
	if err != nil {
		return err
	}
	spaceID := sv.Space.ID
	var md strings.Builder
	for i := range editorBlocks {
		fmt.Fprintf(&md, "Paragraph %d of the long page, with **some** text and a [link](https://example.com/%d).\n\n", i, i)
	}
	title, body, small := "Long", md.String(), "Home.\n"
	home := "Home"
	cr, err := svc.CreateChangeRequest(ctx, u, spaceID, "Seed")
	if err != nil {
		return err
	}
	res, err := func() ([]service.ChangeResult, error) {
		_, r, err := svc.UpdateChangeRequestContent(ctx, u, spaceID, cr.ID, []service.ContentChange{
			{Operation: service.OpInsertPage, Fields: service.PageFields{Title: &home}, Document: &service.DocumentInput{Markdown: &small}},
			{Operation: service.OpInsertPage, Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &body}}})
		return r, err
	}()
	if err != nil {
		return err
	}
	if _, err := svc.MergeChangeRequest(ctx, u, spaceID, cr.ID); err != nil {
		return err
	}
	pageID := res[1].PageID
	sites := service.NewSites(svc)
	site, err := sites.CreateSite(ctx, u, boot.Organization, service.SiteCreate{Title: "Bench", Spaces: []string{spaceID}})
	if err != nil {
		return err
	}
	name, published := "bench", true
	if _, err = sites.UpdateSite(ctx, boot.Organization, site.ID, quire.SiteUpdate{Basename: &name, Published: &published}, nil); err != nil {
		return err
	}
	const base = "http://quire.bench"
	a, err := app.New(svc, app.Config{BaseURL: base, Logger: quiet, Sites: sites})
	if err != nil {
		return err
	}
	h := httpapi.New(svc, httpapi.Config{BaseURL: base, Logger: quiet, SiteService: sites, App: a})
	secret, expires, err := svc.OpenSession(ctx, u.ID, service.SessionOrigin{Method: "password"})
	if err != nil {
		return err
	}
	cookie := web.SessionCookieFor(secret, expires, false)
	reader, err := timePage(ctx, h, nil, "/sites/bench/")
	if err != nil {
		return err
	}
	readerP50 := percentile(reader, 0.5)
	src, err := svc.PageMarkdown(ctx, service.ContentRef{SpaceID: spaceID}, pageID)
	if err != nil {
		return err
	}
	edited := strings.Replace(src.Markdown, "Paragraph 1000 of", "Paragraph 1000, edited, of", 1)
	live := "/app/s/" + spaceID + "/~/edit/live/pages/" + pageID
	draft, err := svc.DraftChangeRequest(ctx, u, spaceID)
	if err != nil {
		return err
	}
	crPage := "/app/s/" + spaceID + "/~/edit/" + strconv.Itoa(draft.Number) + "/pages/" + pageID
	crRef := service.ContentRef{SpaceID: spaceID, ChangeRequest: draft.ID}
	c, err := svc.Content(ctx, service.ContentRef{SpaceID: spaceID})
	if err != nil {
		return err
	}
	p, err := c.Page(ctx, pageID)
	if err != nil {
		return err
	}
	raw, err := c.Document(ctx, p)
	if err != nil {
		return err
	}
	doc, err := document.ParseStored(raw)
	if err != nil {
		return err
	}
	key := doc.Nodes[editorBlocks/2].Key
	// preview posts the page's Markdown with one block edited.
	preview := func(int) (time.Duration, error) {
		return postOnce(ctx, h, cookie, live+"/preview", url.Values{"markdown": {edited}})
	}
	// saver saves the block key again and again in the content ref
	// names, through the edit address page.
	saver := func(ref service.ContentRef, page string) func(int) (time.Duration, error) {
		var b string
		return func(i int) (time.Duration, error) {
			if b == "" {
				one, err := svc.PageBlocks(ctx, ref, pageID, key, 1)
				if err != nil {
					return 0, err
				}
				b = one.Base
			}
			text := fmt.Sprintf("Paragraph 1000, save %d.", i)
			d, err := postOnce(ctx, h, cookie, page+"/blocks/"+url.PathEscape(key), url.Values{"markdown": {text}, "base": {b}})
			if err != nil {
				return 0, err
			}
			b = ""
			return d, nil
		}
	}
	n := editorRequests
	if cfg.requests > 0 {
		n = cfg.requests
	}
	rows := []struct {
		name, profile string
		run           func(int) (time.Duration, error)
		goal          time.Duration
		d             []time.Duration
	}{
		{"preview after a one-block edit", "preview", preview, editorGoalPrev, nil},
		{"save of a one-block edit (change request)", "save", saver(crRef, crPage), editorGoalSave, nil},
		{"save of a one-block edit (live)", "live-save", saver(service.ContentRef{SpaceID: spaceID}, live), editorGoalSave, nil},
	}
	for j := range rows {
		r := &rows[j]
		prof := cfg.cpuprofile != "" && cfg.profileCase == r.profile
		if prof {
			f, err := os.Create(cfg.cpuprofile)
			if err != nil {
				return err
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return err
			}
			defer f.Close()
		}
		for i := range n + 5 {
			d, err := r.run(i)
			if err != nil {
				return err
			}
			if i >= 5 {
				r.d = append(r.d, d)
			}
		}
		if prof {
			pprof.StopCPUProfile()
			fmt.Fprintf(w, "CPU profile of %d requests of %s written to %s\n", n, r.name, cfg.cpuprofile)
		}
	}
	fmt.Fprintf(w, "\nEditor (sqlite): a page of %d blocks, %d requests each, in-process:\n", editorBlocks, n)
	fmt.Fprintf(w, "  %-44s p50 %8s  (the reference)\n", "reader: GET /sites/{name}/ cached", ms(readerP50))
	for _, r := range rows {
		p50 := percentile(r.d, 0.5)
		fmt.Fprintf(w, "  %-44s p50 %8s  p99 %8s  %6.1fx the reader's  goal < %s: %s\n", r.name, ms(p50), ms(percentile(r.d, 0.99)),
			float64(p50)/float64(max(readerP50, time.Microsecond)), r.goal, verdict(p50 < r.goal))
	}
	return nil
}

// postOnce serves one editor POST in-process and returns its time.
func postOnce(ctx context.Context, h http.Handler, cookie *http.Cookie, path string, form url.Values) (time.Duration, error) {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Quire-Editor", "1")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.AddCookie(cookie)
	rec := httptest.NewRecorder()
	t0 := time.Now()
	h.ServeHTTP(rec, req)
	took := time.Since(t0)
	if rec.Code != http.StatusOK {
		return 0, fmt.Errorf("POST %s: %d %s", path, rec.Code, rec.Body.String()[:min(rec.Body.Len(), 200)])
	}
	return took, nil
}
