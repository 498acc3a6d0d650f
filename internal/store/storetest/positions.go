package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func positionTests() []test {
	return []test{
		{"positions/last", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			last := func(org *quire.Organization, parent string) string {
				t.Helper()
				p, err := f.st.LastPosition(ctx(t), org.ID, parent)
				must(t, err)
				return p
			}
			equal(t, "empty root", last(o, ""), "")
			c := f.collection(o, "", "b")
			equal(t, "one collection", last(o, ""), "b")
			f.space(o, "", "a")
			equal(t, "space before the collection", last(o, ""), "b")
			s := f.space(o, "", "c")
			equal(t, "space after", last(o, ""), "c")
			f.space(other, "", "z")
			f.collection(o, c.ID, "y")
			f.space(o, c.ID, "x")
			equal(t, "root ignores other parents and organizations", last(o, ""), "c")
			equal(t, "in the collection", last(o, c.ID), "y")
			_, err := f.st.DeleteSpace(ctx(t), s.ID, time.Now())
			must(t, err)
			equal(t, "deleted spaces do not count", last(o, ""), "b")
			equal(t, "missing parent", last(o, "nope"), "")
		}},
		{"positions/collections facts", func(t *testing.T, f *fixture) {
			x := newAccessFixture(t, f)
			u, v := f.user("Ada", "ada@x.io"), f.user("Gus", "gus@x.io")
			f.member(x.o, u, quire.RoleEdit)
			f.member(x.o, v, "")
			tm := f.team(x.o, "T", v)
			f.grant("collection", x.a.ID, "user", u.ID, quire.RoleReview)
			f.grant("collection", x.b.ID, "team", tm.ID, quire.RoleComment)
			f.grant("collection", x.a.ID, "team", tm.ID, quire.RoleAdmin)
			c := f.collection(x.o, "", "c")
			for _, who := range []*quire.User{u, v} {
				ids := []string{x.b.ID, x.a.ID, c.ID, "nope"}
				got, err := f.st.CollectionsFacts(ctx(t), ids, who.ID)
				must(t, err)
				equal(t, "found", len(got), 3)
				for _, id := range ids[:3] {
					want, err := f.st.CollectionFacts(ctx(t), id, who.ID)
					must(t, err)
					equal(t, who.DisplayName+" on "+id, got[id], want)
				}
			}
			none, err := f.st.CollectionsFacts(ctx(t), nil, u.ID)
			must(t, err)
			equal(t, "no ids", len(none), 0)
		}},
	}
}
