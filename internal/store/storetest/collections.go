package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func collectionID(c *quire.Collection) string { return c.ID }

func collectionTests() []test {
	return []test{
		{"collections/create and read", func(t *testing.T, f *fixture) {
			o := f.org("A")
			root := f.collection(o, "", "a")
			child := f.collection(o, root.ID, "b")
			got, err := f.st.Collection(ctx(t), child.ID)
			must(t, err)
			equal(t, "child", *got, *child)
			none := &quire.Collection{ID: quire.NewID(), OrgID: o.ID, Title: "None", DefaultLevel: quire.DefaultNone,
				CreatedAt: f.tick(), UpdatedAt: f.tick()}
			must(t, f.st.CreateCollection(ctx(t), none))
			got, err = f.st.Collection(ctx(t), none.ID)
			must(t, err)
			equal(t, "default level none", *got, *none)
			wantCode(t, f.st.CreateCollection(ctx(t), none), quire.ECONFLICT)
			_, err = f.st.Collection(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"collections/list root or nested, by position", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			b := f.collection(o, "", "b")
			a := f.collection(o, "", "a")
			a2 := f.collection(o, "", "a")
			nested := f.collection(o, a.ID, "0")
			f.collection(other, "", "a")
			first, second := a, a2
			if a2.ID < a.ID {
				first, second = a2, a
			}
			for _, size := range []int{1, 2, 10} {
				got, count := collect(t, size, func(p quire.Page) (*quire.List[*quire.Collection], error) {
					return f.st.Collections(ctx(t), o.ID, quire.CollectionFilter{}, p)
				})
				equal(t, "root", ids(got, collectionID), []string{first.ID, second.ID, b.ID})
				equal(t, "root count", count, quire.Uncounted)
				got, _ = collect(t, size, func(p quire.Page) (*quire.List[*quire.Collection], error) {
					return f.st.Collections(ctx(t), o.ID, quire.CollectionFilter{Nested: true}, p)
				})
				equal(t, "nested", ids(got, collectionID), []string{nested.ID, first.ID, second.ID, b.ID})
			}
		}},
		{"collections/update", func(t *testing.T, f *fixture) {
			o := f.org("A")
			c := f.collection(o, "", "a")
			got, err := f.st.UpdateCollection(ctx(t), c.ID, quire.CollectionUpdate{})
			must(t, err)
			equal(t, "empty update changes nothing", *got, *c)
			before := f.clock.Advance(time.Millisecond)
			got, err = f.st.UpdateCollection(ctx(t), c.ID, quire.CollectionUpdate{Title: ptr("T"), Description: ptr("D"),
				DefaultLevel: ptr(quire.DefaultLevel(quire.RoleEdit))})
			must(t, err)
			if !got.UpdatedAt.Equal(before) || got.UpdatedAt.Location() != time.UTC || got.UpdatedAt.Nanosecond()%1e6 != 0 {
				t.Fatalf("updatedAt %v: want the store's clock in UTC: %v", got.UpdatedAt, before)
			}
			want := *c
			want.Title, want.Description, want.DefaultLevel, want.UpdatedAt = "T", "D", quire.DefaultLevel(quire.RoleEdit), got.UpdatedAt
			equal(t, "updated", *got, want)
			got, err = f.st.UpdateCollection(ctx(t), c.ID, quire.CollectionUpdate{DefaultLevel: ptr(quire.DefaultNone)})
			must(t, err)
			equal(t, "default none", got.DefaultLevel, quire.DefaultNone)
			_, err = f.st.UpdateCollection(ctx(t), "nope", quire.CollectionUpdate{Title: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"collections/ancestors", func(t *testing.T, f *fixture) {
			o := f.org("A")
			a := f.collection(o, "", "a")
			b := f.collection(o, a.ID, "b")
			c := f.collection(o, b.ID, "c")
			got, err := f.st.Ancestors(ctx(t), c.ID)
			must(t, err)
			equal(t, "ancestors", got, []string{b.ID, a.ID})
			got, err = f.st.Ancestors(ctx(t), a.ID)
			must(t, err)
			equal(t, "root has none", len(got), 0)
			_, err = f.st.Ancestors(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"collections/delete subtree", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			f.member(o, u, quire.RoleRead)
			a := f.collection(o, "", "a")
			b := f.collection(o, a.ID, "b")
			c := f.collection(o, b.ID, "c")
			keep := f.collection(o, "", "k")
			inA, inC, already, outside := f.space(o, a.ID, "1"), f.space(o, c.ID, "2"), f.space(o, b.ID, "3"), f.space(o, keep.ID, "4")
			earlier := f.tick()
			_, err := f.st.DeleteSpace(ctx(t), already.ID, earlier)
			must(t, err)
			f.grant("collection", b.ID, "user", u.ID, quire.RoleEdit)
			f.grant("space", inC.ID, "user", u.ID, quire.RoleEdit)
			at := f.tick()
			ok, err := f.st.DeleteCollection(ctx(t), a.ID, at)
			must(t, err)
			equal(t, "deleted", ok, true)
			for _, id := range []string{a.ID, b.ID, c.ID} {
				_, err := f.st.Collection(ctx(t), id)
				wantCode(t, err, quire.ENOTFOUND)
			}
			for _, s := range []struct {
				sp   *quire.Space
				when time.Time
			}{{inA, at}, {inC, at}, {already, earlier}} {
				got, err := f.st.Space(ctx(t), s.sp.ID)
				must(t, err)
				if got.DeletedAt == nil || !got.DeletedAt.Equal(s.when) || got.Parent != "" {
					t.Fatalf("space %s: deletedAt %v parent %q, want %v at the root", s.sp.Title, got.DeletedAt, got.Parent, s.when)
				}
			}
			got, err := f.st.Space(ctx(t), outside.ID)
			must(t, err)
			equal(t, "space outside", *got, *outside)
			gs, err := f.st.Grants(ctx(t), "collection", b.ID)
			must(t, err)
			equal(t, "collection grants", len(gs), 0)
			gs, err = f.st.Grants(ctx(t), "space", inC.ID)
			must(t, err)
			equal(t, "grants of a soft-deleted space stay", len(gs), 1)
			ok, err = f.st.DeleteCollection(ctx(t), a.ID, at)
			must(t, err)
			equal(t, "deleted again", ok, false)
			r, err := f.st.RestoreSpace(ctx(t), inC.ID)
			must(t, err)
			equal(t, "restored to the root", r.Parent, "")
		}},
	}
}
