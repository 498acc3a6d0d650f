package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func gitSyncTests() []test {
	return []test{
		{"git sync/put, replace, read back and delete", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			_, err := f.st.GitSync(ctx(t), sp.ID)
			wantCode(t, err, quire.ENOTFOUND)

			started := time.UnixMilli(1_700_000_000_123).UTC()
			g := &quire.GitSync{SpaceID: sp.ID, Provider: quire.GitProviderGitHub, TreeURL: "https://example.com/o/r/tree/main",
				URL: "https://example.com/o/r.git", RepoName: "o/r", Ref: "refs/heads/main", Requested: started,
				Direction: quire.GitImport, State: quire.GitRunning, StartedAt: started, UpdatedAt: started}
			must(t, f.st.PutGitSync(ctx(t), g))
			got, err := f.st.GitSync(ctx(t), sp.ID)
			must(t, err)
			equal(t, "record", *got, *g)

			done := started.Add(time.Second)
			g.State, g.Applied, g.Commit, g.Error, g.UpdatedAt, g.CompletedAt = quire.GitFailure, started, "abc", "could not fetch", done, &done
			g.Warnings = []string{"orphan.md: not in SUMMARY.md"}
			must(t, f.st.PutGitSync(ctx(t), g))
			got, err = f.st.GitSync(ctx(t), sp.ID)
			must(t, err)
			equal(t, "replaced record", *got, *g)

			removed, err := f.st.DeleteGitSync(ctx(t), sp.ID)
			must(t, err)
			equal(t, "removed", removed, true)
			removed, err = f.st.DeleteGitSync(ctx(t), sp.ID)
			must(t, err)
			equal(t, "removed again", removed, false)
			_, err = f.st.GitSync(ctx(t), sp.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"git sync/unknown space", func(t *testing.T, f *fixture) {
			err := f.st.PutGitSync(ctx(t), &quire.GitSync{SpaceID: "nope"})
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
