package storetest

import (
	"testing"

	"quire/internal/quire"
)

func grantTests() []test {
	return []test{
		{"grants/set, replace, list and remove", func(t *testing.T, f *fixture) {
			o := f.org("A")
			s := f.space(o, "", "a")
			u, v := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			tm := f.team(o, "T")
			f.grant("space", s.ID, "user", u.ID, quire.RoleRead)
			f.grant("space", s.ID, "user", u.ID, quire.RoleEdit)
			f.grant("space", s.ID, "team", tm.ID, quire.RoleAdmin)
			f.grant("space", s.ID, "user", v.ID, quire.RoleComment)
			users := []quire.Grant{
				{TargetKind: "space", TargetID: s.ID, PrincipalKind: "user", PrincipalID: u.ID, Role: quire.RoleEdit},
				{TargetKind: "space", TargetID: s.ID, PrincipalKind: "user", PrincipalID: v.ID, Role: quire.RoleComment},
			}
			if v.ID < u.ID {
				users[0], users[1] = users[1], users[0]
			}
			want := append([]quire.Grant{{TargetKind: "space", TargetID: s.ID, PrincipalKind: "team", PrincipalID: tm.ID, Role: quire.RoleAdmin}}, users...)
			got, err := f.st.Grants(ctx(t), "space", s.ID)
			must(t, err)
			equal(t, "grants", got, want)
			ok, err := f.st.RemoveGrant(ctx(t), quire.Grant{TargetKind: "space", TargetID: s.ID, PrincipalKind: "team", PrincipalID: tm.ID})
			must(t, err)
			equal(t, "removed", ok, true)
			ok, err = f.st.RemoveGrant(ctx(t), quire.Grant{TargetKind: "space", TargetID: s.ID, PrincipalKind: "team", PrincipalID: tm.ID})
			must(t, err)
			equal(t, "removed again", ok, false)
			got, err = f.st.Grants(ctx(t), "space", s.ID)
			must(t, err)
			equal(t, "after removal", got, users)
			got, err = f.st.Grants(ctx(t), "collection", s.ID)
			must(t, err)
			equal(t, "other kind of target", len(got), 0)
		}},
		{"grants/reject bad grants", func(t *testing.T, f *fixture) {
			g := quire.Grant{TargetKind: "space", TargetID: "s", PrincipalKind: "user", PrincipalID: "u", Role: "owner"}
			wantCode(t, f.st.SetGrant(ctx(t), g), quire.EINVALID)
			g.Role, g.TargetKind = quire.RoleRead, "page"
			wantCode(t, f.st.SetGrant(ctx(t), g), quire.EINVALID)
			g.TargetKind, g.PrincipalKind = "space", "robot"
			wantCode(t, f.st.SetGrant(ctx(t), g), quire.EINVALID)
		}},
	}
}
