package storetest

import (
	"testing"

	"quire/internal/quire"
)

func organizationTests() []test {
	return []test{
		{"organizations/create and read", func(t *testing.T, f *fixture) {
			o := &quire.Organization{ID: quire.NewID(), Title: "Acme", CreatedAt: f.tick(),
				EmailDomains: []string{"acme.com", "Acme.org"}, Hostname: "docs.acme.com", Type: "community",
				UseCase: "docs", CommunityType: "oss", DefaultRole: "", DefaultSite: "site1", SSO: true, AI: true,
				InviteLinks: false, Plan: "pro", LogoURL: "https://logo",
				MergeRules: quire.MergeRules{Type: "rules", Rules: []quire.MergeRule{
					{Rule: "reviewers", Users: []string{"u1", "u2"}}, {Rule: "custom", Expression: "a && b"}}}}
			must(t, f.st.CreateOrganization(ctx(t), o))
			got, err := f.st.Organization(ctx(t), o.ID)
			must(t, err)
			equal(t, "organization", *got, *o)
			wantCode(t, f.st.CreateOrganization(ctx(t), o), quire.ECONFLICT)
			_, err = f.st.Organization(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"organizations/update", func(t *testing.T, f *fixture) {
			o := f.org("Acme")
			got, err := f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{})
			must(t, err)
			equal(t, "empty update", *got, *o)
			rules := quire.MergeRules{Type: "rules", Rules: []quire.MergeRule{{Rule: "approval"}}}
			got, err = f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{
				Title: ptr("Acme Inc"), EmailDomains: &[]string{"acme.io"}, Hostname: ptr("h.acme.io"),
				DefaultRole: ptr(quire.Role("")), DefaultSite: ptr("s"), LogoURL: ptr("l"), SSO: ptr(true),
				AI: ptr(true), InviteLinks: ptr(false), MergeRules: &rules})
			must(t, err)
			want := *o
			want.Title, want.EmailDomains, want.Hostname, want.DefaultRole = "Acme Inc", []string{"acme.io"}, "h.acme.io", ""
			want.DefaultSite, want.LogoURL, want.SSO, want.AI, want.InviteLinks, want.MergeRules = "s", "l", true, true, false, rules
			equal(t, "updated", *got, want)
			got, err = f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{DefaultRole: ptr(quire.RoleEdit)})
			must(t, err)
			want.DefaultRole = quire.RoleEdit
			equal(t, "second update keeps the rest", *got, want)
			_, err = f.st.UpdateOrganization(ctx(t), "nope", quire.OrganizationUpdate{Title: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.UpdateOrganization(ctx(t), "nope", quire.OrganizationUpdate{})
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"organizations/for email domain", func(t *testing.T, f *fixture) {
			a, b := f.org("A"), f.org("B")
			f.org("C")
			for _, o := range []*quire.Organization{a, b} {
				_, err := f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{EmailDomains: &[]string{"Shared.com", o.Title + ".com"}})
				must(t, err)
			}
			byID := func(o *quire.Organization) string { return o.ID }
			got, err := f.st.OrganizationsForEmailDomain(ctx(t), "shared.COM")
			must(t, err)
			equal(t, "shared domain", ids(got, byID), []string{a.ID, b.ID})
			got, err = f.st.OrganizationsForEmailDomain(ctx(t), "b.com")
			must(t, err)
			equal(t, "own domain", ids(got, byID), []string{b.ID})
			_, err = f.st.UpdateOrganization(ctx(t), a.ID, quire.OrganizationUpdate{EmailDomains: &[]string{}})
			must(t, err)
			got, err = f.st.OrganizationsForEmailDomain(ctx(t), "shared.com")
			must(t, err)
			equal(t, "after removing a domain", ids(got, byID), []string{b.ID})
			got, err = f.st.OrganizationsForEmailDomain(ctx(t), "c.com")
			must(t, err)
			equal(t, "unknown domain", len(got), 0)
		}},
		{"organizations/for user, paged by join time", func(t *testing.T, f *fixture) {
			u, other := f.user("Ada", "ada@example.com"), f.user("Bob", "bob@example.com")
			var want []string
			orgs := []*quire.Organization{}
			for range 5 {
				orgs = append(orgs, f.org("Org"))
			}
			// Join in an order other than creation order. A cursor of this
			// list is refused by another list.
			for _, i := range []int{3, 0, 4, 1, 2} {
				f.member(orgs[i], u, quire.RoleRead)
				want = append(want, orgs[i].ID)
			}
			f.member(orgs[0], other, quire.RoleAdmin)
			for _, size := range []int{1, 2, 5, 10} {
				got, count := collect(t, size, func(p quire.Page) (*quire.List[*quire.Organization], error) {
					return f.st.OrganizationsForUser(ctx(t), u.ID, p)
				})
				equal(t, "count", count, 5)
				equal(t, "order", ids(got, func(o *quire.Organization) string { return o.ID }), want)
			}
			_, err := f.st.OrganizationsForUser(ctx(t), u.ID, quire.Page{Cursor: "!!!"})
			wantCode(t, err, quire.EINVALID)
			first, err := f.st.OrganizationsForUser(ctx(t), u.ID, quire.Page{Limit: 1})
			must(t, err)
			_, err = f.st.Members(ctx(t), orgs[0].ID, quire.MemberFilter{}, quire.Page{Cursor: first.Next})
			wantCode(t, err, quire.EINVALID)
		}},
		{"organizations/every one, paged by creation", func(t *testing.T, f *fixture) {
			var want []string
			for range 5 {
				want = append(want, f.org("Org").ID)
			}
			for _, size := range []int{1, 2, 5, 10} {
				got, count := collect(t, size, func(p quire.Page) (*quire.List[*quire.Organization], error) {
					return f.st.Organizations(ctx(t), p)
				})
				equal(t, "count", count, quire.Uncounted)
				equal(t, "order", ids(got, func(o *quire.Organization) string { return o.ID }), want)
			}
			_, err := f.st.Organizations(ctx(t), quire.Page{Cursor: "!!!"})
			wantCode(t, err, quire.EINVALID)
		}},
		{"organizations/invites", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			inv := &quire.Invite{ID: quire.NewID(), OrgID: o.ID, Role: quire.RoleEdit, CreatedAt: f.tick()}
			must(t, f.st.CreateInvite(ctx(t), inv))
			wantCode(t, f.st.CreateInvite(ctx(t), inv), quire.ECONFLICT)
			guest := &quire.Invite{ID: quire.NewID(), OrgID: o.ID, CreatedAt: f.tick()}
			must(t, f.st.CreateInvite(ctx(t), guest))
			must(t, f.st.CreateInvite(ctx(t), &quire.Invite{ID: quire.NewID(), OrgID: other.ID, CreatedAt: f.tick()}))
			list, err := f.st.Invites(ctx(t), o.ID)
			must(t, err)
			equal(t, "invites, oldest first", []quire.Invite{*list[0], *list[1]}, []quire.Invite{*inv, *guest})
			equal(t, "count", len(list), 2)
			got, err := f.st.Invite(ctx(t), guest.ID)
			must(t, err)
			equal(t, "invite by id", *got, *guest)
			_, err = f.st.Invite(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
			ok, err := f.st.DeleteInvite(ctx(t), other.ID, inv.ID)
			must(t, err)
			equal(t, "delete from another organization", ok, false)
			ok, err = f.st.DeleteInvite(ctx(t), o.ID, inv.ID)
			must(t, err)
			equal(t, "delete", ok, true)
			ok, err = f.st.DeleteInvite(ctx(t), o.ID, inv.ID)
			must(t, err)
			equal(t, "delete again", ok, false)
		}},
	}
}
