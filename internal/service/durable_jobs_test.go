package service

import (
	"context"
	"log/slog"
	"testing"

	"quire/internal/gitremote"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// crash is what crashingQueue panics with, standing for the process
// stopping.
type crash struct{}

// crashingQueue is the real queue with a fault injected: while armed, a
// call to queue a job stops the caller where a crash would hurt most.
// Enqueue stops before the job is stored, after whatever was committed
// before it; EnqueueTx stores the job in the transaction, then stops
// before that transaction commits.
type crashingQueue struct {
	*jobs.Queue
	armed bool
}

func (q *crashingQueue) Enqueue(ctx context.Context, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	if q.armed {
		panic(crash{})
	}
	return q.Queue.Enqueue(ctx, args, opts)
}

func (q *crashingQueue) EnqueueTx(ctx context.Context, st quire.Store, args quire.JobArgs, opts quire.JobOptions) (int64, error) {
	id, err := q.Queue.EnqueueTx(ctx, st, args, opts)
	if q.armed && err == nil {
		panic(crash{})
	}
	return id, err
}

// durableCase is one kind of work that commits state and queues a job.
type durableCase struct {
	kind string
	// request asks for the work.
	request func(ctx context.Context) error
	// pending reports whether the state says the work is queued.
	pending func(ctx context.Context) bool
}

// TestWorkIsQueuedWithItsState checks, on each engine, every place that
// records work and queues its job: a crash at the moment the job is
// queued leaves neither the state claiming the work nor the job, and a
// request without the fault leaves both, so no record waits for a job
// that never comes.
func TestWorkIsQueuedWithItsState(t *testing.T) {
	engines := map[string]func(t *testing.T) store.Config{
		"sqlite":   func(t *testing.T) store.Config { return store.Config{DataDir: t.TempDir()} },
		"postgres": func(t *testing.T) store.Config { return store.Config{DatabaseURL: storetest.PostgresDB(t)} },
	}
	for name, cfg := range engines {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			st, err := store.Open(ctx, cfg(t))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			inner, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			q := &crashingQueue{Queue: inner}
			svc := New(st, WithQueue(q), WithLogger(slog.New(slog.DiscardHandler)))
			boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
			if err != nil {
				t.Fatal(err)
			}
			u, _ := st.User(ctx, boot.User)
			sp, err := svc.CreateSpace(ctx, u, boot.Organization, SpaceInput{Title: "Docs"})
			if err != nil {
				t.Fatal(err)
			}
			git := NewGitSync(svc, gitremote.New(gitremote.Options{}))
			translations := NewTranslations(svc, nil)
			lang := "fr"
			tr, err := translations.Create(ctx, u, boot.Organization, TranslationInput{SourceSpace: sp.Space.ID, SourceLanguage: "en", Language: &lang})
			if err != nil {
				t.Fatal(err)
			}
			specs := NewOpenAPISpecs(svc, nil, OpenAPIOptions{})

			cases := []durableCase{{
				kind: GitJob{}.Kind(),
				request: func(ctx context.Context) error {
					return git.Request(ctx, u, sp.Space.ID, GitRequest{Direction: quire.GitImport,
						URL: "https://git.example.test/acme/docs.git", Ref: "refs/heads/main"})
				},
				pending: func(ctx context.Context) bool {
					rec, err := git.State(ctx, sp.Space.ID)
					return err == nil && rec.State == quire.GitRunning
				},
			}, {
				kind: TranslationJob{}.Kind(),
				request: func(ctx context.Context) error {
					return translations.Run(ctx, u, boot.Organization, tr.ID)
				},
				pending: func(ctx context.Context) bool {
					got, err := st.Translation(ctx, boot.Organization, tr.ID)
					return err == nil && got.State == quire.TranslationQueued
				},
			}, {
				kind: OpenAPIJob{}.Kind(),
				request: func(ctx context.Context) error {
					_, err := specs.Create(ctx, boot.Organization, "petstore", OpenAPISource{Text: "openapi: 3.0.0\n"})
					return err
				},
				pending: func(ctx context.Context) bool {
					spec, err := st.OpenAPISpec(ctx, boot.Organization, "petstore")
					return err == nil && spec.State == quire.OpenAPIPending
				},
			}}
			for _, c := range cases {
				t.Run(c.kind, func(t *testing.T) {
					q.armed = true
					crashed := func() (crashed bool) {
						defer func() {
							if p := recover(); p != nil {
								if _, ok := p.(crash); !ok {
									panic(p)
								}
								crashed = true
							}
						}()
						_ = c.request(ctx)
						return false
					}()
					q.armed = false
					if !crashed {
						t.Fatal("the request never queued its job")
					}
					if c.pending(ctx) || countJobs(t, st, c.kind) != 0 {
						t.Fatalf("after a crash while queuing: pending %v with %d jobs, want neither",
							c.pending(ctx), countJobs(t, st, c.kind))
					}
					if err := c.request(ctx); err != nil {
						t.Fatal(err)
					}
					if !c.pending(ctx) || countJobs(t, st, c.kind) != 1 {
						t.Errorf("after a request: pending %v with %d jobs, want both", c.pending(ctx), countJobs(t, st, c.kind))
					}
				})
			}
		})
	}
}

// countJobs counts the queued jobs of a kind.
func countJobs(t *testing.T, st quire.Store, kind string) int {
	t.Helper()
	db, _ := st.(jobs.Database).JobDB()
	var n int
	q := "SELECT count(*) FROM river_job WHERE kind = $1"
	if err := db.QueryRowContext(t.Context(), q, kind).Scan(&n); err != nil {
		t.Fatalf("count jobs: %v", err)
	}
	return n
}
