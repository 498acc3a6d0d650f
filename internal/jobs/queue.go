package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"quire/internal/quire"
	"quire/internal/store/sqlstore"
)

// Database is what a Queue needs of the opened store: the pool to run on
// and its engine (*sqlstore.Store has it). The job tables are created by
// the store's migrations.
type Database interface {
	// JobDB returns the pool, which the store keeps owning and closes,
	// and the engine behind it.
	JobDB() (*sql.DB, sqlstore.Engine)
}

// Defaults of a Queue.
const (
	DefaultWorkers      = 4
	DefaultPollInterval = time.Second
	DefaultMaxAttempts  = 10
	DefaultJobTimeout   = 10 * time.Minute
	// hardStopTimeout bounds the wait for cancelled jobs to return once
	// Stop's context has ended.
	hardStopTimeout = 5 * time.Second
)

// Config configures a Queue; zero fields take the defaults.
type Config struct {
	// Workers is how many jobs this process runs at once.
	Workers int
	// PollInterval is how often an idle queue looks for jobs that are due
	// (queued by any replica, or waiting for a retry).
	PollInterval time.Duration
	// MaxAttempts is how many times a job is tried when it names no
	// number itself.
	MaxAttempts int
	// JobTimeout bounds one attempt: its context is cancelled after it.
	JobTimeout time.Duration
	// Backoff returns the wait after a failed attempt (1 for the first)
	// before the next; nil takes River's default, which grows with the
	// fourth power of the attempt (1 s, 16 s, 81 s, …) plus jitter.
	Backoff func(attempt int) time.Duration
	// Logger receives a line for every failed attempt, and River's own
	// warnings.
	Logger *slog.Logger
	// Plugins are River extensions installed on the clients that queue
	// and work the jobs, such as tracing (internal/telemetry).
	Plugins []rivertype.Plugin
}

// Queue is the durable background job queue. Jobs are rows in the
// database (River's river_job table), so they outlive the process; each
// is locked by the one replica that runs it. Register a worker per job
// kind, then Start; Enqueue works whether or not the queue is started.
type Queue struct {
	cfg    Config
	driver riverdriver.Driver[*sql.Tx]
	// failures counts the failed attempts of each kind.
	failures *failureCounts
	// inserter queues and lists jobs; it never works any.
	inserter *river.Client[*sql.Tx]

	mu      sync.Mutex
	workers *river.Workers
	// kinds lists the kinds registered, in order.
	kinds []string
	// periodic are the jobs queued on a schedule (Every).
	periodic []*river.PeriodicJob
	state    queueState
	// runner works the jobs while running; nil when no kind is
	// registered.
	runner *river.Client[*sql.Tx]
}

// queueState is where a Queue is in its life.
type queueState int

// Queue states.
const (
	queueIdle queueState = iota
	queueRunning
	queueStopped
)

// New returns a Queue on db's pool; it runs nothing until Start.
func New(db Database, cfg Config) (*Queue, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	pool, engine := db.JobDB()
	var driver riverdriver.Driver[*sql.Tx]
	switch engine {
	case sqlstore.EngineSQLite:
		driver = riversqlite.New(pool)
	case sqlstore.EnginePostgres:
		driver = riverdatabasesql.New(pool)
	default:
		return nil, fmt.Errorf("jobs: no queue driver for engine %v", engine)
	}
	q := &Queue{cfg: cfg, driver: driver, workers: river.NewWorkers(), failures: &failureCounts{}}
	inserter, err := river.NewClient(driver, q.riverConfig(nil))
	if err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	q.inserter = inserter
	return q, nil
}

// riverConfig returns River's configuration: for a client working the
// jobs of workers, or one that only queues and lists when workers is nil.
func (q *Queue) riverConfig(workers *river.Workers) *river.Config {
	c := &river.Config{
		Logger:      warnings(q.cfg.Logger),
		MaxAttempts: q.cfg.MaxAttempts,
		// Poll on both engines: River's PostgreSQL driver over
		// database/sql has no LISTEN, and polling keeps SQLite's single
		// writer free of a listener's statements.
		PollOnly:          true,
		FetchPollInterval: q.cfg.PollInterval,
		FetchCooldown:     min(q.cfg.PollInterval, river.FetchCooldownDefault),
		JobTimeout:        q.cfg.JobTimeout,
		ErrorHandler:      &errorLogger{log: q.cfg.Logger, counts: q.failures},
		Plugins:           q.cfg.Plugins,
	}
	if q.cfg.Backoff != nil {
		c.RetryPolicy = backoffPolicy(q.cfg.Backoff)
	}
	if workers != nil {
		c.Workers = workers
		c.PeriodicJobs = q.periodic
		c.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: q.cfg.Workers}}
	}
	return c
}

