package service

import (
	"context"
	"log/slog"
	"testing"

	"quire/internal/gitremote"
	"quire/internal/jobs"
	"quire/internal/quire"
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
	// pending counts the records that say the work is queued.
	pending func(ctx context.Context) int
}

// TestWorkIsQueuedWithItsState checks, on each engine, every place that
// records work and queues its job: a crash at the moment the job is
// queued leaves neither the state claiming the work nor the job, and a
// request without the fault leaves both, so no record waits for a job
// that never comes.
func TestWorkIsQueuedWithItsState(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
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
		ints := NewIntegrations(svc, nil, nil, IntegrationOptions{BaseURL: "http://127.0.0.1:1"})
		integ, err := ints.Publish(ctx, u, "watcher", PublishInput{Organization: boot.Organization, Script: "export default {};",
			Manifest: quire.IntegrationManifest{Title: "Watcher", Description: "Watches", Visibility: quire.IntegrationPrivate,
				Target: "all", Scopes: []string{quire.ScopeSpaceContentRead}}})
		if err != nil {
			t.Fatal(err)
		}
		_, inst, err := ints.Install(ctx, u, "watcher", boot.Organization)
		if err != nil {
			t.Fatal(err)
		}

		cases := []durableCase{{
			kind: GitJob{}.Kind(),
			request: func(ctx context.Context) error {
				return git.Request(ctx, u, sp.Space.ID, GitRequest{Direction: quire.GitImport,
					URL: "https://git.example.test/acme/docs.git", Ref: "refs/heads/main"})
			},
			pending: func(ctx context.Context) int {
				rec, err := git.State(ctx, sp.Space.ID)
				return one(err == nil && rec.State == quire.GitRunning)
			},
		}, {
			kind: TranslationJob{}.Kind(),
			request: func(ctx context.Context) error {
				return translations.Run(ctx, u, boot.Organization, tr.ID)
			},
			pending: func(ctx context.Context) int {
				got, err := st.Translation(ctx, boot.Organization, tr.ID)
				return one(err == nil && got.State == quire.TranslationQueued)
			},
		}, {
			kind: OpenAPIJob{}.Kind(),
			request: func(ctx context.Context) error {
				_, err := specs.Create(ctx, boot.Organization, "petstore", OpenAPISource{Text: "openapi: 3.0.0\n"})
				return err
			},
			pending: func(ctx context.Context) int {
				spec, err := st.OpenAPISpec(ctx, boot.Organization, "petstore")
				return one(err == nil && spec.State == quire.OpenAPIPending)
			},
		}, {
			kind: IntegrationEventJob{}.Kind(),
			request: func(ctx context.Context) error {
				ints.emit(ctx, integ, inst.ID, sp.Space.ID, "", map[string]any{"type": "space_content_updated"})
				return nil
			},
			pending: func(ctx context.Context) int {
				return countRows(t, st, "integration_events", "integration_id = $1 AND status = $2", integ.ID, string(quire.EventPending))
			},
		}}
		for _, c := range cases {
			t.Run(c.kind, func(t *testing.T) {
				jobsBefore, pendingBefore := countJobs(t, st, c.kind), c.pending(ctx)
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
				if c.pending(ctx) != pendingBefore || countJobs(t, st, c.kind) != jobsBefore {
					t.Fatalf("after a crash while queuing: %d records pending (%d before) with %d jobs (%d before), want no new one",
						c.pending(ctx), pendingBefore, countJobs(t, st, c.kind), jobsBefore)
				}
				if err := c.request(ctx); err != nil {
					t.Fatal(err)
				}
				if c.pending(ctx) != pendingBefore+1 || countJobs(t, st, c.kind) != jobsBefore+1 {
					t.Errorf("after a request: %d records pending (%d before) with %d jobs (%d before), want one more of each",
						c.pending(ctx), pendingBefore, countJobs(t, st, c.kind), jobsBefore)
				}
			})
		}
	})
}

// countJobs counts the queued jobs of a kind.
func countJobs(t *testing.T, st quire.Store, kind string) int {
	t.Helper()
	return countRows(t, st, "river_job", "kind = $1", kind)
}

// countRows counts the rows of a table that match a condition.
func countRows(t *testing.T, st quire.Store, table, where string, args ...any) int {
	t.Helper()
	db, _ := st.(jobs.Database).JobDB()
	var n int
	if err := db.QueryRowContext(t.Context(), "SELECT count(*) FROM "+table+" WHERE "+where, args...).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// one counts a record that is there.
func one(there bool) int {
	if there {
		return 1
	}
	return 0
}
