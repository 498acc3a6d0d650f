package service

import (
	"context"
	"slices"
	"sync"

	"quire/internal/quire"
)

// maxSpaceBatch bounds how many queued operations of one key share a
// transaction: how long the first of them waits for its answer, and how
// many savepoints the transaction makes (PostgreSQL keeps up to 64
// subtransactions of a session in shared memory before others' snapshots
// slow down).
const maxSpaceBatch = 64

// writeQueues runs writes queued in this process under one key (a space,
// an organization) in batches that share a commit: the caller whose turn
// comes (the leader) takes every operation waiting under the key, up to
// maxSpaceBatch, and runs them one after the other in one transaction,
// after begin (for a space: taking its lock, quire.Store.LockSpace). Each
// operation sees the writes of those before it, fails alone (it runs in a
// savepoint), and is answered only once the transaction that holds it has
// committed. When the leader is done, the next waiting caller leads the
// next batch. A key is forgotten once nobody waits under it.
//
// The service keeps one for the operations of a space that need its lock
// (merges and updates), and one for writes that need none: space creates
// by organization, comments and activity records by space, the last only
// where the database writes serially (SQLite). On SQLite a
// commit writes every page a transaction touched to the WAL, so writes
// sharing a commit write a table's and its indexes' pages once.
type writeQueues struct {
	mu   sync.Mutex
	keys map[string]*writeQueue
	// begin, when set, runs first in each batch's transaction, with the
	// batch's key and jobs.
	begin func(ctx context.Context, st quire.Store, key string, jobs []*writeJob) error
	// serialOnly runs the jobs of each caller alone, in a transaction of
	// its own, on a store whose engine commits concurrently (see
	// quire.Store.SerialWrites): batching only serializes them there.
	serialOnly bool
	// retryStale runs a job that loses a compare-and-swap again in the
	// batch; otherwise quire.IsStale is its answer, for a caller that
	// starts again from a fresh read outside the transaction.
	retryStale bool
	// announce, when set, is called once after a batch whose committed
	// operations moved the space's current revision, before they are
	// answered (Service.announceContent): one job hands over the events
	// of the whole batch.
	announce func(ctx context.Context, spaceID string)
}

// writeQueue is one key's queue: the operations not yet taken into a
// batch, and whether a leader is running one.
type writeQueue struct {
	waiting []*writeJob
	busy    bool
}

// writeJob is one queued operation and, once done is closed, its error.
type writeJob struct {
	ctx context.Context
	// changeRequest is the change request the operation works on, read
	// ahead with those of the batch's other operations.
	changeRequest string
	// run runs the operation and reports whether it moved the space's
	// current revision.
	run   func(ctx context.Context, st quire.Store) (moved bool, err error)
	err   error
	moved bool
	// taken, under writeQueues.mu, is set once the job is called to lead
	// or put in a batch: from then on it is answered, never withdrawn.
	taken bool
	lead  chan struct{}
	done  chan struct{}
}

// do runs op, an operation on change request crID ("" for none), in a
// batch with the other operations queued under key, and returns
// op's error, or the transaction's when it failed to commit. op reports
// whether it moved the space's current revision, for the batch to
// announce the move once committed. op must
// write through the Store it is handed and use the context it is handed,
// which outlives the callers' own: one caller leaving does not abort the
// batch. A caller that leaves while its job
// still waits is withdrawn and gets ctx's error, op not run; once the job
// is taken, the caller waits for its batch to end.
func (q *writeQueues) do(ctx context.Context, store quire.Store, key, crID string, op func(ctx context.Context, st quire.Store) (moved bool, err error)) error {
	if q.serialOnly && !store.SerialWrites() {
		return runJob(ctx, store, &writeJob{ctx: ctx, run: op}, q.retryStale)
	}
	j := &writeJob{ctx: ctx, changeRequest: crID, run: op, lead: make(chan struct{}), done: make(chan struct{})}
	q.mu.Lock()
	if q.keys == nil {
		q.keys = map[string]*writeQueue{}
	}
	sq := q.keys[key]
	if sq == nil {
		sq = &writeQueue{}
		q.keys[key] = sq
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
	q.runTurn(store, key, sq, j)
	return j.err
}

// await waits until j is called to lead or answered, and reports false
// when j's caller left first and j was withdrawn from the queue.
func (q *writeQueues) await(j *writeJob, sq *writeQueue) bool {
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
func (q *writeQueues) runTurn(store quire.Store, key string, sq *writeQueue, leader *writeJob) {
	q.mu.Lock()
	n := min(len(sq.waiting), maxSpaceBatch)
	batch := append([]*writeJob(nil), sq.waiting[:n]...)
	sq.waiting = append([]*writeJob(nil), sq.waiting[n:]...)
	for _, j := range batch {
		j.taken = true
	}
	q.mu.Unlock()

	ctx := context.WithoutCancel(leader.ctx)
	q.runBatch(ctx, store, key, batch)
	if q.announce != nil && slices.ContainsFunc(batch, func(j *writeJob) bool { return j.err == nil && j.moved }) {
		q.announce(ctx, key)
	}
	for _, j := range batch {
		close(j.done)
	}

	q.mu.Lock()
	defer q.mu.Unlock()
	if len(sq.waiting) == 0 {
		sq.busy = false
		delete(q.keys, key)
		return
	}
	next := sq.waiting[0]
	next.taken = true
	close(next.lead)
}

// runBatch runs the jobs in one transaction, after begin, and sets each
// job's error. Each job runs in a savepoint, again from the start while
// it loses a compare-and-swap (quire.IsStale) to a writer that does not
// take the lock; its domain error (a quire.Error: not found, merged
// meanwhile…) is its own answer and the others go on. An unexpected
// error (a database failure) ends the transaction instead: the store
// runs it again when the failure is transient, and when it still fails,
// each job runs alone in its own transaction, so that it fails only the
// job that causes it.
func (q *writeQueues) runBatch(ctx context.Context, store quire.Store, key string, jobs []*writeJob) {
	err := store.WithTx(ctx, func(st quire.Store) error {
		if q.begin != nil {
			if err := q.begin(ctx, st, key, jobs); err != nil {
				return err
			}
		}
		for _, j := range jobs {
			if err := j.ctx.Err(); err != nil {
				j.err = err
				continue
			}
			if j.err = runJob(ctx, st, j, q.retryStale); quire.ErrorCode(j.err) == quire.EINTERNAL {
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
		q.runBatch(ctx, store, key, []*writeJob{j})
	}
}

// runJob runs one job of a batch in a savepoint of st's transaction,
// with retry again from a fresh read while it loses a compare-and-swap:
// each loss means another writer committed.
func runJob(ctx context.Context, st quire.Store, j *writeJob, retry bool) error {
	for {
		err := st.WithTx(ctx, func(st quire.Store) error {
			var err error
			j.moved, err = j.run(ctx, st)
			return err
		})
		if !retry || !quire.IsStale(err) {
			return err
		}
	}
}

// lockSpace is the space queue's begin: it takes the space's lock, then
// reads the space and the jobs' change requests ahead in one statement
// (where the engine saves round trips by it), for each job's own read to
// be answered from it.
func lockSpace(ctx context.Context, st quire.Store, spaceID string, jobs []*writeJob) error {
	if err := st.LockSpace(ctx, spaceID); err != nil {
		return err
	}
	ids := make([]string, len(jobs))
	for i, j := range jobs {
		ids[i] = j.changeRequest
	}
	return st.ReadChangeRequestsAhead(ctx, spaceID, ids)
}
