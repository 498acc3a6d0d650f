package storetest

import (
	"testing"

	"quire/internal/quire"
)

func teamID(t *quire.Team) string { return t.ID }

func teamTests() []test {
	return []test{
		{"teams/create and read", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u, v := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			f.member(o, u, quire.RoleRead)
			f.member(o, v, "")
			tm := &quire.Team{ID: quire.NewID(), OrgID: o.ID, Title: "Writers", CreatedAt: f.tick()}
			must(t, f.st.CreateTeam(ctx(t), tm, []string{u.ID, v.ID, u.ID}))
			got, err := f.st.Team(ctx(t), o.ID, tm.ID)
			must(t, err)
			equal(t, "team", *got, quire.Team{ID: tm.ID, OrgID: o.ID, Title: "Writers", Members: 2, CreatedAt: tm.CreatedAt})
			l, err := f.st.MemberTeams(ctx(t), o.ID, u.ID, quire.TeamFilter{}, quire.Page{})
			must(t, err)
			equal(t, "role of an initial member", l.Items[0].Role, quire.TeamMember)
			_, err = f.st.Team(ctx(t), other.ID, tm.ID)
			wantCode(t, err, quire.ENOTFOUND)
			wantCode(t, f.st.CreateTeam(ctx(t), tm, nil), quire.ECONFLICT)
		}},
		{"teams/initial members must belong to the organization", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u, stranger := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			f.member(o, u, quire.RoleRead)
			f.member(other, stranger, quire.RoleRead)
			tm := &quire.Team{ID: quire.NewID(), OrgID: o.ID, Title: "T", CreatedAt: f.tick()}
			err := f.st.CreateTeam(ctx(t), tm, []string{u.ID, stranger.ID})
			wantCode(t, err, quire.EINVALID)
			equal(t, "field", err.(*quire.Error).Field, "members")
			_, err = f.st.Team(ctx(t), o.ID, tm.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"teams/list paged and filtered", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u := f.user("Ada", "ada@x.io")
			f.member(o, u, quire.RoleRead)
			var all []string
			for _, title := range []string{"Docs", "API docs", "Design", "Ops_team", "Opsxteam", "100% docs"} {
				all = append(all, f.team(o, title).ID)
			}
			f.team(other, "Docs elsewhere")
			must(t, f.st.SetTeamMember(ctx(t), o.ID, all[1], u.ID, quire.TeamOwner))
			must(t, f.st.SetTeamMember(ctx(t), o.ID, all[2], u.ID, quire.TeamMember))
			must(t, f.st.SetTeamMember(ctx(t), o.ID, all[5], u.ID, quire.TeamOwner))
			for _, c := range []struct {
				name string
				f    quire.TeamFilter
				want []string
			}{
				{"all, oldest first", quire.TeamFilter{}, all},
				{"title, any case", quire.TeamFilter{Title: "DOCS"}, []string{all[0], all[1], all[5]}},
				{"underscore is literal", quire.TeamFilter{Title: "s_t"}, []string{all[3]}},
				{"percent is literal", quire.TeamFilter{Title: "0%"}, []string{all[5]}},
				{"owner", quire.TeamFilter{Owner: u.ID}, []string{all[1], all[5]}},
				{"owner and title", quire.TeamFilter{Owner: u.ID, Title: "api"}, []string{all[1]}},
			} {
				for _, size := range []int{1, 2, 50} {
					got, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.Team], error) {
						return f.st.Teams(ctx(t), o.ID, c.f, p)
					})
					equal(t, c.name, ids(got, teamID), c.want)
				}
			}
			_, err := f.st.Teams(ctx(t), o.ID, quire.TeamFilter{}, quire.Page{Cursor: "e30"})
			wantCode(t, err, quire.EINVALID)
		}},
		{"teams/member teams", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u := f.user("Ada", "ada@x.io")
			f.member(o, u, quire.RoleRead)
			f.member(other, u, quire.RoleRead)
			var want []string
			for i := range 4 {
				want = append(want, f.team(o, "Team", u).ID)
				if i == 1 {
					f.team(o, "Without her")
				}
			}
			f.team(other, "Elsewhere", u)
			must(t, f.st.SetTeamMember(ctx(t), o.ID, want[2], u.ID, quire.TeamOwner))
			got, count := collect(t, 3, func(p quire.Page) (*quire.List[*quire.MemberTeam], error) {
				return f.st.MemberTeams(ctx(t), o.ID, u.ID, quire.TeamFilter{}, p)
			})
			equal(t, "count", count, 4)
			equal(t, "teams", ids(got, func(mt *quire.MemberTeam) string { return mt.Team.ID }), want)
			roles := ids(got, func(mt *quire.MemberTeam) string { return mt.Role })
			equal(t, "roles", roles, []string{"member", "member", "owner", "member"})
			l, err := f.st.MemberTeams(ctx(t), o.ID, u.ID, quire.TeamFilter{Owner: u.ID}, quire.Page{})
			must(t, err)
			equal(t, "owned", len(l.Items), 1)
		}},
		{"teams/set and remove team members", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u, stranger := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			f.member(o, u, quire.RoleRead)
			tm := f.team(o, "T")
			wantCode(t, f.st.SetTeamMember(ctx(t), o.ID, tm.ID, stranger.ID, quire.TeamMember), quire.EINVALID)
			wantCode(t, f.st.SetTeamMember(ctx(t), o.ID, tm.ID, u.ID, "boss"), quire.EINVALID)
			wantCode(t, f.st.SetTeamMember(ctx(t), other.ID, tm.ID, u.ID, quire.TeamMember), quire.ENOTFOUND)
			must(t, f.st.SetTeamMember(ctx(t), o.ID, tm.ID, u.ID, quire.TeamMember))
			must(t, f.st.SetTeamMember(ctx(t), o.ID, tm.ID, u.ID, quire.TeamOwner))
			got, err := f.st.Team(ctx(t), o.ID, tm.ID)
			must(t, err)
			equal(t, "members after two sets", got.Members, 1)
			ok, err := f.st.RemoveTeamMember(ctx(t), other.ID, tm.ID, u.ID)
			must(t, err)
			equal(t, "remove through another organization", ok, false)
			ok, err = f.st.RemoveTeamMember(ctx(t), o.ID, tm.ID, u.ID)
			must(t, err)
			equal(t, "remove", ok, true)
			ok, err = f.st.RemoveTeamMember(ctx(t), o.ID, tm.ID, u.ID)
			must(t, err)
			equal(t, "remove again", ok, false)
		}},
		{"teams/rename and delete", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			u := f.user("Ada", "ada@x.io")
			f.member(o, u, quire.RoleRead)
			tm, keep := f.team(o, "Old", u), f.team(o, "Keep", u)
			s, s2, c := f.space(o, "", "a"), f.space(o, "", "b"), f.collection(o, "", "c")
			f.grant("space", s.ID, "team", tm.ID, quire.RoleEdit)
			f.grant("space", s2.ID, "team", tm.ID, quire.RoleRead)
			f.grant("collection", c.ID, "team", tm.ID, quire.RoleEdit)
			f.grant("space", s.ID, "team", keep.ID, quire.RoleEdit)
			got, err := f.st.RenameTeam(ctx(t), o.ID, tm.ID, "New")
			must(t, err)
			equal(t, "renamed", *got, quire.Team{ID: tm.ID, OrgID: o.ID, Title: "New", Members: 1, Spaces: 2, CreatedAt: tm.CreatedAt})
			l, err := f.st.Teams(ctx(t), o.ID, quire.TeamFilter{Title: "new"}, quire.Page{})
			must(t, err)
			equal(t, "found by its new title", len(l.Items), 1)
			_, err = f.st.RenameTeam(ctx(t), other.ID, tm.ID, "X")
			wantCode(t, err, quire.ENOTFOUND)
			ok, err := f.st.DeleteTeam(ctx(t), other.ID, tm.ID)
			must(t, err)
			equal(t, "delete through another organization", ok, false)
			ok, err = f.st.DeleteTeam(ctx(t), o.ID, tm.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			gs, err := f.st.Grants(ctx(t), "space", s.ID)
			must(t, err)
			equal(t, "grants left", gs, []quire.Grant{{TargetKind: "space", TargetID: s.ID, PrincipalKind: "team", PrincipalID: keep.ID, Role: quire.RoleEdit}})
			gs, err = f.st.Grants(ctx(t), "collection", c.ID)
			must(t, err)
			equal(t, "collection grants left", len(gs), 0)
			m, err := f.st.Member(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "member's teams", m.Teams, 1)
			ok, err = f.st.DeleteTeam(ctx(t), o.ID, tm.ID)
			must(t, err)
			equal(t, "deleted again", ok, false)
		}},
	}
}
