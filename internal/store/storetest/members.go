package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func memberTests() []test {
	return []test{
		{"members/add and read", func(t *testing.T, f *fixture) {
			o, u := f.org("A"), f.user("Ada", "ada@example.com")
			seen := f.tick()
			m := &quire.Member{OrgID: o.ID, User: *u, Role: quire.RoleEdit, Disabled: true, SSO: true,
				JoinedAt: f.tick(), LastSeenAt: &seen}
			must(t, f.st.AddMember(ctx(t), m))
			got, err := f.st.Member(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "member", *got, *m)
			wantCode(t, f.st.AddMember(ctx(t), m), quire.ECONFLICT)
			_, err = f.st.Member(ctx(t), o.ID, "nope")
			wantCode(t, err, quire.ENOTFOUND)
			g := f.member(o, f.user("Gus", "gus@example.com"), "")
			got, err = f.st.Member(ctx(t), o.ID, g.User.ID)
			must(t, err)
			equal(t, "guest", *got, *g)
		}},
		{"members/counts", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u := f.user("Ada", "ada@example.com")
			f.member(o, u, quire.RoleRead)
			f.member(other, u, quire.RoleRead)
			s1, s2, s3, gone := f.space(o, "", "a"), f.space(o, "", "b"), f.space(other, "", "c"), f.space(o, "", "d")
			c := f.collection(o, "", "e")
			for _, s := range []*quire.Space{s1, s2, s3, gone} {
				f.grant("space", s.ID, "user", u.ID, quire.RoleEdit)
			}
			f.grant("collection", c.ID, "user", u.ID, quire.RoleEdit)
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			tm := f.team(o, "T1", u)
			f.team(o, "T2", u)
			f.team(other, "T3", u)
			f.grant("space", s1.ID, "team", tm.ID, quire.RoleAdmin)
			got, err := f.st.Member(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "spaces with a direct grant", got.Spaces, 2)
			equal(t, "teams in the organization", got.Teams, 2)
			l, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{})
			must(t, err)
			equal(t, "listed counts", [2]int{l.Items[0].Spaces, l.Items[0].Teams}, [2]int{2, 2})
		}},
		{"members/update role, sso and last seen", func(t *testing.T, f *fixture) {
			o, u := f.org("A"), f.user("Ada", "ada@example.com")
			m := f.member(o, u, quire.RoleRead)
			got, err := f.st.UpdateMemberRole(ctx(t), o.ID, u.ID, quire.RoleAdmin)
			must(t, err)
			m.Role = quire.RoleAdmin
			equal(t, "admin", *got, *m)
			got, err = f.st.UpdateMemberRole(ctx(t), o.ID, u.ID, "")
			must(t, err)
			m.Role = ""
			equal(t, "guest", *got, *m)
			got, err = f.st.SetMemberSSO(ctx(t), o.ID, u.ID, true)
			must(t, err)
			m.SSO = true
			equal(t, "sso", *got, *m)
			at := f.tick()
			must(t, f.st.TouchMember(ctx(t), o.ID, u.ID, at))
			got, err = f.st.Member(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "last seen", *got.LastSeenAt, at)
			_, err = f.st.UpdateMemberRole(ctx(t), o.ID, "nope", quire.RoleAdmin)
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.SetMemberSSO(ctx(t), "nope", u.ID, true)
			wantCode(t, err, quire.ENOTFOUND)
			wantCode(t, f.st.TouchMember(ctx(t), o.ID, "nope", at), quire.ENOTFOUND)
		}},
		{"members/count admins", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			f.member(o, f.user("A", "a@x.io"), quire.RoleAdmin)
			f.member(o, f.user("B", "b@x.io"), quire.RoleAdmin)
			f.member(o, f.user("C", "c@x.io"), quire.RoleCreate)
			f.member(other, f.user("D", "d@x.io"), quire.RoleAdmin)
			must(t, f.st.AddMember(ctx(t), &quire.Member{OrgID: o.ID, User: *f.user("E", "e@x.io"),
				Role: quire.RoleAdmin, Disabled: true, JoinedAt: f.tick()}))
			n, err := f.st.CountAdmins(ctx(t), o.ID)
			must(t, err)
			equal(t, "admins, the disabled one left out", n, 2)
		}},
		{"members/remove cascades within the organization", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u, v := f.user("Ada", "ada@example.com"), f.user("Bob", "bob@example.com")
			for _, org := range []*quire.Organization{o, other} {
				f.member(org, u, quire.RoleRead)
				f.member(org, v, quire.RoleRead)
			}
			mine, theirs := f.team(o, "Mine", u, v), f.team(other, "Theirs", u)
			s, c, os := f.space(o, "", "a"), f.collection(o, "", "b"), f.space(other, "", "c")
			f.grant("space", s.ID, "user", u.ID, quire.RoleEdit)
			f.grant("collection", c.ID, "user", u.ID, quire.RoleEdit)
			f.grant("space", os.ID, "user", u.ID, quire.RoleEdit)
			f.grant("space", s.ID, "user", v.ID, quire.RoleEdit)
			ok, err := f.st.RemoveMember(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "removed", ok, true)
			_, err = f.st.Member(ctx(t), o.ID, u.ID)
			wantCode(t, err, quire.ENOTFOUND)
			tm, err := f.st.Team(ctx(t), o.ID, mine.ID)
			must(t, err)
			equal(t, "members left in the organization's team", tm.Members, 1)
			tm, err = f.st.Team(ctx(t), other.ID, theirs.ID)
			must(t, err)
			equal(t, "members of the other organization's team", tm.Members, 1)
			for _, c := range []struct {
				kind, id string
				want     int
			}{{"space", s.ID, 1}, {"collection", c.ID, 0}, {"space", os.ID, 1}} {
				g, err := f.st.Grants(ctx(t), quire.GrantTarget(c.kind), c.id)
				must(t, err)
				equal(t, "grants left on "+c.kind, len(g), c.want)
			}
			ok, err = f.st.RemoveMember(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "removed again", ok, false)
		}},
		{"members/member spaces", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u := f.user("Ada", "ada@example.com")
			f.member(o, u, "")
			tm := f.team(o, "T", u)
			var spaces []*quire.Space
			for range 5 {
				spaces = append(spaces, f.space(o, "", "p"))
			}
			f.space(o, "", "ungranted")
			os := f.space(other, "", "elsewhere")
			f.grant("space", spaces[0].ID, "user", u.ID, quire.RoleRead)
			f.grant("space", spaces[0].ID, "team", tm.ID, quire.RoleAdmin)
			f.grant("space", spaces[1].ID, "user", u.ID, quire.RoleComment)
			f.grant("space", spaces[2].ID, "team", tm.ID, quire.RoleReview)
			f.grant("space", spaces[3].ID, "user", u.ID, quire.RoleEdit)
			f.grant("space", spaces[4].ID, "user", u.ID, quire.RoleCreate)
			f.grant("space", os.ID, "user", u.ID, quire.RoleEdit)
			_, err := f.st.DeleteSpace(ctx(t), spaces[4].ID, f.tick())
			must(t, err)
			want := map[string]quire.Role{spaces[0].ID: quire.RoleAdmin, spaces[1].ID: quire.RoleComment,
				spaces[2].ID: quire.RoleReview, spaces[3].ID: quire.RoleEdit}
			for _, order := range []quire.Order{quire.OrderAsc, quire.OrderDesc, ""} {
				got, count := collect(t, 3, func(p quire.Page) (*quire.List[*quire.MemberSpace], error) {
					return f.st.MemberSpaces(ctx(t), o.ID, u.ID, order, p)
				})
				equal(t, "count", count, 4)
				for i, ms := range got {
					equal(t, "role on "+ms.Space.Title, ms.Role, want[ms.Space.ID])
					if i > 0 && (ms.Space.ID < got[i-1].Space.ID) != (order == quire.OrderDesc) {
						t.Fatalf("order %q: %s after %s", order, ms.Space.ID, got[i-1].Space.ID)
					}
				}
			}
			_, err = f.st.MemberSpaces(ctx(t), o.ID, u.ID, "sideways", quire.Page{})
			wantCode(t, err, quire.EINVALID)
		}},
	}
}

// seenAt is a last-seen time for the listing tests.
func seenAt(minutes int) *time.Time {
	t := base().Add(time.Duration(minutes) * time.Minute)
	return &t
}
