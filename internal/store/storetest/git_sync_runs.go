package storetest

import (
	"errors"
	"testing"
	"time"

	"quire/internal/quire"
)

func gitSyncRunTests() []test {
	return []test{
		{"git sync runs/add, read back newest first, keep the newest", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp, other := f.space(o, "", "a0"), f.space(o, "", "a1")
			runs, err := f.st.GitSyncRuns(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "no runs yet", len(runs), 0)

			start := time.UnixMilli(1_700_000_000_000).UTC()
			var added []*quire.GitSyncRun
			for i := range 5 {
				r := &quire.GitSyncRun{SpaceID: sp.ID, Direction: quire.GitImport, State: quire.GitSuccess,
					Commit: "c0ffee" + string(rune('0'+i)), StartedAt: start.Add(time.Duration(i) * time.Minute),
					FinishedAt: start.Add(time.Duration(i)*time.Minute + time.Second), UserID: "ada"}
				if i == 1 {
					r.Direction, r.State, r.Commit, r.Error, r.UserID = quire.GitExport, quire.GitFailure, "", "authentication refused", "bob"
				}
				if i == 2 {
					r.Warnings = []string{"stray.md: not in SUMMARY.md", "big.bin: left out"}
				}
				must(t, f.st.AddGitSyncRun(ctx(t), r, 10))
				if r.ID == 0 || len(added) > 0 && r.ID <= added[len(added)-1].ID {
					t.Fatalf("run %d: id %d does not ascend", i, r.ID)
				}
				added = append(added, r)
			}
			must(t, f.st.AddGitSyncRun(ctx(t), &quire.GitSyncRun{SpaceID: other.ID, Direction: quire.GitImport,
				State: quire.GitSuccess, StartedAt: start, FinishedAt: start}, 10))

			runs, err = f.st.GitSyncRuns(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "runs", len(runs), 5)
			for i, r := range runs {
				equal(t, "newest first", *r, *added[4-i])
			}
			runs, err = f.st.GitSyncRuns(ctx(t), sp.ID, 2)
			must(t, err)
			equal(t, "limited", []int64{runs[0].ID, runs[1].ID}, []int64{added[4].ID, added[3].ID})

			// Recording beyond what is kept drops the oldest, of this space
			// alone.
			last := &quire.GitSyncRun{SpaceID: sp.ID, Direction: quire.GitExport, State: quire.GitSuccess,
				Commit: "fresh", StartedAt: start.Add(time.Hour), FinishedAt: start.Add(time.Hour)}
			must(t, f.st.AddGitSyncRun(ctx(t), last, 3))
			runs, err = f.st.GitSyncRuns(ctx(t), sp.ID, 10)
			must(t, err)
			var got []int64
			for _, r := range runs {
				got = append(got, r.ID)
			}
			equal(t, "the newest three kept", got, []int64{last.ID, added[4].ID, added[3].ID})
			runs, err = f.st.GitSyncRuns(ctx(t), other.ID, 10)
			must(t, err)
			equal(t, "another space's runs stay", len(runs), 1)
		}},
		{"git sync runs/with the transaction or not at all", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			at := time.UnixMilli(1_700_000_000_000).UTC()
			boom := errors.New("boom")
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				if err := st.AddGitSyncRun(ctx(t), &quire.GitSyncRun{SpaceID: sp.ID, Direction: quire.GitImport,
					State: quire.GitSuccess, StartedAt: at, FinishedAt: at}, quire.GitSyncRunsKept); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("transaction: %v", err)
			}
			runs, err := f.st.GitSyncRuns(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "rolled back", len(runs), 0)

			err = f.st.AddGitSyncRun(ctx(t), &quire.GitSyncRun{SpaceID: "nope", Direction: quire.GitImport,
				State: quire.GitSuccess, StartedAt: at, FinishedAt: at}, quire.GitSyncRunsKept)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"git sync runs/go with their space", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			at := f.tick()
			must(t, f.st.AddGitSyncRun(ctx(t), &quire.GitSyncRun{SpaceID: sp.ID, Direction: quire.GitImport,
				State: quire.GitSuccess, StartedAt: at, FinishedAt: at}, quire.GitSyncRunsKept))
			_, err := f.st.DeleteSpace(ctx(t), sp.ID, at)
			must(t, err)
			_, err = f.st.PurgeSpaces(ctx(t), at.Add(time.Second))
			must(t, err)
			runs, err := f.st.GitSyncRuns(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "purged with the space", len(runs), 0)
		}},
	}
}
