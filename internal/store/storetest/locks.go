package storetest

import (
	"strconv"
	"sync"
	"testing"

	"quire/internal/quire"
)

// wantStale checks that err is the ECONFLICT of a lost compare-and-swap.
func wantStale(t *testing.T, err error) {
	t.Helper()
	wantCode(t, err, quire.ECONFLICT)
	if !quire.IsStale(err) {
		t.Fatalf("got %v, want a lost compare-and-swap (quire.Stale)", err)
	}
}

func lockTests() []test {
	return []test{
		{"locks/space lock serializes read-modify-write", func(t *testing.T, f *fixture) {
			// Each step reads the space's title as a number and writes it
			// back plus one, in a transaction holding the space's lock. Two
			// steps overlapping without the lock would both read the same
			// number, and one increment would be lost.
			const workers, steps = 8, 10
			o := f.org("A")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			_, err := f.st.UpdateSpace(ctx(t), sp.ID, quire.SpaceUpdate{Title: ptr("0")})
			must(t, err)
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range steps {
						err := f.st.WithTx(ctx(t), func(st quire.Store) error {
							// Another space's lock is independent of this one.
							if err := st.LockSpace(ctx(t), other.ID); err != nil {
								return err
							}
							if err := st.LockSpace(ctx(t), sp.ID); err != nil {
								return err
							}
							cur, err := st.Space(ctx(t), sp.ID)
							if err != nil {
								return err
							}
							n, err := strconv.Atoi(cur.Title)
							if err != nil {
								return err
							}
							_, err = st.UpdateSpace(ctx(t), sp.ID, quire.SpaceUpdate{Title: ptr(strconv.Itoa(n + 1))})
							return err
						})
						if err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				must(t, err)
			}
			got, err := f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "increments", got.Title, strconv.Itoa(workers*steps))
		}},
		{"locks/space lock needs a transaction", func(t *testing.T, f *fixture) {
			sp := f.space(f.org("A"), "", "a")
			if err := f.st.LockSpace(ctx(t), sp.ID); err == nil {
				t.Fatal("a space lock outside a transaction was taken")
			}
		}},
		{"locks/change request swap compares revision and status", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CROpen)
			writable := quire.WritableStatuses()
			got, err := f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Revision: ptr("r2"), IfRevision: &c.Revision, IfStatus: writable})
			must(t, err)
			equal(t, "revision", got.Revision, "r2")

			// Another revision: stale, nothing changes.
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Revision: ptr("r3"), IfRevision: &c.Revision, IfStatus: writable})
			wantStale(t, err)

			// Merged on the same revision: a write meant for the open
			// change request is stale too, and the status stays.
			merged := quire.CRMerged
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Status: &merged, RevisionMerged: ptr("m1"), IfRevision: ptr("r2"), IfStatus: writable})
			must(t, err)
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Revision: ptr("r3"), IfRevision: ptr("r2"), IfStatus: writable})
			wantStale(t, err)
			archived := quire.CRArchived
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Status: &archived, IfStatus: []quire.ChangeRequestStatus{quire.CRDraft, quire.CROpen, quire.CRArchived}})
			wantStale(t, err)
			got, err = f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "after refused swaps", []string{string(got.Status), got.Revision, got.RevisionMerged},
				[]string{string(quire.CRMerged), "r2", "m1"})
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 0, 0})
		}},
		{"locks/stale space advance", func(t *testing.T, f *fixture) {
			sp := f.space(f.org("A"), "", "a")
			r2, r3 := f.revision(sp, sp.Revision), f.revision(sp, sp.Revision)
			must(t, f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r2.ID))
			wantStale(t, f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r3.ID))
		}},
	}
}
