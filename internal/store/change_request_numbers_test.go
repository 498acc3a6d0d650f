package store_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store"
)

// TestChangeRequestNumbersAcrossProcesses creates change requests on one
// space from several stores opened separately on the same database, each
// with its own connection pool as a separate server process would have, and
// checks that the numbers are exactly 1..total and the space counts them
// all.
func TestChangeRequestNumbersAcrossProcesses(t *testing.T) {
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			const (
				processes = 6
				each      = 15
				total     = processes * each
			)
			ctx := context.Background()
			c := config(t)
			setup, err := store.Open(ctx, c)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer setup.Close()
			now := time.Now().UTC().Truncate(time.Millisecond)
			u := &quire.User{ID: quire.NewID(), DisplayName: "Ada", Email: "ada@x.io", CreatedAt: now}
			o := &quire.Organization{ID: quire.NewID(), Title: "A", CreatedAt: now, MergeRules: quire.MergeRules{Type: "none"}}
			sp := &quire.Space{ID: quire.NewID(), OrgID: o.ID, Title: "S", Visibility: quire.VisibilityPrivate,
				EditMode: quire.EditModeLive, DefaultLevel: quire.DefaultInherit, MergeRules: quire.MergeRules{Type: "inherit"},
				Revision: quire.NewID(), Position: "a", CreatedAt: now, UpdatedAt: now}
			for _, err := range []error{setup.CreateUser(ctx, u), setup.CreateOrganization(ctx, o), setup.CreateSpace(ctx, sp)} {
				if err != nil {
					t.Fatalf("fixture: %v", err)
				}
			}

			stores := make([]quire.Store, processes)
			for i := range stores {
				if stores[i], err = store.Open(ctx, c); err != nil {
					t.Fatalf("open store %d: %v", i, err)
				}
				defer stores[i].Close()
			}
			numbers := make(chan int, total)
			errs := make(chan error, total)
			var wg sync.WaitGroup
			for i, st := range stores {
				wg.Go(func() {
					for j := range each {
						status := quire.CROpen
						if (i+j)%3 == 0 {
							status = quire.CRDraft
						}
						cr := &quire.ChangeRequest{ID: quire.NewID(), SpaceID: sp.ID, Status: status, CreatedBy: u.ID,
							CreatedAt: now, UpdatedAt: now, Revision: sp.Revision, RevisionInitial: sp.Revision}
						if err := st.CreateChangeRequest(ctx, cr); err != nil {
							errs <- err
							return
						}
						numbers <- cr.Number
					}
				})
			}
			wg.Wait()
			close(numbers)
			close(errs)
			for err := range errs {
				t.Fatalf("create: %v", err)
			}
			var got []int
			for n := range numbers {
				got = append(got, n)
			}
			slices.Sort(got)
			want := make([]int, total)
			for i := range want {
				want[i] = i + 1
			}
			if !slices.Equal(got, want) {
				t.Fatalf("numbers %v, want 1..%d each once", got, total)
			}

			after, err := setup.Space(ctx, sp.ID)
			if err != nil {
				t.Fatalf("space: %v", err)
			}
			l, err := setup.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: sp.ID, Status: quire.CRDraft}, quire.Page{})
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			if after.ChangeRequests != total || after.ChangeRequestsDraft != l.Count || after.ChangeRequestsOpen != total-l.Count {
				t.Fatalf("counters: %d total, %d open, %d draft; want %d, %d, %d", after.ChangeRequests,
					after.ChangeRequestsOpen, after.ChangeRequestsDraft, total, total-l.Count, l.Count)
			}
		})
	}
}
