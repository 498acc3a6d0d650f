package service

import (
	"context"
	"slices"
	"sync"

	"quire/internal/quire"
)

// maxSpaceBatch bounds how many queued operations of one space share a
// transaction: how long the first of them waits for its answer, and how
// many savepoints the transaction makes (PostgreSQL keeps up to 64
// subtransactions of a session in shared memory before others' snapshots
// slow down).
const maxSpaceBatch = 64

// spaceQueues runs the operations of one space that need the space's lock
// (merges and updates), queued in this process, in batches: the caller
// whose turn comes (the leader) takes every operation waiting for the
// space, up to maxSpaceBatch, and runs them one after the other in one
// transaction holding the space's lock (quire.Store.LockSpace), so that
// they share its commit. Each operation sees the writes of those before
// it, fails alone (it runs in a savepoint), and is answered only once the
// transaction that holds it has committed. When the leader is done, the
// next waiting caller leads the next batch. A space is forgotten once
// nobody waits for it.
type spaceQueues struct {
	mu     sync.Mutex
	spaces map[string]*spaceQueue
	// announce, when set, is called once after a batch whose committed
	// operations moved the space's current revision, before they are
	// answered (Service.announceContent): one job hands over the events
	// of the whole batch.
	announce func(ctx context.Context, spaceID string)
}

// spaceQueue is one space's queue: the operations not yet taken into a
// batch, and whether a leader is running one.
type spaceQueue struct {
	waiting []*spaceJob
	busy    bool
}

// spaceJob is one queued operation and, once done is closed, its error.
type spaceJob struct {
	ctx context.Context
	// changeRequest is the change request the operation works on, read
	// ahead with those of the batch's other operations.
	changeRequest string
	// run runs the operation and reports whether it moved the space's
	// current revision.
	run   func(ctx context.Context, st quire.Store) (moved bool, err error)
	err   error
	moved bool
	// taken, under spaceQueues.mu, is set once the job is called to lead
	// or put in a batch: from then on it is answered, never withdrawn.
	taken bool
	lead  chan struct{}
	done  chan struct{}
}

// do runs op, an operation on change request crID, under the space's
// lock, in a batch with the space's other queued operations, and returns
// op's error, or the transaction's when it failed to commit. op reports
// whether it moved the space's current revision, for the batch to
// announce the move once committed. op must
// write through the Store it is handed and use the context it is handed,
// which outlives the callers' own: one caller leaving does not abort the
// batch. A caller that leaves while its job
// still waits is withdrawn and gets ctx's error, op not run; once the job
// is taken, the caller waits for its batch to end.
func (q *spaceQueues) do(ctx context.Context, store quire.Store, spaceID, crID string, op func(ctx context.Context, st quire.Store) (moved bool, err error)) error {
	j := &spaceJob{ctx: ctx, changeRequest: crID, run: op, lead: make(chan struct{}), done: make(chan struct{})}
	q.mu.Lock()
	if q.spaces == nil {
		q.spaces = map[string]*spaceQueue{}
	}
	sq := q.spaces[spaceID]
	if sq == nil {
		sq = &spaceQueue{}
		q.spaces[spaceID] = sq
	}
	sq.waiting = append(sq.waiting, j)
	leader := !sq.busy
	if leader {
		sq.busy, j.taken = true, true
	}
	q.mu.Unlock()
	if !leader {
		if !q.await(j, sq) {
			return ctx.Err()
		}
		select {
		case <-j.lead:
		case <-j.done:
			return j.err
		}
	}
	// The leader's own job is in the batch it runs.
	q.runTurn(store, spaceID, sq, j)
	return j.err
}

// await waits until j is called to lead or answered, and reports false
// when j's caller left first and j was withdrawn from the queue.
func (q *spaceQueues) await(j *spaceJob, sq *spaceQueue) bool {
	select {
	case <-j.lead:
		return true
	case <-j.done:
		return true
	case <-j.ctx.Done():
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if j.taken {
		return true
	}
	for i, w := range sq.waiting {
		if w == j {
			sq.waiting = append(sq.waiting[:i:i], sq.waiting[i+1:]...)
			break
		}
	}
	return false
}

// runTurn is the leader's turn: it takes the waiting jobs (its own first
// among them), runs them as one batch, announces the space's move once
// when a job that succeeded made one, answers them, and calls the next
// waiting job to lead, or forgets the space.
func (q *spaceQueues) runTurn(store quire.Store, spaceID string, sq *spaceQueue, leader *spaceJob) {
	q.mu.Lock()
	n := min(len(sq.waiting), maxSpaceBatch)
	batch := append([]*spaceJob(nil), sq.waiting[:n]...)
	sq.waiting = append([]*spaceJob(nil), sq.waiting[n:]...)
	for _, j := range batch {
		j.taken = true
	}
	q.mu.Unlock()

	ctx := context.WithoutCancel(leader.ctx)
	runSpaceBatch(ctx, store, spaceID, batch)
	if q.announce != nil && slices.ContainsFunc(batch, func(j *spaceJob) bool { return j.err == nil && j.moved }) {
		q.announce(ctx, spaceID)
	}
	for _, j := range batch {
		close(j.done)
	}

	q.mu.Lock()
	defer q.mu.Unlock()
	if len(sq.waiting) == 0 {
		sq.busy = false
		delete(q.spaces, spaceID)
		return
	}
	next := sq.waiting[0]
	next.taken = true
	close(next.lead)
}

// runSpaceBatch runs the jobs in one transaction holding the space's lock
// and sets each job's error. Once the lock is taken, the space and the
// jobs' change requests are read ahead in one statement (where the
// engine saves round trips by it), for each job's own read to be
// answered from it. Each job runs in a savepoint, again from the
// start while it loses a compare-and-swap (quire.IsStale) to a writer
// that does not take the lock; its domain error (a quire.Error: not
// found, merged meanwhile…) is its own answer and the others go on. An
// unexpected error (a database failure) ends the transaction instead: the
// store runs it again when the failure is transient, and when it still
// fails, each job runs alone in its own transaction, so that it fails
// only the job that causes it.
func runSpaceBatch(ctx context.Context, store quire.Store, spaceID string, jobs []*spaceJob) {
	err := store.WithTx(ctx, func(st quire.Store) error {
		if err := st.LockSpace(ctx, spaceID); err != nil {
			return err
		}
		ids := make([]string, len(jobs))
		for i, j := range jobs {
			ids[i] = j.changeRequest
		}
		if err := st.ReadChangeRequestsAhead(ctx, spaceID, ids); err != nil {
			return err
		}
		for _, j := range jobs {
			if err := j.ctx.Err(); err != nil {
				j.err = err
				continue
			}
			if j.err = runSpaceJob(ctx, st, j); quire.ErrorCode(j.err) == quire.EINTERNAL {
				return j.err
			}
		}
		return nil
	})
	if err == nil {
		return
	}
	if len(jobs) == 1 {
		jobs[0].err = err
		return
	}
	for _, j := range jobs {
		runSpaceBatch(ctx, store, spaceID, []*spaceJob{j})
	}
}

// runSpaceJob runs one job of a batch in a savepoint of st's transaction,
// again from a fresh read while it loses a compare-and-swap: each loss
// means another writer committed.
func runSpaceJob(ctx context.Context, st quire.Store, j *spaceJob) error {
	for {
		err := st.WithTx(ctx, func(st quire.Store) error {
			var err error
			j.moved, err = j.run(ctx, st)
			return err
		})
		if !quire.IsStale(err) {
			return err
		}
	}
}
