package storetest

import (
	"slices"
	"testing"

	"quire/internal/quire"
)

func placeTests() []test {
	return []test{
		{"place/space", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			c, oc := f.collection(o, "", "a"), f.collection(other, "", "a")
			s := f.space(o, "", "a")
			got, err := f.st.PlaceSpace(ctx(t), s.ID, o.ID, c.ID, "m")
			must(t, err)
			equal(t, "placed in a collection", [3]string{got.OrgID, got.Parent, got.Position}, [3]string{o.ID, c.ID, "m"})
			if got.UpdatedAt.Before(s.UpdatedAt) {
				t.Fatal("updatedAt went back")
			}
			u := f.user("Ada", "ada@x.io")
			oldTeam, newTeam := f.team(o, "Old"), f.team(other, "New")
			f.grant("space", s.ID, "team", oldTeam.ID, quire.RoleEdit)
			f.grant("space", s.ID, "team", newTeam.ID, quire.RoleRead)
			f.grant("space", s.ID, "user", u.ID, quire.RoleRead)
			_, err = f.st.PlaceSpace(ctx(t), s.ID, o.ID, "", "y")
			must(t, err)
			gs, err := f.st.Grants(ctx(t), "space", s.ID)
			must(t, err)
			equal(t, "grants kept within the organization", len(gs), 3)
			got, err = f.st.PlaceSpace(ctx(t), s.ID, other.ID, "", "z")
			must(t, err)
			equal(t, "moved to another organization's root", [3]string{got.OrgID, got.Parent, got.Position}, [3]string{other.ID, "", "z"})
			gs, err = f.st.Grants(ctx(t), "space", s.ID)
			must(t, err)
			left := ids(gs, func(g quire.Grant) string { return g.PrincipalID })
			slices.Sort(left)
			want := []string{newTeam.ID, oldTeam.ID, u.ID}
			slices.Sort(want)
			equal(t, "grants are the service's to change", left, want)
			_, err = f.st.PlaceSpace(ctx(t), s.ID, other.ID, c.ID, "z")
			wantCode(t, err, quire.EINVALID)
			_, err = f.st.PlaceSpace(ctx(t), s.ID, other.ID, "nope", "z")
			wantCode(t, err, quire.EINVALID)
			got, err = f.st.PlaceSpace(ctx(t), s.ID, other.ID, oc.ID, "b")
			must(t, err)
			equal(t, "parent", got.Parent, oc.ID)
			_, err = f.st.PlaceSpace(ctx(t), "nope", o.ID, "", "a")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"place/collection moves its subtree", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			a := f.collection(o, "", "a")
			b := f.collection(o, a.ID, "b")
			c := f.collection(o, b.ID, "c")
			sibling := f.collection(o, "", "s")
			sa, sc, stay := f.space(o, a.ID, "1"), f.space(o, c.ID, "2"), f.space(o, sibling.ID, "3")
			gone := f.space(o, b.ID, "4")
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			target := f.collection(other, "", "t")
			u := f.user("Ada", "ada@x.io")
			oldTeam, newTeam := f.team(o, "Old"), f.team(other, "New")
			f.grant("collection", b.ID, "team", oldTeam.ID, quire.RoleEdit)
			f.grant("space", sc.ID, "team", oldTeam.ID, quire.RoleEdit)
			f.grant("space", stay.ID, "team", oldTeam.ID, quire.RoleEdit)
			f.grant("collection", a.ID, "team", newTeam.ID, quire.RoleRead)
			f.grant("space", sc.ID, "user", u.ID, quire.RoleRead)
			f.grant("space", gone.ID, "user", u.ID, quire.RoleRead)
			got, err := f.st.PlaceCollection(ctx(t), a.ID, other.ID, target.ID, "q")
			must(t, err)
			equal(t, "placed", [3]string{got.OrgID, got.Parent, got.Position}, [3]string{other.ID, target.ID, "q"})
			for _, id := range []string{b.ID, c.ID} {
				got, err := f.st.Collection(ctx(t), id)
				must(t, err)
				equal(t, "descendant's organization", got.OrgID, other.ID)
			}
			for _, s := range []*quire.Space{sa, sc, gone} {
				got, err := f.st.Space(ctx(t), s.ID)
				must(t, err)
				equal(t, "organization of "+s.Title, got.OrgID, other.ID)
			}
			got2, err := f.st.Space(ctx(t), stay.ID)
			must(t, err)
			equal(t, "space outside the subtree", got2.OrgID, o.ID)
			got3, err := f.st.Collection(ctx(t), sibling.ID)
			must(t, err)
			equal(t, "collection outside the subtree", got3.OrgID, o.ID)
			for _, g := range []struct {
				kind, id string
				want     []string
			}{
				{"collection", b.ID, []string{oldTeam.ID}},
				{"space", sc.ID, []string{oldTeam.ID, u.ID}},
				{"space", stay.ID, []string{oldTeam.ID}},
				{"collection", a.ID, []string{newTeam.ID}},
			} {
				gs, err := f.st.Grants(ctx(t), quire.GrantTarget(g.kind), g.id)
				must(t, err)
				equal(t, "grants on "+g.kind, ids(gs, func(g quire.Grant) string { return g.PrincipalID }), g.want)
			}
			sub, err := f.st.SubtreeGrants(ctx(t), a.ID)
			must(t, err)
			key := func(g quire.Grant) string { return string(g.TargetKind) + " " + g.TargetID + " " + g.PrincipalID }
			got4, want4 := ids(sub, key), []string{"collection " + a.ID + " " + newTeam.ID,
				"collection " + b.ID + " " + oldTeam.ID, "space " + sc.ID + " " + oldTeam.ID, "space " + sc.ID + " " + u.ID,
				"space " + gone.ID + " " + u.ID}
			slices.Sort(got4)
			slices.Sort(want4)
			equal(t, "grants in the subtree", got4, want4)
			ancestors, err := f.st.Ancestors(ctx(t), c.ID)
			must(t, err)
			equal(t, "ancestors after the move", ancestors, []string{b.ID, a.ID, target.ID})
		}},
		{"place/collection refuses bad parents", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			a := f.collection(o, "", "a")
			b := f.collection(o, a.ID, "b")
			oc := f.collection(other, "", "x")
			for _, parent := range []string{a.ID, b.ID, oc.ID, "nope"} {
				_, err := f.st.PlaceCollection(ctx(t), a.ID, o.ID, parent, "z")
				wantCode(t, err, quire.EINVALID)
			}
			got, err := f.st.PlaceCollection(ctx(t), b.ID, o.ID, "", "z")
			must(t, err)
			equal(t, "moved to the root", got.Parent, "")
			_, err = f.st.PlaceCollection(ctx(t), "nope", o.ID, "", "z")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"place/siblings", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			c := f.collection(o, "", "b")
			s1 := f.space(o, "", "a")
			s2 := f.space(o, "", "c")
			gone := f.space(o, "", "d")
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			in1 := f.collection(o, c.ID, "b")
			in2 := f.space(o, c.ID, "a")
			f.space(other, "", "a")
			got, err := f.st.Siblings(ctx(t), o.ID, "")
			must(t, err)
			equal(t, "root", got, []quire.Sibling{sib("space", s1.ID, "a"), sib("collection", c.ID, "b"), sib("space", s2.ID, "c")})
			got, err = f.st.Siblings(ctx(t), o.ID, c.ID)
			must(t, err)
			equal(t, "in a collection", got, []quire.Sibling{sib("space", in2.ID, "a"), sib("collection", in1.ID, "b")})
			got, err = f.st.Siblings(ctx(t), o.ID, in1.ID)
			must(t, err)
			equal(t, "empty", len(got), 0)
		}},
	}
}

// sib builds a Sibling.
func sib(kind, id, position string) quire.Sibling {
	return quire.Sibling{Kind: quire.SiblingKind(kind), ID: id, Position: position}
}
