package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The footprint section: what one `quire serve` on SQLite takes of memory
// and disk, the figures an operator sizes a machine or a container by.
const (
	// footprintPages is how many pages the section writes.
	footprintPages = 1000
	// footprintBatch is the pages one change request inserts: the most a
	// content call takes.
	footprintBatch = 50
	// footprintSample is how often resident memory is read under load.
	footprintSample = 100 * time.Millisecond
)

// benchFootprint builds quire, starts it on SQLite in a new data
// directory and reads its resident memory idle and empty, after
// footprintPages pages were written through the API and under load
// (GET of the page list and of single pages at -peer-c connections, for
// -d), and the disk its data directory takes before and after the pages,
// both while it runs (write-ahead log included) and once it has stopped.
func benchFootprint(ctx context.Context, cfg config, w io.Writer) (err error) {
	dir, err := os.MkdirTemp("", "quire-footprint-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := buildQuire(ctx, dir)
	if err != nil {
		return err
	}
	ld := newLoader(cfg.peerConcurrency)
	defer ld.close()
	s, err := startQuire(ctx, ld, bin, dir, "sqlite", "")
	if s != nil && s.proc != nil {
		defer func() { err = errors.Join(err, s.proc.stop()) }()
	}
	if err != nil {
		return err
	}
	data := filepath.Join(dir, "quire-sqlite")
	fmt.Fprintf(w, "\nFootprint: quire serve on SQLite, %d pages in change requests of %d, load at %d connections for %s\n",
		footprintPages, footprintBatch, cfg.peerConcurrency, cfg.duration)

	settle := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(peerSettle):
			return nil
		}
	}
	if err := settle(); err != nil {
		return err
	}
	idleEmpty, err := s.proc.rss()
	if err != nil {
		return err
	}
	diskEmpty, err := diskUsage(data)
	if err != nil {
		return err
	}
	began := time.Now()
	space, ids, err := writePages(ctx, ld, s.api, footprintPages)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "footprint: wrote %d pages in %s\n", len(ids), time.Since(began).Round(100*time.Millisecond))
	if err := settle(); err != nil {
		return err
	}
	idlePages, err := s.proc.rss()
	if err != nil {
		return err
	}
	diskPages, err := diskUsage(data)
	if err != nil {
		return err
	}

	paths := []string{"/v1/spaces/" + space + "/content/pages"}
	for _, id := range ids {
		paths = append(paths, "/v1/spaces/"+space+"/content/page/"+id)
	}
	peak, stats, err := loadSampling(ctx, cfg, ld, s, s.api.target(paths...))
	if err != nil {
		return err
	}
	if err := check("footprint reads", stats); err != nil {
		return err
	}
	afterLoad, err := s.proc.rss()
	if err != nil {
		return err
	}
	if err := s.proc.stop(); err != nil {
		return err
	}
	diskStopped, err := diskUsage(data)
	if err != nil {
		return err
	}

	fmt.Fprintf(w, "%-34s  %10s  %10s\n", "resident memory", "VmRSS", "RssAnon")
	for _, m := range []struct {
		name string
		mem  residentMemory
	}{
		{fmt.Sprintf("started, empty, %s idle", peerSettle), idleEmpty},
		{fmt.Sprintf("%d pages, %s idle", footprintPages, peerSettle), idlePages},
		{fmt.Sprintf("peak under load (%.0f rps)", stats.rps()), peak},
		{"after the load", afterLoad},
	} {
		fmt.Fprintf(w, "%-34s  %10s  %10s\n", m.name, mib(m.mem.rss), mib(m.mem.anon))
	}
	fmt.Fprintf(w, "data directory (du): empty %s; with %d pages %s running, %s stopped; %s per 1,000 pages (stopped)\n",
		mib(diskEmpty), footprintPages, mib(diskPages), mib(diskStopped),
		mib((diskStopped-diskEmpty)*1000/footprintPages))
	return nil
}

