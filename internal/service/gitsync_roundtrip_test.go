package service

import (
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"quire/internal/blob"
	"quire/internal/gitremote"
	"quire/internal/quire"
	"quire/internal/testutil/gitbookrepo"
)

// TestGitSyncRoundTripIsByteStable imports a repository written as GitBook
// writes it (every front-matter style, HTML tables in other HTML, a table
// of contents with items without a link, raw HTML, images, a custom root
// and structure file names) from a local bare repository, exports the
// space to another one, and expects the same bytes in every file the
// space holds; importing the export and exporting again changes nothing.
func TestGitSyncRoundTripIsByteStable(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		quiet := slog.New(slog.DiscardHandler)
		blobs, err := blob.Open(ctx, "", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		svc := New(st, WithLogger(quiet), WithBlobs(blobs))
		boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
		if err != nil {
			t.Fatal(err)
		}
		u, err := st.User(ctx, boot.User)
		if err != nil {
			t.Fatal(err)
		}
		remote := gitremote.New(gitremote.Options{AllowLocal: true, Logger: quiet})
		g := NewGitSync(svc, remote)
		const ref = "refs/heads/main"

		orig := gitbookrepo.Files()
		source := bareRepo(t)
		if _, _, err := remote.Push(ctx, source, ref, "", gitremote.Files(orig), "Docs"); err != nil {
			t.Fatal(err)
		}
		want := map[string][]byte{}
		for name, data := range orig {
			if name == ".gitbook.yaml" || strings.HasPrefix(name, gitbookrepo.Root+"/") {
				want[name] = data
			}
		}

		from := source
		for round := 1; round <= 2; round++ {
			sp, err := svc.CreateSpace(ctx, u, boot.Organization, SpaceInput{Title: "Docs"})
			if err != nil {
				t.Fatal(err)
			}
			job := GitJob{Space: sp.Space.ID, User: u.ID, Ref: ref, CommitMessage: "Export"}
			if _, warnings, err := g.importRepo(ctx, u, job, from); err != nil {
				t.Fatalf("round %d: import: %v", round, err)
			} else if len(warnings) > 0 {
				t.Logf("round %d: warnings %q", round, warnings)
			}
			target := bareRepo(t)
			if _, err := g.exportRepo(ctx, job, target); err != nil {
				t.Fatalf("round %d: export: %v", round, err)
			}
			co, err := remote.Fetch(ctx, target, ref, "")
			if err != nil {
				t.Fatal(err)
			}
			compareRepos(t, round, co.Files, want)
			from = target
		}
	})
}

// bareRepo makes an empty bare repository and returns its file:// URL.
func bareRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo.git")
	if _, err := git.PlainInit(dir, true); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(dir)
}

func compareRepos(t *testing.T, round int, got gitremote.Files, want map[string][]byte) {
	t.Helper()
	var names []string
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("round %d: %s is not exported", round, name)
		case string(g) != string(want[name]):
			t.Errorf("round %d: %s differs\n--- exported:\n%s\n--- imported:\n%s", round, name, g, want[name])
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("round %d: %s is exported but was not imported", round, name)
		}
	}
}
