package dump

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivershared/uniquestates"
	"github.com/riverqueue/river/rivertype"
)

// The job queue's tables differ between the engines in every type (JSON,
// arrays, enums, time stamps), and River owns them. So an archive carries
// the jobs still to run (available, pending, retryable, running,
// scheduled), each as River's own record, read and written through
// River's driver; a job that was running when the snapshot was taken runs
// again after a restore, as it would after a crash. Finished jobs are
// history River deletes on its own, and are left out, as are the queue's
// leader and queue records, which a starting server makes again.

// pendingStates are the states of the jobs carried, for River's list.
const pendingStates = "state IN ('available', 'pending', 'retryable', 'running', 'scheduled')"

// jobPage is how many jobs are read at a time.
const jobPage = 500

// jobRecord is a job in an archive.
type jobRecord struct {
	Kind         string                   `json:"kind"`
	Args         json.RawMessage          `json:"args"`
	Queue        string                   `json:"queue"`
	Priority     int                      `json:"priority"`
	MaxAttempts  int                      `json:"maxAttempts"`
	Attempt      int                      `json:"attempt"`
	State        rivertype.JobState       `json:"state"`
	CreatedAt    time.Time                `json:"createdAt"`
	ScheduledAt  time.Time                `json:"scheduledAt"`
	AttemptedAt  *time.Time               `json:"attemptedAt,omitempty"`
	AttemptedBy  []string                 `json:"attemptedBy,omitempty"`
	Errors       []rivertype.AttemptError `json:"errors,omitempty"`
	Metadata     json.RawMessage          `json:"metadata,omitempty"`
	Tags         []string                 `json:"tags,omitempty"`
	UniqueKey    []byte                   `json:"uniqueKey,omitempty"`
	UniqueStates []rivertype.JobState     `json:"uniqueStates,omitempty"`
}

// record turns River's row into a jobRecord.
func record(j *rivertype.JobRow) (jobRecord, error) {
	r := jobRecord{Kind: j.Kind, Args: j.EncodedArgs, Queue: j.Queue, Priority: j.Priority,
		MaxAttempts: j.MaxAttempts, Attempt: j.Attempt, State: j.State, CreatedAt: j.CreatedAt.UTC(),
		ScheduledAt: j.ScheduledAt.UTC(), AttemptedBy: j.AttemptedBy, Errors: j.Errors, Tags: j.Tags,
		UniqueKey: j.UniqueKey, UniqueStates: j.UniqueStates}
	if j.AttemptedAt != nil {
		at := j.AttemptedAt.UTC()
		r.AttemptedAt = &at
	}
	if len(j.Metadata) > 0 {
		r.Metadata = j.Metadata
	}
	if !json.Valid(r.Args) || (r.Metadata != nil && !json.Valid(r.Metadata)) {
		return r, fmt.Errorf("job %d (%s) holds arguments or metadata that are not JSON", j.ID, j.Kind)
	}
	return r, nil
}

// writeJobs writes the pending jobs of the snapshot.
func (s *Snapshot) writeJobs(ctx context.Context, a *archiveWriter) (Sum, error) {
	exec := s.eng.Jobs(s.tx)
	l := &lines{a: a, dir: jobsDir}
	var after int64
	for {
		jobs, err := exec.JobList(ctx, &riverdriver.JobListParams{
			Max: jobPage, WhereClause: pendingStates + " AND id > @after_id",
			NamedArgs: map[string]any{"after_id": after}, OrderByClause: "id",
		})
		if err != nil {
			return Sum{}, fmt.Errorf("dump: read the job queue: %w", err)
		}
		for _, j := range jobs {
			r, err := record(j)
			if err != nil {
				return Sum{}, fmt.Errorf("dump: %w", err)
			}
			line, err := marshalLine(r)
			if err != nil {
				return Sum{}, fmt.Errorf("dump: job %d: %w", j.ID, err)
			}
			if err := l.add(line); err != nil {
				return Sum{}, fmt.Errorf("dump: write: %w", err)
			}
			after = j.ID
		}
		if len(jobs) < jobPage {
			break
		}
	}
	if err := l.flush(); err != nil {
		return Sum{}, fmt.Errorf("dump: write: %w", err)
	}
	return l.sum.sum(), nil
}

// marshalLine encodes v as one line of JSON, without the newline.
func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// insertJobs queues the jobs of an archive in tx. A job that was running
// is made available again: the process running it is gone.
func insertJobs(ctx context.Context, eng Engine, tx *sql.Tx, recs []jobRecord) error {
	for _, r := range recs {
		state := r.State
		if state == rivertype.JobStateRunning {
			state = rivertype.JobStateAvailable
		}
		errs := make([][]byte, len(r.Errors))
		for k, e := range r.Errors {
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			errs[k] = b
		}
		created, scheduled := r.CreatedAt, r.ScheduledAt
		metadata := []byte(r.Metadata)
		if metadata == nil {
			metadata = []byte("{}")
		}
		tags := r.Tags
		if tags == nil {
			tags = []string{}
		}
		err := eng.InsertJob(ctx, tx, &riverdriver.JobInsertFullParams{
			Attempt: r.Attempt, AttemptedAt: r.AttemptedAt, AttemptedBy: r.AttemptedBy, CreatedAt: &created,
			EncodedArgs: r.Args, Errors: errs, Kind: r.Kind, MaxAttempts: r.MaxAttempts, Metadata: metadata,
			Priority: r.Priority, Queue: r.Queue, ScheduledAt: &scheduled, State: state, Tags: tags,
			UniqueKey: r.UniqueKey, UniqueStates: uniquestates.UniqueStatesToBitmask(r.UniqueStates),
		})
		if err != nil {
			return fmt.Errorf("queue a %s job: %w", r.Kind, err)
		}
	}
	return nil
}
