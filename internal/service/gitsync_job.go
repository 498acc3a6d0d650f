package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"quire/internal/gitremote"
	"quire/internal/quire"
)

// RunJob carries out one queued Git Sync operation. An operation older
// than one already run is skipped. The outcome is recorded on the space:
// a failure leaves its content as it was, and its message (which never
// holds credentials) shows in the space's Git info and the server log.
// Only failures worth trying again (the database away) are returned, for
// the queue to retry.
func (g *GitSync) RunJob(ctx context.Context, job GitJob) error {
	ts := time.UnixMilli(job.Timestamp).UTC()
	run, started, err := g.begin(ctx, job, ts)
	if err != nil || !run {
		return err
	}
	opCtx, cancel := context.WithTimeout(ctx, g.timeout)
	began := time.Now()
	commit, warnings, opErr := g.carryOut(opCtx, job)
	cancel()
	if opErr != nil && ctx.Err() == nil && errors.Is(opCtx.Err(), context.DeadlineExceeded) {
		opErr = g.timedOut(job, time.Since(began), opErr)
	}
	return g.finish(ctx, job, started, commit, warnings, opErr)
}

// timedOut is the error of an operation that ran out of its time: the
// one the remote told, when it told it was a time-out, or else one naming
// the limit.
func (g *GitSync) timedOut(job GitJob, took time.Duration, err error) error {
	var qe *quire.Error
	if errors.As(err, &qe) && errors.Is(err, gitremote.ErrTimeout) {
		return err
	}
	g.log.Debug("git sync ran out of time", "space", job.Space, "err", err)
	return quire.Errorf(quire.EINVALID, "the %s timed out after %d s (the limit is %d s)",
		job.Direction, int64(took.Round(time.Second)/time.Second), int64(g.timeout/time.Second))
}

// begin marks the operation as the one applied, unless a newer one ran
// first; it reports whether to run it, and the time it started.
func (g *GitSync) begin(ctx context.Context, job GitJob, ts time.Time) (bool, time.Time, error) {
	run := true
	var now time.Time
	err := g.s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.LockSpace(ctx, job.Space); err != nil {
			return err
		}
		rec, err := st.GitSync(ctx, job.Space)
		if quire.IsNotFound(err) {
			rec, err = &quire.GitSync{SpaceID: job.Space}, nil
		}
		if err != nil {
			return err
		}
		if !job.Force && ts.Before(rec.Applied) {
			run = false
			return nil
		}
		now = g.s.Now()
		rec.Applied = ts
		rec.Direction, rec.State, rec.Error, rec.Warnings, rec.Ref = job.Direction, quire.GitRunning, "", nil, job.Ref
		rec.StartedAt, rec.UpdatedAt, rec.CompletedAt = now, now, nil
		rec.Progress = quire.GitProgress{}
		return st.PutGitSync(ctx, rec)
	})
	if quire.IsNotFound(err) {
		// The space is gone: nothing to sync.
		return false, now, nil
	}
	if err == nil && run {
		g.notify(ctx, job.Space, NoticeGitSyncStarted, "", false)
	}
	if err == nil && !run {
		g.log.InfoContext(ctx, "git sync skipped: a newer operation ran first",
			"space", job.Space, "direction", job.Direction, "timestamp", ts)
	}
	return run, now, err
}

// carryOut runs the operation and returns the commit imported or pushed,
// and the warnings of an import.
func (g *GitSync) carryOut(ctx context.Context, job GitJob) (string, []string, error) {
	box, err := g.sealer(ctx)
	if err != nil {
		return "", nil, err
	}
	raw, err := box.Open(job.SealedURL, []byte(job.Space))
	if err != nil {
		return "", nil, quire.Errorf(quire.EINVALID, "the repository address cannot be read with this server's key: ask again")
	}
	u, err := g.s.store.User(ctx, job.User)
	if err != nil {
		return "", nil, err
	}
	switch job.Direction {
	case quire.GitImport:
		return g.importRepo(ctx, u, job, string(raw))
	case quire.GitExport:
		oid, err := g.exportRepo(ctx, job, string(raw))
		return oid, nil, err
	}
	return "", nil, quire.Errorf(quire.EINVALID, "unknown direction %q", job.Direction)
}

// finish records the outcome: in the space's history of operations,
// and as the space's last operation unless a newer one took over the
// record meanwhile, in one transaction. It returns the error to retry
// on, if any.
func (g *GitSync) finish(ctx context.Context, job GitJob, started time.Time, commit string, warnings []string, opErr error) error {
	if opErr != nil && retryable(opErr) {
		g.log.WarnContext(ctx, "git sync failed; it will be tried again", "space", job.Space,
			"direction", job.Direction, "err", opErr)
		return opErr
	}
	now := g.s.Now()
	run := &quire.GitSyncRun{SpaceID: job.Space, Direction: job.Direction, State: quire.GitSuccess, Commit: commit,
		Warnings: warnings, StartedAt: started, FinishedAt: now, UserID: job.User}
	if opErr != nil {
		run.State, run.Error = quire.GitFailure, errorMessage(opErr)
	}
	err := g.s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.AddGitSyncRun(ctx, run, quire.GitSyncRunsKept); err != nil {
			return err
		}
		rec, err := st.GitSync(ctx, job.Space)
		if quire.IsNotFound(err) {
			return nil // the record was forgotten meanwhile; the history keeps the run
		}
		if err != nil {
			return err
		}
		if rec.Applied.UnixMilli() != job.Timestamp {
			return nil // a newer operation took over the record
		}
		rec.State, rec.Commit, rec.Warnings, rec.UpdatedAt, rec.CompletedAt = quire.GitSuccess, commit, warnings, now, &now
		if opErr != nil {
			rec.State, rec.Error, rec.CompletedAt = quire.GitFailure, run.Error, nil
		}
		return st.PutGitSync(ctx, rec)
	})
	g.notify(ctx, job.Space, NoticeGitSyncCompleted, commit, opErr != nil)
	if opErr != nil {
		g.log.ErrorContext(ctx, "git sync failed", "space", job.Space, "direction", job.Direction, "err", opErr)
	} else {
		g.log.InfoContext(ctx, "git sync done", "space", job.Space, "direction", job.Direction, "commit", commit)
	}
	if quire.IsNotFound(err) {
		return nil
	}
	return err
}

// retryable reports whether an operation failed for a reason that may
// pass: anything but a domain error about the request or its content.
func retryable(err error) bool {
	var qe *quire.Error
	if errors.As(err, &qe) {
		return false
	}
	return !errors.Is(err, context.Canceled)
}

// errorMessage is what a failure tells the space's users.
func errorMessage(err error) string {
	var qe *quire.Error
	if errors.As(err, &qe) {
		return qe.Error()
	}
	return fmt.Sprintf("internal error: %v", err)
}

// notify tells the space watchers of a Git Sync operation, with the
// space's current revision.
func (g *GitSync) notify(ctx context.Context, spaceID string, kind SpaceNoticeKind, commit string, failed bool) {
	sp, err := g.s.store.Space(ctx, spaceID)
	if err != nil {
		return
	}
	g.s.notifySpace(ctx, SpaceNotice{Kind: kind, SpaceID: spaceID, RevisionID: sp.Revision, CommitID: commit, Failed: failed})
}
