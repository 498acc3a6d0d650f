package storetest

import (
	"slices"
	"testing"
	"time"

	"quire/internal/quire"
)

// liveIn reports the keys of a set as live.
func liveIn(keys ...string) func(string) bool {
	return func(k string) bool { return slices.Contains(keys, k) }
}

func collectTests() []test {
	return []test{
		{"collect/content roots of every revision", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			for _, r := range []*quire.Revision{
				{SpaceID: sp.ID, Pages: "p1", Slugs: "s1", Files: "f1"},
				{SpaceID: sp.ID, Pages: "p1", Slugs: "s1", Files: "f2"},
				{SpaceID: other.ID, Pages: "p2", Slugs: "s2"},
			} {
				r.ID, r.Type, r.CreatedAt = quire.NewID(), quire.RevisionEdits, f.tick()
				must(t, f.st.CreateRevision(ctx(t), r))
			}
			got, err := f.st.ContentRoots(ctx(t))
			must(t, err)
			for _, l := range [][]string{got.Pages, got.Slugs, got.Files} {
				slices.Sort(l)
			}
			equal(t, "roots", got, quire.ContentRoots{Pages: []string{"p1", "p2"}, Slugs: []string{"s1", "s2"}, Files: []string{"f1", "f2"}})
			// A purged space's revisions no longer hold anything.
			_, err = f.st.DeleteSpace(ctx(t), other.ID, f.tick())
			must(t, err)
			_, err = f.st.PurgeSpaces(ctx(t), time.Now().Add(time.Hour))
			must(t, err)
			got, err = f.st.ContentRoots(ctx(t))
			must(t, err)
			equal(t, "roots after the purge", got, quire.ContentRoots{Pages: []string{"p1"}, Slugs: []string{"s1"}, Files: []string{"f1", "f2"}})
		}},
		{"collect/sweep spares live objects and those written after the mark", func(t *testing.T, f *fixture) {
			kLive, bLive := object("live")
			kDead, bDead := object("dead")
			kAgain, bAgain := object("written again")
			kNew, bNew := object("new")
			must(t, f.st.PutObjects(ctx(t), map[string][]byte{kLive: bLive, kDead: bDead, kAgain: bAgain}))
			mark := f.clock.Advance(time.Millisecond)
			// Written while the collection marks: a new object, and an
			// unreferenced old one an edit writes again.
			must(t, f.st.PutObjects(ctx(t), map[string][]byte{kNew: bNew, kAgain: bAgain}))
			n, err := f.st.SweepObjects(ctx(t), mark, liveIn(kLive))
			must(t, err)
			equal(t, "swept", n, 1)
			got, err := f.st.Objects(ctx(t), []string{kLive, kDead, kAgain, kNew})
			must(t, err)
			equal(t, "left", got, map[string][]byte{kLive: bLive, kAgain: bAgain, kNew: bNew})
			// A later collection takes what is unreferenced by then.
			n, err = f.st.SweepObjects(ctx(t), f.clock.Advance(time.Millisecond), liveIn(kNew))
			must(t, err)
			equal(t, "swept later", n, 2)
			got, err = f.st.Objects(ctx(t), []string{kLive, kDead, kAgain, kNew})
			must(t, err)
			equal(t, "left later", got, map[string][]byte{kNew: bNew})
		}},
		{"collect/sweep of many objects", func(t *testing.T, f *fixture) {
			const n = 2345
			objs, keep := map[string][]byte{}, map[string]bool{}
			for i := range n {
				k, b := object(string(rune('a'+i%26)) + time.Duration(i).String())
				objs[k] = b
				if i%3 == 0 {
					keep[k] = true
				}
			}
			must(t, f.st.PutObjects(ctx(t), objs))
			swept, err := f.st.SweepObjects(ctx(t), f.clock.Advance(time.Millisecond), func(k string) bool { return keep[k] })
			must(t, err)
			equal(t, "swept", swept, n-len(keep))
			keys := make([]string, 0, n)
			for k := range objs {
				keys = append(keys, k)
			}
			got, err := f.st.Objects(ctx(t), keys)
			must(t, err)
			equal(t, "left", len(got), len(keep))
			for k := range got {
				if !keep[k] {
					t.Fatalf("object %s should have gone", k)
				}
			}
		}},
		{"collect/leases", func(t *testing.T, f *fixture) {
			now := time.Now()
			acquire := func(name, holder string, at time.Time) bool {
				t.Helper()
				ok, err := f.st.AcquireLease(ctx(t), name, holder, at, time.Minute)
				must(t, err)
				return ok
			}
			equal(t, "free", acquire("gc", "a", now), true)
			equal(t, "held by another", acquire("gc", "b", now.Add(30*time.Second)), false)
			equal(t, "another name", acquire("other", "b", now), true)
			equal(t, "renewed by its holder", acquire("gc", "a", now.Add(30*time.Second)), true)
			equal(t, "held until the renewal ends", acquire("gc", "b", now.Add(80*time.Second)), false)
			equal(t, "expired", acquire("gc", "b", now.Add(91*time.Second)), true)
			must(t, f.st.ReleaseLease(ctx(t), "gc", "a")) // no longer a's: nothing happens
			equal(t, "still b's", acquire("gc", "c", now.Add(92*time.Second)), false)
			must(t, f.st.ReleaseLease(ctx(t), "gc", "b"))
			equal(t, "released", acquire("gc", "c", now.Add(92*time.Second)), true)
		}},
	}
}
