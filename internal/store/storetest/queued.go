package storetest

import (
	"errors"
	"strings"
	"testing"

	"quire/internal/quire"
)

// objectsFound reads which of keys are stored.
func (f *fixture) objectsFound(st quire.Store, keys ...string) int {
	f.t.Helper()
	got, err := st.Objects(ctx(f.t), keys)
	must(f.t, err)
	return len(got)
}

// queuedTests cover the writes a transaction may hold back until it
// commits or a statement needs them (objects, revisions, counters): they
// must read and roll back as if written at once.
func queuedTests() []test {
	boom := errors.New("boom")
	return []test{
		{"queued/a revision reads inside and after its transaction", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			r := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Parents: []string{sp.Revision},
				Type: quire.RevisionEdits, Pages: "p", CreatedAt: f.tick()}
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				if err := st.CreateRevision(ctx(t), r); err != nil {
					return err
				}
				got, err := st.Revision(ctx(t), sp.ID, r.ID)
				must(t, err)
				equal(t, "inside", *got, *r)
				return st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r.ID)
			}))
			got, err := f.st.Revision(ctx(t), sp.ID, r.ID)
			must(t, err)
			equal(t, "after", *got, *r)
		}},
		{"queued/a failed savepoint drops its revisions and objects", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			kept := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Type: quire.RevisionEdits, CreatedAt: f.tick()}
			dropped := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Type: quire.RevisionEdits, CreatedAt: f.tick()}
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				must(t, st.WithTx(ctx(t), func(st quire.Store) error {
					must(t, st.PutObjects(ctx(t), map[string][]byte{"k1": []byte("one")}))
					return st.CreateRevision(ctx(t), kept)
				}))
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					must(t, st.PutObjects(ctx(t), map[string][]byte{"k2": []byte("two")}))
					must(t, st.CreateRevision(ctx(t), dropped))
					// A read of the objects sends what is held back,
					// the first savepoint's writes among them, inside
					// this savepoint: its rollback must not lose them.
					equal(t, "objects inside", f.objectsFound(st, "k1", "k2"), 2)
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("got %v, want the nested function's error", err)
				}
				_, err = st.Revision(ctx(t), sp.ID, dropped.ID)
				wantCode(t, err, quire.ENOTFOUND)
				return nil
			}))
			equal(t, "objects after", f.objectsFound(f.st, "k1", "k2"), 1)
			equal(t, "kept object", f.objectsFound(f.st, "k1"), 1)
			_, err := f.st.Revision(ctx(t), sp.ID, kept.ID)
			must(t, err)
			_, err = f.st.Revision(ctx(t), sp.ID, dropped.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"queued/a rolled back transaction leaves no revision", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			r := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Type: quire.RevisionEdits, CreatedAt: f.tick()}
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				must(t, st.CreateRevision(ctx(t), r))
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the function's error", err)
			}
			_, err = f.st.Revision(ctx(t), sp.ID, r.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"queued/a duplicate revision fails the commit", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			r := f.revision(sp, sp.Revision)
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				return st.CreateRevision(ctx(t), r)
			})
			wantCode(t, err, quire.ECONFLICT)
		}},
		{"queued/counters move with the merge and roll back with it", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			open, draft := f.changeRequest(sp, u, quire.CROpen), f.changeRequest(sp, u, quire.CRDraft)
			merged := quire.CRMerged
			r := f.revision(sp, sp.Revision)
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				// Merged, then the space's revision moves: the counters
				// ride on that statement.
				must(t, st.WithTx(ctx(t), func(st quire.Store) error {
					c, err := st.UpdateChangeRequest(ctx(t), sp.ID, open.ID, quire.ChangeRequestUpdate{
						Status: &merged, IfRevision: &open.Revision, IfStatus: []quire.ChangeRequestStatus{quire.CROpen}})
					must(t, err)
					equal(t, "status", c.Status, quire.CRMerged)
					return st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r.ID)
				}))
				// Merged, but the space moved meanwhile: undone.
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					_, err := st.UpdateChangeRequest(ctx(t), sp.ID, draft.ID, quire.ChangeRequestUpdate{
						Status: &merged, IfStatus: []quire.ChangeRequestStatus{quire.CRDraft}})
					must(t, err)
					return st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r.ID)
				})
				wantCode(t, err, quire.ECONFLICT)
				got, err := st.Space(ctx(t), sp.ID)
				must(t, err)
				equal(t, "counters inside", counters{got.ChangeRequests, got.ChangeRequestsOpen, got.ChangeRequestsDraft},
					counters{2, 0, 1})
				return nil
			}))
			equal(t, "counters", f.spaceCounters(sp.ID), counters{2, 0, 1})
			c, err := f.st.ChangeRequest(ctx(t), sp.ID, draft.ID)
			must(t, err)
			equal(t, "unmerged", c.Status, quire.CRDraft)
		}},
		{"queued/a status compared with the wrong one is stale", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CRDraft)
			merged := quire.CRMerged
			_, err := f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{
				Status: &merged, IfStatus: []quire.ChangeRequestStatus{quire.CROpen}})
			wantCode(t, err, quire.ECONFLICT)
			if !quire.IsStale(err) {
				t.Fatalf("got %v, want a stale conflict", err)
			}
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 0, 1})
		}},
		{"queued/space and change request read together", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			c := f.changeRequest(sp, u, quire.CROpen)
			gotSp, gotCR, err := f.st.SpaceChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "space", gotSp.ID, sp.ID)
			equal(t, "change request", *gotCR, *c)
			_, gotCR, err = f.st.SpaceChangeRequest(ctx(t), sp.ID, "1")
			must(t, err)
			equal(t, "by number", gotCR.ID, c.ID)
			gotSp, _, err = f.st.SpaceChangeRequest(ctx(t), other.ID, c.ID)
			wantCode(t, err, quire.ENOTFOUND)
			if gotSp == nil || gotSp.ID != other.ID {
				t.Fatalf("a missing change request came with space %v, want %s", gotSp, other.ID)
			}
			gotSp, _, err = f.st.SpaceChangeRequest(ctx(t), "nosuchspace", c.ID)
			wantCode(t, err, quire.ENOTFOUND)
			if gotSp != nil {
				t.Fatalf("a missing space came back as %v", gotSp)
			}
		}},
		{"merge mark/merges, moves the space and its counters", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CROpen)
			r := f.revision(sp, sp.Revision)
			must(t, f.st.MarkMerged(ctx(t), quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: c.ID, Revision: c.Revision,
				From: quire.CROpen, Prev: sp.Revision, Next: r.ID}))
			got, err := f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "status", got.Status, quire.CRMerged)
			equal(t, "merged revision", got.RevisionMerged, r.ID)
			after, err := f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "space revision", after.Revision, r.ID)
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 0, 0})
			evs, err := f.st.ContentEvents(ctx(t), sp.ID, 10)
			must(t, err)
			if n := len(evs); n != 1 || evs[0].Previous != sp.Revision || evs[0].Next != r.ID {
				t.Fatalf("content events after the merge: %d %+v, want one from %s to %s", n, evs, sp.Revision, r.ID)
			}
		}},
		{"merge mark/either row moved is stale and changes nothing", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CRDraft)
			r := f.revision(sp, sp.Revision)
			ok := quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: c.ID, Revision: c.Revision,
				From: quire.CRDraft, Prev: sp.Revision, Next: r.ID}
			movedCR, movedStatus, movedSpace := ok, ok, ok
			movedCR.Revision = "other"
			movedStatus.From = quire.CROpen
			movedSpace.Prev = "other"
			for name, m := range map[string]quire.MergeMark{"change request": movedCR, "status": movedStatus, "space": movedSpace} {
				err := f.st.WithTx(ctx(t), func(st quire.Store) error { return st.MarkMerged(ctx(t), m) })
				if !quire.IsStale(err) {
					t.Fatalf("%s moved: got %v, want a stale conflict", name, err)
				}
				if name != "status" && !strings.Contains(err.Error(), name) {
					t.Errorf("%s moved: the conflict says %q", name, err)
				}
			}
			got, err := f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "status", got.Status, quire.CRDraft)
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 0, 1})
			if evs, err := f.st.ContentEvents(ctx(t), sp.ID, 10); err != nil || len(evs) != 0 {
				t.Fatalf("content events after stale merges: %+v, %v; want none", evs, err)
			}
			missing := ok
			missing.ChangeRequestID = "nope"
			wantCode(t, f.st.MarkMerged(ctx(t), missing), quire.ENOTFOUND)
		}},
		{"merge mark/change requests read ahead follow the transaction's writes", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c1, c2, c3 := f.changeRequest(sp, u, quire.CROpen), f.changeRequest(sp, u, quire.CROpen), f.changeRequest(sp, u, quire.CRDraft)
			r1 := f.revision(sp, sp.Revision)
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				must(t, st.ReadChangeRequestsAhead(ctx(t), sp.ID, []string{c1.ID, c2.ID, c3.ID, c1.ID, "nope"}))
				gotSp, gotCR, err := st.SpaceChangeRequest(ctx(t), sp.ID, c1.ID)
				must(t, err)
				equal(t, "change request", *gotCR, *c1)
				equal(t, "space", gotSp.Revision, sp.Revision)
				// A merge moves the space read ahead for the next one.
				must(t, st.MarkMerged(ctx(t), quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: c1.ID, Revision: c1.Revision,
					From: quire.CROpen, Prev: sp.Revision, Next: r1.ID}))
				gotSp, gotCR, err = st.SpaceChangeRequest(ctx(t), sp.ID, c2.ID)
				must(t, err)
				equal(t, "change request", *gotCR, *c2)
				equal(t, "space revision after a merge", gotSp.Revision, r1.ID)
				equal(t, "open change requests after a merge", gotSp.ChangeRequestsOpen, 1)
				// Each is answered once: read again, the merged one is
				// merged.
				_, gotCR, err = st.SpaceChangeRequest(ctx(t), sp.ID, c1.ID)
				must(t, err)
				equal(t, "merged change request", gotCR.Status, quire.CRMerged)
				// Any other write drops what was read ahead.
				subject := "Renamed"
				_, err = st.UpdateChangeRequest(ctx(t), sp.ID, c3.ID, quire.ChangeRequestUpdate{Subject: &subject})
				must(t, err)
				_, gotCR, err = st.SpaceChangeRequest(ctx(t), sp.ID, c3.ID)
				must(t, err)
				equal(t, "subject after a write", gotCR.Subject, subject)
				return nil
			}))
			equal(t, "counters", f.spaceCounters(sp.ID), counters{3, 1, 1})
		}},
		{"merge mark/a merge rolled back is undone in what was read ahead", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c1, c2 := f.changeRequest(sp, u, quire.CROpen), f.changeRequest(sp, u, quire.CROpen)
			r2 := f.revision(sp, sp.Revision)
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					subject := "Renamed"
					_, err := st.UpdateChangeRequest(ctx(t), sp.ID, c2.ID, quire.ChangeRequestUpdate{Subject: &subject})
					must(t, err)
					must(t, st.ReadChangeRequestsAhead(ctx(t), sp.ID, []string{c1.ID, c2.ID}))
					must(t, st.MarkMerged(ctx(t), quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: c2.ID, Revision: c2.Revision,
						From: quire.CROpen, Prev: sp.Revision, Next: r2.ID}))
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("got %v, want the nested function's error", err)
				}
				gotSp, gotCR, err := st.SpaceChangeRequest(ctx(t), sp.ID, c1.ID)
				must(t, err)
				equal(t, "change request", *gotCR, *c1)
				equal(t, "space revision after a merge undone", gotSp.Revision, sp.Revision)
				equal(t, "open change requests after a merge undone", gotSp.ChangeRequestsOpen, 2)
				_, gotCR, err = st.SpaceChangeRequest(ctx(t), sp.ID, c2.ID)
				must(t, err)
				equal(t, "status after a merge undone", gotCR.Status, quire.CROpen)
				return nil
			}))
		}},
		{"merge mark/a failure after it undoes it or fails the transaction", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CROpen)
			r := f.revision(sp, sp.Revision)
			_ = f.st.WithTx(ctx(t), func(st quire.Store) error {
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					must(t, st.MarkMerged(ctx(t), quire.MergeMark{SpaceID: sp.ID, ChangeRequestID: c.ID,
						Revision: c.Revision, From: quire.CROpen, Prev: sp.Revision, Next: r.ID}))
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("got %v, want the nested function's error", err)
				}
				return nil // the outer function goes on as if nothing was written
			})
			got, err := f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "status", got.Status, quire.CROpen)
			after, err := f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "space revision", after.Revision, sp.Revision)
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 1, 0})
		}},
		{"tx/a content event of a failed nested function is undone", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					must(t, st.AddContentEvent(ctx(t), &quire.ContentEvent{SpaceID: sp.ID, Previous: "a", Next: "b",
						CreatedAt: f.tick()}))
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("got %v, want the nested function's error", err)
				}
				return nil
			}))
			evs, err := f.st.ContentEvents(ctx(t), sp.ID, 10)
			must(t, err)
			equal(t, "events", len(evs), 0)
		}},
		{"tx/a nested function that only read fails alone", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			var kept *quire.User
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				err := st.WithTx(ctx(t), func(st quire.Store) error {
					if _, err := st.Space(ctx(t), sp.ID); err != nil {
						return err
					}
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("got %v, want the nested function's error", err)
				}
				kept = &quire.User{ID: quire.NewID(), DisplayName: "Ada", Email: "ada@x.io", CreatedAt: f.tick()}
				return st.CreateUser(ctx(t), kept)
			}))
			_, err := f.st.User(ctx(t), kept.ID)
			must(t, err)
		}},
	}
}