// buildQuire builds ./cmd/quire into dir/quire.
func buildQuire(ctx context.Context, dir string) (string, error) {
	root, err := moduleRoot(ctx)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "quire")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/quire")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building quire: %w\n%s", err, out)
	}
	return bin, nil
}

// writePages creates a space and n pages in it through a's API, in change
// requests of footprintBatch pages each merged in turn, and returns the
// space's id and the pages' ids.
func writePages(ctx context.Context, ld *loader, a peerAPI, n int) (string, []string, error) {
	post := func(path string, body []byte, status int) ([]byte, error) {
		t := a.target(path)
		t.body, t.status = body, status
		if body == nil {
			t.method = http.MethodPost
		}
		b, _, err := ld.capture(ctx, t, path)
		return b, err
	}
	idOf := func(b []byte) string {
		var v struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(b, &v)
		return v.ID
	}
	b, err := post(a.create, titleBody("Footprint"), http.StatusCreated)
	if err != nil {
		return "", nil, err
	}
	space := idOf(b)
	for first := 0; first < n; first += footprintBatch {
		b, err := post("/v1/spaces/"+space+"/change-requests", mustJSON(map[string]string{"subject": "Pages"}), http.StatusCreated)
		if err != nil {
			return space, nil, err
		}
		cr := "/v1/spaces/" + space + "/change-requests/" + idOf(b)
		var changes []any
		for i := first; i < min(first+footprintBatch, n); i++ {
			changes = append(changes, map[string]any{"operation": "insert_page", "title": fmt.Sprintf("Page %d", i),
				"document": map[string]string{"markdown": pageMarkdown(i)}})
		}
		if _, err := post(cr+"/content", mustJSON(map[string]any{"changes": changes}), http.StatusOK); err != nil {
			return space, nil, err
		}
		if _, err := post(cr+"/merge", nil, http.StatusOK); err != nil {
			return space, nil, err
		}
	}
	body, _, err := ld.capture(ctx, a.target(), "/v1/spaces/"+space+"/content/pages")
	if err != nil {
		return space, nil, err
	}
	var list struct {
		Pages []struct {
			ID string `json:"id"`
		} `json:"pages"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return space, nil, err
	}
	var ids []string
	for _, p := range list.Pages {
		ids = append(ids, p.ID)
	}
	if len(ids) != n {
		return space, ids, fmt.Errorf("the space lists %d pages, want %d", len(ids), n)
	}
	return space, ids, nil
}

// pageMarkdown is the text of page i: a heading, paragraphs, a list and a
// code block, about 1.5 KB, different on every page.
func pageMarkdown(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Section %d\n\n", i)
	for p := range 3 {
		fmt.Fprintf(&b, "Paragraph %d of page %d explains how the service handles request %d: it reads the "+
			"configuration, checks the caller's access, writes the change in one transaction and answers "+
			"with the new state, which readers see at once on every replica.\n\n", p, i, i*7+p)
	}
	for item := range 4 {
		fmt.Fprintf(&b, "- Step %d of %d: run `tool --page %d --step %d`\n", item+1, 4, i, item)
	}
	fmt.Fprintf(&b, "\n```go\nfunc page%d() int { return %d }\n```\n", i, i*i)
	return b.String()
}

// loadSampling runs the load on t at s for cfg.duration, reading the
// server's resident memory every footprintSample, and returns the largest
// reading (by VmRSS) with the load's figures.
func loadSampling(ctx context.Context, cfg config, ld *loader, s *peerServer, t target) (residentMemory, runStats, error) {
	var (
		peak    residentMemory
		readErr error
		wg      sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(footprintSample)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				m, err := s.proc.rss()
				if err != nil {
					readErr = err
					return
				}
				if m.rss > peak.rss {
					peak = m
				}
			}
		}
	}()
	stats := ld.run(ctx, t, cfg.duration, cfg.requests)
	close(done)
	wg.Wait()
	return peak, stats, readErr
}

// diskUsage is the disk the files under dir take, as du counts it:
// allocated blocks.
func diskUsage(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			total += st.Blocks * 512
		}
		return nil
	})
	return total, err
}
