package storetest

import (
	"testing"

	"quire/internal/quire"
)

// accessFixture builds an organization (default role read) with
// collections a > b and a space s in b, with default levels comment on a,
// inherit on b and none on s.
type accessFixture struct {
	o    *quire.Organization
	a, b *quire.Collection
	s    *quire.Space
}

func newAccessFixture(t *testing.T, f *fixture) accessFixture {
	o := f.org("A")
	a := f.collection(o, "", "a")
	b := f.collection(o, a.ID, "b")
	s := f.space(o, b.ID, "s")
	_, err := f.st.UpdateCollection(ctx(t), a.ID, quire.CollectionUpdate{DefaultLevel: ptr(quire.DefaultLevel(quire.RoleComment))})
	must(t, err)
	_, err = f.st.UpdateSpace(ctx(t), s.ID, quire.SpaceUpdate{DefaultLevel: ptr(quire.DefaultNone)})
	must(t, err)
	return accessFixture{o: o, a: a, b: b, s: s}
}

func accessTests() []test {
	return []test{
		{"access/space facts", func(t *testing.T, f *fixture) {
			x := newAccessFixture(t, f)
			u, v, stranger := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io"), f.user("Cy", "cy@x.io")
			f.member(x.o, u, quire.RoleReview)
			f.member(x.o, v, "")
			tm := f.team(x.o, "T", u)
			other := f.team(x.o, "Other", v)
			f.grant("collection", x.a.ID, "team", tm.ID, quire.RoleAdmin)
			f.grant("space", x.s.ID, "user", u.ID, quire.RoleRead)
			f.grant("collection", x.b.ID, "team", other.ID, quire.RoleEdit)
			f.grant("space", x.s.ID, "user", v.ID, quire.RoleComment)
			chain := []quire.DefaultLevel{quire.DefaultNone, quire.DefaultInherit, quire.DefaultLevel(quire.RoleComment)}
			for _, c := range []struct {
				name string
				user *quire.User
				want quire.Facts
			}{
				{"member with a team grant above", u, quire.Facts{OrgID: x.o.ID, Member: true, OrgRole: quire.RoleReview,
					Grant: quire.RoleAdmin, Defaults: chain, OrgDefault: quire.RoleRead}},
				{"guest", v, quire.Facts{OrgID: x.o.ID, Member: true, Grant: quire.RoleEdit, Defaults: chain, OrgDefault: quire.RoleRead}},
				{"stranger", stranger, quire.Facts{OrgID: x.o.ID, Defaults: chain, OrgDefault: quire.RoleRead}},
			} {
				got, err := f.st.SpaceFacts(ctx(t), x.s.ID, c.user.ID)
				must(t, err)
				equal(t, c.name, got, c.want)
			}
			_, err := f.st.DeleteSpace(ctx(t), x.s.ID, f.tick())
			must(t, err)
			got, err := f.st.SpaceFacts(ctx(t), x.s.ID, u.ID)
			must(t, err)
			equal(t, "deleted space still resolves", got.Grant, quire.RoleAdmin)
			_, err = f.st.SpaceFacts(ctx(t), "nope", u.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"access/highest grant wins", func(t *testing.T, f *fixture) {
			x := newAccessFixture(t, f)
			u, v := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			f.member(x.o, u, quire.RoleRead)
			f.member(x.o, v, quire.RoleRead)
			mine, theirs := f.team(x.o, "Mine", u), f.team(x.o, "Theirs", v)
			want := quire.Role("")
			for _, g := range []struct {
				kind, id, pkind, pid string
				role                 quire.Role
				want                 quire.Role
			}{
				{"collection", x.a.ID, "user", v.ID, quire.RoleAdmin, ""},
				{"collection", x.a.ID, "team", theirs.ID, quire.RoleAdmin, ""},
				{"space", x.s.ID, "user", u.ID, quire.RoleComment, quire.RoleComment},
				{"collection", x.a.ID, "user", u.ID, quire.RoleRead, quire.RoleComment},
				{"collection", x.b.ID, "team", mine.ID, quire.RoleReview, quire.RoleReview},
				{"collection", x.a.ID, "user", u.ID, quire.RoleCreate, quire.RoleCreate},
				{"space", x.s.ID, "team", mine.ID, quire.RoleEdit, quire.RoleCreate},
			} {
				f.grant(quire.GrantTarget(g.kind), g.id, quire.Principal(g.pkind), g.pid, g.role)
				want = g.want
				got, err := f.st.SpaceFacts(ctx(t), x.s.ID, u.ID)
				must(t, err)
				equal(t, "grant after "+string(g.role)+" on "+g.kind, got.Grant, want)
			}
			got, err := f.st.CollectionFacts(ctx(t), x.b.ID, u.ID)
			must(t, err)
			equal(t, "collection grant", got.Grant, quire.RoleCreate)
		}},
		{"access/collection facts", func(t *testing.T, f *fixture) {
			x := newAccessFixture(t, f)
			u := f.user("Ada", "ada@x.io")
			f.member(x.o, u, quire.RoleEdit)
			f.grant("space", x.s.ID, "user", u.ID, quire.RoleAdmin)
			got, err := f.st.CollectionFacts(ctx(t), x.b.ID, u.ID)
			must(t, err)
			equal(t, "b", got, quire.Facts{OrgID: x.o.ID, Member: true, OrgRole: quire.RoleEdit,
				Defaults: []quire.DefaultLevel{quire.DefaultInherit, quire.DefaultLevel(quire.RoleComment)}, OrgDefault: quire.RoleRead})
			f.grant("collection", x.a.ID, "user", u.ID, quire.RoleReview)
			got, err = f.st.CollectionFacts(ctx(t), x.a.ID, u.ID)
			must(t, err)
			equal(t, "a", got, quire.Facts{OrgID: x.o.ID, Member: true, OrgRole: quire.RoleEdit, Grant: quire.RoleReview,
				Defaults: []quire.DefaultLevel{quire.DefaultLevel(quire.RoleComment)}, OrgDefault: quire.RoleRead})
			_, err = f.st.CollectionFacts(ctx(t), "nope", u.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"access/disabled members", func(t *testing.T, f *fixture) {
			x := newAccessFixture(t, f)
			u, v := f.user("Ada", "ada@x.io"), f.user("Dee", "dee@x.io")
			f.member(x.o, u, quire.RoleEdit)
			must(t, f.st.AddMember(ctx(t), &quire.Member{OrgID: x.o.ID, User: *v, Role: quire.RoleAdmin, Disabled: true, JoinedAt: f.tick()}))
			f.grant("space", x.s.ID, "user", v.ID, quire.RoleAdmin)
			root := f.space(x.o, "", "root")
			for _, c := range []struct {
				user     *quire.User
				disabled bool
			}{{u, false}, {v, true}} {
				name := c.user.DisplayName
				sf, err := f.st.SpaceFacts(ctx(t), x.s.ID, c.user.ID)
				must(t, err)
				equal(t, name+" space facts", sf.Disabled, c.disabled)
				equal(t, name+" space facts still a member", sf.Member, true)
				for _, id := range []string{x.s.ID, root.ID} {
					_, wf, err := f.st.SpaceWithFacts(ctx(t), id, c.user.ID)
					must(t, err)
					equal(t, name+" space with facts", wf.Disabled, c.disabled)
				}
				cf, err := f.st.CollectionFacts(ctx(t), x.b.ID, c.user.ID)
				must(t, err)
				equal(t, name+" collection facts", cf.Disabled, c.disabled)
				of, err := f.st.OrganizationFacts(ctx(t), x.o.ID, c.user.ID)
				must(t, err)
				equal(t, name+" organization facts", of, quire.Facts{OrgID: x.o.ID, Member: true, Disabled: c.disabled, OrgRole: map[bool]quire.Role{false: quire.RoleEdit, true: quire.RoleAdmin}[c.disabled]})
				l, err := f.st.OrganizationsForUser(ctx(t), c.user.ID, quire.Page{})
				must(t, err)
				equal(t, name+" organizations listed", l.Count, map[bool]int{false: 1, true: 0}[c.disabled])
				equal(t, name+" organizations items", len(l.Items), l.Count)
			}
		}},
		{"access/organization facts", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u, g, stranger := f.user("Ada", "ada@x.io"), f.user("Gus", "gus@x.io"), f.user("Cy", "cy@x.io")
			f.member(o, u, quire.RoleAdmin)
			f.member(o, g, "")
			for _, c := range []struct {
				user *quire.User
				want quire.Facts
			}{
				{u, quire.Facts{OrgID: o.ID, Member: true, OrgRole: quire.RoleAdmin}},
				{g, quire.Facts{OrgID: o.ID, Member: true}},
				{stranger, quire.Facts{OrgID: o.ID}},
			} {
				got, err := f.st.OrganizationFacts(ctx(t), o.ID, c.user.ID)
				must(t, err)
				equal(t, c.user.DisplayName, got, c.want)
			}
			_, err := f.st.OrganizationFacts(ctx(t), "nope", u.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"access/root facts", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u, g, stranger := f.user("Ada", "ada@x.io"), f.user("Gus", "gus@x.io"), f.user("Cy", "cy@x.io")
			f.member(o, u, quire.RoleEdit)
			f.member(o, g, "")
			for _, def := range []quire.Role{quire.RoleRead, ""} {
				_, err := f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{DefaultRole: &def})
				must(t, err)
				for _, c := range []struct {
					user *quire.User
					want quire.Facts
				}{
					{u, quire.Facts{OrgID: o.ID, Member: true, OrgRole: quire.RoleEdit, OrgDefault: def}},
					{g, quire.Facts{OrgID: o.ID, Member: true, OrgDefault: def}},
					{stranger, quire.Facts{OrgID: o.ID, OrgDefault: def}},
				} {
					got, err := f.st.RootFacts(ctx(t), o.ID, c.user.ID)
					must(t, err)
					equal(t, c.user.DisplayName+" with default "+string(def), got, c.want)
				}
			}
			_, err := f.st.RootFacts(ctx(t), "nope", u.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
