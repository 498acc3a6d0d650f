package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/blob"
	"quire/internal/gitremote"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/testutil"
)

// Shape of the large repository and the goals of its import.
const (
	largePages  = 300
	largeImages = 976 // 50 kB to 2 MB, most of them small
	largeGIFs   = 16  // 5 to 10 MB
	largeVideos = 4   // 20 to 40 MB
	// largeGoal bounds the import; largeRSSGoal the growth of the
	// process's resident memory while it runs.
	largeGoal    = 60 * time.Second
	largeRSSGoal = 200 << 20
)

// benchGitLarge generates a GitBook repository of about 500 MB in about
// 1,300 files (pages, and images, GIFs and videos of random, incompressible
// bytes under .gitbook/assets), serves it over smart HTTP with the git
// binary's http-backend (a process of its own, so its memory is not
// counted), and on each engine imports it end to end through the service
// and the job queue: the import time against largeGoal, the growth of this
// process's resident memory (VmRSS sampled while the import runs) against
// largeRSSGoal, then the time of a second import of the same commit,
// which stores no file again. Last, the round trip (gitLargeOn): the
// export's time and memory growth, and whether the export holds the
// source's bytes and survives an import and a second export unchanged.
func benchGitLarge(ctx context.Context, cfg config, names []string, w io.Writer) error {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		return errors.New("gitlarge: the git binary is needed to write and serve the repository")
	}
	dir, err := os.MkdirTemp("", "quire-bench-gitlarge-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	began := time.Now()
	files, size, err := writeLargeRepo(ctx, gitBin, dir, cfg.largeShare)
	if err != nil {
		return fmt.Errorf("gitlarge: writing the repository: %w", err)
	}
	fmt.Fprintf(w, "\nGit import of a large repository: %d files, %.0f MB, written in %s\n",
		files, float64(size)/1e6, time.Since(began).Round(time.Second))
	srv := httptest.NewServer(testutil.GitHTTPBackend(gitBin, dir))
	defer srv.Close()
	var unstable []string
	for _, name := range names {
		failed, err := gitLargeOn(ctx, cfg, gitBin, name, dir, srv.URL+"/repo.git", w)
		if err != nil {
			return fmt.Errorf("%s: gitlarge: %w", name, err)
		}
		if failed {
			unstable = append(unstable, name)
		}
	}
	if len(unstable) > 0 {
		return fmt.Errorf("gitlarge: the round trip is not byte-identical on %s", strings.Join(unstable, ", "))
	}
	return nil
}

// gitLargeOn imports the repository twice into one space on a fresh
// database of one engine and prints the figures, then exports the space
// to a new bare repository, compares it with the source file by file,
// imports that export into a new space, exports it again and compares the
// two exports. It reports whether either comparison found a difference.
func gitLargeOn(ctx context.Context, cfg config, gitBin, name, dir, url string, w io.Writer) (failed bool, err error) {
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return false, err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return false, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	blobs, err := blob.Open(ctx, "", filepath.Join(dir, name+"-blobs"))
	if err != nil {
		return false, err
	}
	defer blobs.Close()
	quiet := slog.New(slog.DiscardHandler)
	queue, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: quiet, PollInterval: 10 * time.Millisecond})
	if err != nil {
		return false, err
	}
	svc := service.New(st, service.WithLogger(quiet), service.WithBlobs(blobs), service.WithQueue(queue))
	gs := service.NewGitSync(svc, gitremote.New(gitremote.Options{AllowLocal: true, Logger: quiet}))
	jobs.Register(queue, gs.RunJob, jobs.Timeout(gs.JobTimeout()))
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
	jobs.Register(queue, events.RunJob)
	if err := queue.Start(ctx); err != nil {
		return false, err
	}
	defer queue.Stop(context.WithoutCancel(ctx))
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return false, err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return false, err
	}
	sp, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Large"})
	if err != nil {
		return false, err
	}
	req := service.GitRequest{Direction: quire.GitImport, URL: url, Ref: "refs/heads/main"}
	var took time.Duration
	mem, err := sampleRSS(func() (err error) {
		took, err = timeGit(ctx, gs, u, sp.Space.ID, req)
		return err
	})
	if err != nil {
		return false, err
	}
	rec, err := gs.State(ctx, sp.Space.ID)
	if err != nil {
		return false, err
	}
	again, err := timeGit(ctx, gs, u, sp.Space.ID, req)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%-8s  import    %8s  (goal <= %s), %s; %d objects, %.0f MB received\n", name, ms(took), largeGoal,
		verdict(took <= largeGoal), rec.Progress.ObjectsTotal, float64(rec.Progress.Bytes)/1e6)
	fmt.Fprintf(w, "%-8s  RSS growth %s  (goal < %d MB), %s\n", name, mem, largeRSSGoal>>20, verdict(mem.growth() < largeRSSGoal))
	fmt.Fprintf(w, "%-8s  re-import %8s  (the same commit: no file stored again)\n", name, ms(again))

	// The round trip: export the space to a new repository and compare it
	// with the source, then import that export into a new space, export
	// it again and compare the two exports.
	source := filepath.Join(dir, "repo.git")
	first := filepath.Join(dir, name+"-export-1.git")
	second := filepath.Join(dir, name+"-export-2.git")
	export := func(spaceID, dst string) (time.Duration, rssSample, error) {
		if _, err := git.PlainInit(dst, true); err != nil {
			return 0, rssSample{}, err
		}
		var took time.Duration
		mem, err := sampleRSS(func() (err error) {
			took, err = timeGit(ctx, gs, u, spaceID, service.GitRequest{Direction: quire.GitExport, URL: "file://" + dst,
				Ref: "refs/heads/main", CommitMessage: "Export"})
			return err
		})
		return took, mem, err
	}
	exp, expMem, err := export(sp.Space.ID, first)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%-8s  export    %8s, RSS growth %s\n", name, ms(exp), expMem)
	d, err := compareTrees(ctx, gitBin, source, first)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%-8s  source -> export: %s\n", name, sameOrNot(d))
	printTreeDiff(ctx, w, gitBin, source, first, d)
	failed = d.count() > 0

	sp2, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Round trip"})
	if err != nil {
		return false, err
	}
	imp2, err := timeGit(ctx, gs, u, sp2.Space.ID, service.GitRequest{Direction: quire.GitImport, URL: "file://" + first, Ref: "refs/heads/main"})
	if err != nil {
		return false, err
	}
	exp2, expMem2, err := export(sp2.Space.ID, second)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%-8s  import of the export %s, export again %s, RSS growth %s\n", name, ms(imp2), ms(exp2), expMem2)
	d, err = compareTrees(ctx, gitBin, first, second)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%-8s  export -> import -> export: %s\n", name, sameOrNot(d))
	printTreeDiff(ctx, w, gitBin, first, second, d)
	return failed || d.count() > 0, nil
}