// Start begins working the jobs of the registered kinds, on goroutines
// that run until Stop. ctx's values reach the workers, but not its end:
// stopping is Stop's work, so that jobs in progress may finish. With no
// kind registered it works nothing (jobs wait for a replica that can run
// them). Starting a started queue does nothing; a stopped queue cannot
// start again.
func (q *Queue) Start(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch q.state {
	case queueRunning:
		return nil
	case queueStopped:
		return errors.New("jobs: a stopped queue cannot start again")
	}
	if len(q.kinds) > 0 {
		runner, err := river.NewClient(q.driver, q.riverConfig(q.workers))
		if err != nil {
			return fmt.Errorf("jobs: %w", err)
		}
		if err := runner.Start(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("jobs: start: %w", err)
		}
		q.runner = runner
	}
	q.state = queueRunning
	q.cfg.Logger.InfoContext(ctx, "job queue started", "kinds", q.kinds, "workers", q.cfg.Workers)
	return nil
}

// Stop stops fetching jobs and waits for those in progress until ctx
// ends; then it cancels their contexts and waits a little longer. A job
// cut short this way runs again later. Stopping a queue that is not
// running does nothing.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	runner := q.runner
	q.runner = nil
	if q.state == queueRunning {
		q.state = queueStopped
	}
	q.mu.Unlock()
	if runner == nil {
		return nil
	}
	err := runner.Stop(ctx)
	if err == nil || ctx.Err() == nil {
		return err
	}
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hardStopTimeout)
	defer cancel()
	if herr := runner.StopAndCancel(hctx); herr != nil {
		return fmt.Errorf("jobs: stop: %w", errors.Join(err, herr))
	}
	return nil
}

// Enqueue stores a job and returns its id; for a unique job already
// queued, the id of that job. The job runs on whichever replica takes it
// first, once its kind's worker is registered there.
//
// On SQLite the queue writes on the store's single writer connection, so
// Enqueue must not be called inside a store transaction: it would wait for
// that transaction, which waits for it. Inside one, EnqueueTx queues on
// the transaction itself.
func (q *Queue) Enqueue(ctx context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if args == nil {
		return 0, quire.Invalid("args", "is required")
	}
	if opts.MaxAttempts < 0 {
		return 0, quire.Invalid("maxAttempts", "must not be negative")
	}
	res, err := q.inserter.Insert(ctx, args, insertOpts(opts))
	if err != nil {
		return 0, fmt.Errorf("jobs: enqueue %s: %w", args.Kind(), err)
	}
	return res.Job.ID, nil
}

// TxStore is a store handed to a transaction's function (WithTx) that
// lends the queue its transaction (*sqlstore.Store does).
type TxStore interface {
	// JobTx returns the store's transaction, after making sure that a
	// savepoint rolling back takes what is inserted with it.
	JobTx(ctx context.Context) (*sql.Tx, error)
}

// EnqueueTx stores a job in the transaction of st, a store handed to a
// WithTx function: the job is queued when that transaction commits and
// never when it rolls back, so the state that calls for a job and the job
// are written together. It returns the job's id as Enqueue does. It is
// the way to queue from inside a transaction on every engine: the insert
// runs on the transaction's connection, the single writer's on SQLite.
func (q *Queue) EnqueueTx(ctx context.Context, st quire.Store, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if args == nil {
		return 0, quire.Invalid("args", "is required")
	}
	if opts.MaxAttempts < 0 {
		return 0, quire.Invalid("maxAttempts", "must not be negative")
	}
	ts, ok := st.(TxStore)
	if !ok {
		return 0, fmt.Errorf("jobs: enqueue %s: the store %T lends no transaction", args.Kind(), st)
	}
	tx, err := ts.JobTx(ctx)
	if err != nil {
		return 0, fmt.Errorf("jobs: enqueue %s: %w", args.Kind(), err)
	}
	res, err := q.inserter.InsertTx(ctx, tx, args, insertOpts(opts))
	if err != nil {
		return 0, fmt.Errorf("jobs: enqueue %s: %w", args.Kind(), err)
	}
	return res.Job.ID, nil
}

// insertOpts translates opts to River's.
func insertOpts(opts quire.JobOptions) *river.InsertOpts {
	o := &river.InsertOpts{MaxAttempts: opts.MaxAttempts}
	if opts.Delay > 0 {
		o.ScheduledAt = time.Now().Add(opts.Delay)
	}
	if opts.Unique {
		o.UniqueOpts = river.UniqueOpts{
			ByArgs: true,
			ByState: []rivertype.JobState{
				rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
				rivertype.JobStateRunning, rivertype.JobStateScheduled,
			},
		}
	}
	return o
}
