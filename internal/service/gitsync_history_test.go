package service

import (
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/quire"
	"quire/internal/testutil"
)

// TestGitSyncHistoryRecordsFinishedOperations runs an import that
// succeeds and one that fails, and finds both in the space's history,
// newest first, with who asked, the commit, the warnings and the error;
// an operation finishing after the space's record was forgotten is kept
// in the history all the same.
func TestGitSyncHistoryRecordsFinishedOperations(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newGitFixture(t, st)
		dir := t.TempDir()
		if _, err := git.PlainInit(dir, false); err != nil {
			t.Fatal(err)
		}
		testutil.CommitFiles(t, dir, map[string][]byte{
			"README.md":  []byte("# Welcome\n"),
			"SUMMARY.md": []byte("# Table of contents\n\n* [Welcome](README.md)\n"),
			"stray.md":   []byte("# Stray\n"),
		})
		ok := f.importFrom(t, "file://"+dir, "refs/heads/master")
		if ok.State != quire.GitSuccess || len(ok.Warnings) == 0 {
			t.Fatalf("import: %s %q, warnings %v", ok.State, ok.Error, ok.Warnings)
		}
		failed := f.importFrom(t, "file://"+dir, "refs/heads/nope")
		if failed.State != quire.GitFailure {
			t.Fatalf("import of a missing branch: %s", failed.State)
		}

		runs, err := f.git.History(t.Context(), f.space)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 2 {
			t.Fatalf("history: %d runs, want 2", len(runs))
		}
		last, first := runs[0], runs[1]
		if last.State != quire.GitFailure || last.Error != failed.Error || last.Commit != "" || last.Direction != quire.GitImport {
			t.Errorf("newest run: %+v", last)
		}
		if first.State != quire.GitSuccess || first.Commit != ok.Commit || len(first.Warnings) != len(ok.Warnings) || first.Error != "" {
			t.Errorf("first run: %+v, want commit %s and warnings %v", first, ok.Commit, ok.Warnings)
		}
		for _, r := range runs {
			if r.UserID != f.user.ID || r.By != f.user.DisplayName || r.SpaceID != f.space || r.StartedAt.IsZero() || r.FinishedAt.Before(r.StartedAt) {
				t.Errorf("run %d: who %q, started %v, finished %v", r.ID, r.UserID, r.StartedAt, r.FinishedAt)
			}
		}

		// The record forgotten, a run is still kept.
		if _, err := f.git.DeleteInstallation(t.Context(), f.space); err != nil {
			t.Fatal(err)
		}
		box, err := f.git.sealer(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		job := GitJob{Space: f.space, User: f.user.ID, Direction: quire.GitImport, Ref: "refs/heads/master",
			SealedURL: box.Seal([]byte("file://"+dir), []byte(f.space)), Timestamp: 1}
		_, started, err := f.git.begin(t.Context(), job, time.UnixMilli(job.Timestamp).UTC())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.git.DeleteInstallation(t.Context(), f.space); err != nil {
			t.Fatal(err)
		}
		if err := f.git.finish(t.Context(), job, started, "abc", nil, nil); err != nil {
			t.Fatal(err)
		}
		if runs, err = f.git.History(t.Context(), f.space); err != nil || len(runs) != 3 || runs[0].Commit != "abc" {
			t.Fatalf("history after the record was forgotten: %v %v", runs, err)
		}
	})
}