// sameOrNot reads a comparison of two trees as a round-trip verdict.
func sameOrNot(d treeDiff) string {
	if d.count() == 0 {
		return "byte-identical, met"
	}
	return fmt.Sprintf("%d paths differ (%d missing, %d extra, %d changed), FAILED", d.count(), len(d.missing), len(d.extra), len(d.changed))
}

// verdict says whether a goal is met.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}

// vmRSS is this process's resident memory in bytes, from /proc (0 where
// there is none).
func vmRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// writeLargeRepo writes the work tree of the large repository under
// dir/work, commits it with the git binary and makes dir/repo.git, a
// bare, packed clone of it. It returns the number of files and their
// bytes. share scales the number of pages and of each kind of file,
// keeping at least one of each.
func writeLargeRepo(ctx context.Context, gitBin, dir string, share float64) (int, int64, error) {
	scaled := func(n int) int { return max(1, int(float64(n)*share)) }
	pages, images, gifs, videos := max(2, scaled(largePages)), scaled(largeImages), scaled(largeGIFs), scaled(largeVideos)
	work := filepath.Join(dir, "work")
	stream := rand.NewChaCha8([32]byte{'q', 'u', 'i', 'r', 'e'})
	rng := rand.New(stream)
	var total int64
	n := 0
	put := func(p string, b []byte) error {
		full := filepath.Join(work, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		total += int64(len(b))
		n++
		return os.WriteFile(full, b, 0o644)
	}
	random := func(size int) []byte {
		b := make([]byte, size)
		_, _ = stream.Read(b)
		return b
	}
	var assets []string
	for i := range images {
		// Most images small: 50 kB × 40^(u³) spans 50 kB to 2 MB.
		size := int(50e3 * math.Pow(40, math.Pow(rng.Float64(), 3)))
		name := fmt.Sprintf(".gitbook/assets/image-%04d.png", i)
		if err := put(name, random(size)); err != nil {
			return 0, 0, err
		}
		assets = append(assets, name)
	}
	for i := range gifs {
		name := fmt.Sprintf(".gitbook/assets/animation-%02d.gif", i)
		if err := put(name, random(5e6+rng.IntN(5e6))); err != nil {
			return 0, 0, err
		}
		assets = append(assets, name)
	}
	for i := range videos {
		name := fmt.Sprintf(".gitbook/assets/video-%d.mp4", i)
		if err := put(name, random(20e6+rng.IntN(20e6))); err != nil {
			return 0, 0, err
		}
		assets = append(assets, name)
	}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Welcome](README.md)\n")
	if err := put("README.md", []byte("# Welcome\n\nA large generated repository.\n")); err != nil {
		return 0, 0, err
	}
	per := len(assets)/pages + 1
	for i := 1; i < pages; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\nText of page %d, with its figures.\n\n", i, i)
		for j := range per {
			fmt.Fprintf(&b, "![Figure %d](../%s)\n\n", j, assets[(i*per+j)%len(assets)])
		}
		p := fmt.Sprintf("pages/page-%03d.md", i)
		fmt.Fprintf(&summary, "* [Page %d](%s)\n", i, p)
		// One newline at the end, as GitBook writes a page.
		if err := put(p, []byte(strings.TrimSuffix(b.String(), "\n"))); err != nil {
			return 0, 0, err
		}
	}
	if err := put("SUMMARY.md", []byte(summary.String())); err != nil {
		return 0, 0, err
	}
	run := func(dir string, args ...string) error {
		cmd := exec.CommandContext(ctx, gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@example.com",
			"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	for _, args := range [][]string{
		{"init", "--quiet", "-b", "main"},
		{"-c", "core.compression=1", "add", "-A"},
		{"commit", "--quiet", "-m", "Generated docs"},
		{"clone", "--quiet", "--bare", work, filepath.Join(dir, "repo.git")},
		// No delta search, here or when serving: random bytes do not
		// delta, and a hosting service sends the packs it keeps.
		{"-C", filepath.Join(dir, "repo.git"), "config", "pack.window", "0"},
		{"-C", filepath.Join(dir, "repo.git"), "-c", "pack.compression=1", "repack", "-a", "-d", "-q"},
	} {
		if err := run(work, args...); err != nil {
			return 0, 0, err
		}
	}
	return n, total, os.RemoveAll(work)
}
