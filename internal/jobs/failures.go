package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// errorLogger logs and counts every failed attempt of a job, leaving the
// retry to River's schedule.
type errorLogger struct {
	log    *slog.Logger
	counts *failureCounts
}

// HandleError logs an attempt that returned an error.
func (h *errorLogger) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	h.logAttempt(ctx, job, "err", err.Error())
	return nil
}

// HandlePanic logs an attempt that panicked, with the stack.
func (h *errorLogger) HandlePanic(ctx context.Context, job *rivertype.JobRow, v any, trace string) *river.ErrorHandlerResult {
	h.logAttempt(ctx, job, "err", fmt.Sprintf("panic: %v", v), "stack", trace)
	return nil
}

// logAttempt logs a failed attempt: a warning while attempts remain, an
// error on the last.
func (h *errorLogger) logAttempt(ctx context.Context, job *rivertype.JobRow, attrs ...any) {
	h.counts.add(job.Kind)
	attrs = append([]any{"job_id", job.ID, "kind", job.Kind, "attempt", job.Attempt, "max_attempts", job.MaxAttempts}, attrs...)
	if job.Attempt >= job.MaxAttempts {
		h.log.ErrorContext(ctx, "job failed for good", attrs...)
		return
	}
	h.log.WarnContext(ctx, "job attempt failed; will retry", attrs...)
}

// backoffPolicy is a River retry policy waiting f(attempt) after a failed
// attempt.
type backoffPolicy func(attempt int) time.Duration

// NextRetry returns when the job's next attempt may run.
func (f backoffPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(f(job.Attempt))
}

// FailedJob is a job that ran out of attempts.
type FailedJob struct {
	ID       int64
	Kind     string
	Attempts int
	// FailedAt is when the last attempt failed.
	FailedAt time.Time
	// Errors holds the error of each attempt, the first first.
	Errors []string
}

// Failed returns up to limit jobs that ran out of attempts, the latest
// failure first. River keeps them for a week.
func (q *Queue) Failed(ctx context.Context, limit int) ([]FailedJob, error) {
	if limit <= 0 {
		return nil, nil
	}
	params := river.NewJobListParams().
		States(rivertype.JobStateDiscarded).
		OrderBy(river.JobListOrderByFinalizedAt, river.SortOrderDesc).
		First(limit)
	res, err := q.inserter.JobList(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("jobs: list failed jobs: %w", err)
	}
	out := make([]FailedJob, 0, len(res.Jobs))
	for _, j := range res.Jobs {
		f := FailedJob{ID: j.ID, Kind: j.Kind, Attempts: j.Attempt}
		if j.FinalizedAt != nil {
			f.FailedAt = *j.FinalizedAt
		}
		for _, e := range j.Errors {
			f.Errors = append(f.Errors, e.Error)
		}
		out = append(out, f)
	}
	return out, nil
}
