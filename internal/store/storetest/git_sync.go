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
		{"git sync/progress of the running operation", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			applied := time.UnixMilli(1_700_000_000_000).UTC()
			g := &quire.GitSync{SpaceID: sp.ID, URL: "https://example.com/o/r.git", Applied: applied,
				Direction: quire.GitImport, State: quire.GitRunning, StartedAt: applied, UpdatedAt: applied}
			must(t, f.st.PutGitSync(ctx(t), g))
			p := quire.GitProgress{Phase: "receiving", Objects: 12, ObjectsTotal: 1300, Bytes: 5 << 30, Files: 1, FilesTotal: 2}
			at := applied.Add(3 * time.Second)
			must(t, f.st.SetGitProgress(ctx(t), sp.ID, applied, p, at))
			got, err := f.st.GitSync(ctx(t), sp.ID)
			must(t, err)
			g.Progress, g.UpdatedAt = p, at
			equal(t, "record with progress", *got, *g)

			// Progress of an operation no longer the record's is dropped,
			// and so is progress told after the operation ended.
			must(t, f.st.SetGitProgress(ctx(t), sp.ID, applied.Add(-time.Second), quire.GitProgress{Phase: "storing"}, at.Add(time.Second)))
			g.State = quire.GitSuccess
			must(t, f.st.PutGitSync(ctx(t), g))
			must(t, f.st.SetGitProgress(ctx(t), sp.ID, applied, quire.GitProgress{Phase: "storing"}, at.Add(time.Second)))
			got, err = f.st.GitSync(ctx(t), sp.ID)
			must(t, err)
			equal(t, "record after late progress", *got, *g)
		}},
		{"git sync/unknown space", func(t *testing.T, f *fixture) {
			err := f.st.PutGitSync(ctx(t), &quire.GitSync{SpaceID: "nope"})
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
