package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/blob"
	"quire/internal/gitremote"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// Git Sync benchmark shape.
const (
	gitBenchPages  = 1000
	gitBenchAssets = 100
	gitBenchGoal   = 2 * time.Second
)

// benchGitSync measures, on each engine, a Git import of a generated
// GitBook repository of gitBenchPages pages and gitBenchAssets images from
// a local remote, end to end (the request queued, the job run by the
// queue, the space moved), then an export of the same space to a new
// remote. Both goals are at most gitBenchGoal.
func benchGitSync(ctx context.Context, cfg config, names []string, w io.Writer) error {
	dir, err := os.MkdirTemp("", "quire-bench-git-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := "file://" + filepath.Join(dir, "source.git")
	if _, err := git.PlainInit(filepath.Join(dir, "source.git"), true); err != nil {
		return err
	}
	remote := gitremote.New(gitremote.Options{AllowLocal: true})
	if _, _, err := remote.Push(ctx, src, "refs/heads/main", "", generatedRepo(), "Generated docs"); err != nil {
		return fmt.Errorf("pushing the generated repository: %w", err)
	}
	fmt.Fprintf(w, "\nGit Sync of a generated repository (%d pages, %d images), best of %d rounds:\n", gitBenchPages, gitBenchAssets, cfg.rounds)
	for _, name := range names {
		imp, exp, err := gitSyncOn(ctx, cfg, name, dir, src, w)
		if err != nil {
			return fmt.Errorf("%s: git sync: %w", name, err)
		}
		for _, r := range []struct {
			what string
			took time.Duration
		}{{"import", imp}, {"export", exp}} {
			verdict := "met"
			if r.took > gitBenchGoal {
				verdict = "missed"
			}
			fmt.Fprintf(w, "%-8s  %s  %8s  (goal <= %s), %s\n", name, r.what, ms(r.took), gitBenchGoal, verdict)
		}
	}
	return nil
}

// gitSyncOn runs the rounds on a fresh database of one engine and returns
// the fastest import and export.
func gitSyncOn(ctx context.Context, cfg config, name, dir, src string, w io.Writer) (imp, exp time.Duration, err error) {
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return 0, 0, err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return 0, 0, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	blobs, err := blob.Open(ctx, "", filepath.Join(dir, name+"-blobs"))
	if err != nil {
		return 0, 0, err
	}
	defer blobs.Close()
	quiet := slog.New(slog.DiscardHandler)
	queue, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: quiet, PollInterval: 10 * time.Millisecond})
	if err != nil {
		return 0, 0, err
	}
	svc := service.New(st, service.WithLogger(quiet), service.WithBlobs(blobs), service.WithQueue(queue))
	gs := service.NewGitSync(svc, gitremote.New(gitremote.Options{AllowLocal: true, Logger: quiet}))
	jobs.Register(queue, gs.RunJob)
	// As in serve: the import's move of the space is indexed for search.
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
	jobs.Register(queue, events.RunJob)
	if err := queue.Start(ctx); err != nil {
		return 0, 0, err
	}
	defer queue.Stop(context.WithoutCancel(ctx))
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return 0, 0, err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return 0, 0, err
	}
	for round := 1; round <= cfg.rounds; round++ {
		sp, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Imported"})
		if err != nil {
			return 0, 0, err
		}
		tookImport, err := timeGit(ctx, gs, u, sp.Space.ID, service.GitRequest{Direction: quire.GitImport, URL: src, Ref: "refs/heads/main"})
		if err != nil {
			return 0, 0, err
		}
		if round == 1 || tookImport < imp {
			imp = tookImport
		}
		dst := filepath.Join(dir, fmt.Sprintf("%s-export-%d.git", name, round))
		if _, err := git.PlainInit(dst, true); err != nil {
			return 0, 0, err
		}
		tookExport, err := timeGit(ctx, gs, u, sp.Space.ID, service.GitRequest{Direction: quire.GitExport, URL: "file://" + dst,
			Ref: "refs/heads/main", CommitMessage: "Export"})
		if err != nil {
			return 0, 0, err
		}
		if round == 1 || tookExport < exp {
			exp = tookExport
		}
		fmt.Fprintf(w, "%s: round %d: import %s, export %s\n", name, round, ms(tookImport), ms(tookExport))
	}
	return imp, exp, nil
}

// timeGit asks for a Git Sync operation and waits until it has run.
func timeGit(ctx context.Context, gs *service.GitSync, u *quire.User, spaceID string, r service.GitRequest) (time.Duration, error) {
	began := time.Now()
	if err := gs.Request(ctx, u, spaceID, r); err != nil {
		return 0, err
	}
	for {
		st, err := gs.State(ctx, spaceID)
		if err != nil {
			return 0, err
		}
		switch st.State {
		case quire.GitSuccess:
			return time.Since(began), nil
		case quire.GitFailure:
			return 0, fmt.Errorf("%s failed: %s", r.Direction, st.Error)
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// generatedRepo is a GitBook repository: gitBenchPages pages in sections
// of ten (a README per section and nine pages under it), each page with
// headings, a list, a table, a code block, a hint, a link to the next page
// and an image, and gitBenchAssets small PNG images.
func generatedRepo() gitremote.Files {
	files := gitremote.Files{}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Welcome](README.md)\n")
	files["README.md"] = []byte("# Welcome\n\nGenerated documentation.\n")
	png := tinyPNG()
	for i := range gitBenchAssets {
		files[fmt.Sprintf(".gitbook/assets/image-%03d.png", i)] = append(append([]byte{}, png...), byte(i))
	}
	page := func(title, self, next, asset string) []byte {
		return []byte("---\ndescription: About " + title + ".\n---\n\n# " + title + "\n\n" +
			"Some text about **" + title + "** with `code` and a [link to the next page](" + next + ").\n\n" +
			"## Steps\n\n1. First\n2. Second\n3. Third\n\n" +
			"| Name | Value |\n| ---- | ----- |\n| a    | 1     |\n| b    | 2     |\n\n" +
			"{% hint style=\"info\" %}\nA hint on " + self + ".\n{% endhint %}\n\n" +
			"```go\nfunc main() { println(\"" + title + "\") }\n```\n\n" +
			"![Figure](" + asset + ")\n")
	}
	n := 1
	for s := 0; n < gitBenchPages; s++ {
		section := fmt.Sprintf("section-%03d", s)
		fmt.Fprintf(&summary, "* [Section %d](%s/README.md)\n", s, section)
		files[section+"/README.md"] = page(fmt.Sprintf("Section %d", s), section, "page-1.md",
			fmt.Sprintf("../.gitbook/assets/image-%03d.png", s%gitBenchAssets))
		n++
		for p := 1; p < 10 && n < gitBenchPages; p++ {
			next := fmt.Sprintf("page-%d.md", p+1)
			if p == 9 {
				next = "README.md"
			}
			fmt.Fprintf(&summary, "  * [Page %d.%d](%s/page-%d.md)\n", s, p, section, p)
			files[fmt.Sprintf("%s/page-%d.md", section, p)] = page(fmt.Sprintf("Page %d.%d", s, p), section, next,
				fmt.Sprintf("../.gitbook/assets/image-%03d.png", (s+p)%gitBenchAssets))
			n++
		}
	}
	files["SUMMARY.md"] = []byte(summary.String())
	return files
}

// tinyPNG is a 1×1 PNG image.
func tinyPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
		"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
}
