package service

import (
	"context"
	"testing"

	"quire/internal/quire"
)

// recordingQueue records what is enqueued on it.
type recordingQueue struct {
	args []quire.JobArgs
	opts []quire.JobOptions
}

func (q *recordingQueue) Enqueue(_ context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	q.args = append(q.args, args)
	q.opts = append(q.opts, opts)
	return int64(len(q.args)), nil
}

// EnqueueTx records the job as Enqueue does: the recording queue holds
// no rows to commit.
func (q *recordingQueue) EnqueueTx(ctx context.Context, _ quire.Store, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	return q.Enqueue(ctx, args, opts)
}

type pingArgs struct{}

func (pingArgs) Kind() string { return "ping" }

func TestEnqueueGoesToTheQueue(t *testing.T) {
	t.Parallel()
	if _, err := New(nil).enqueue(t.Context(), pingArgs{}, quire.JobOptions{}); err == nil {
		t.Error("enqueue without a queue succeeded")
	}
	q := &recordingQueue{}
	s := New(nil, WithQueue(q))
	id, err := s.enqueue(t.Context(), pingArgs{}, quire.JobOptions{MaxAttempts: 3, Unique: true})
	if err != nil || id != 1 {
		t.Fatalf("enqueue: %d, %v", id, err)
	}
	if len(q.args) != 1 || q.args[0].Kind() != "ping" || q.opts[0] != (quire.JobOptions{MaxAttempts: 3, Unique: true}) {
		t.Errorf("queued %v with %v", q.args, q.opts)
	}
}
