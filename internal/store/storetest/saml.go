package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func samlProviderID(p *quire.SAMLProvider) string { return p.ID }

func samlTests() []test {
	return []test{
		{"saml/providers: create, read, list, update, delete", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			team := f.team(o, "SSO")
			p := &quire.SAMLProvider{ID: quire.NewID(), OrgID: o.ID, Label: "Okta", EntityID: "urn:idp", Certificate: "PEM",
				SSOURL: "https://idp/sso", DefaultRole: quire.RoleEdit, DefaultTeam: team.ID, IDPInitiated: true, CreatedAt: f.tick()}
			must(t, f.st.CreateSAMLProvider(ctx(t), p))
			got, err := f.st.SAMLProvider(ctx(t), o.ID, p.ID)
			must(t, err)
			equal(t, "provider", *got, *p)
			got, err = f.st.SAMLProvider(ctx(t), "", p.ID)
			must(t, err)
			equal(t, "provider of any organization", got.ID, p.ID)
			_, err = f.st.SAMLProvider(ctx(t), other.ID, p.ID)
			wantCode(t, err, quire.ENOTFOUND)
			wantCode(t, f.st.CreateSAMLProvider(ctx(t), p), quire.ECONFLICT)

			// A default team of another organization is refused.
			bad := &quire.SAMLProvider{ID: quire.NewID(), OrgID: other.ID, Label: "X", DefaultTeam: team.ID, CreatedAt: f.tick()}
			err = f.st.CreateSAMLProvider(ctx(t), bad)
			wantCode(t, err, quire.EINVALID)
			equal(t, "field", err.(*quire.Error).Field, "defaultTeam")

			all := []string{p.ID}
			for range 4 {
				q := &quire.SAMLProvider{ID: quire.NewID(), OrgID: o.ID, Label: "More", CreatedAt: f.tick()}
				must(t, f.st.CreateSAMLProvider(ctx(t), q))
				all = append(all, q.ID)
			}
			items, count := collect(t, 2, func(pg quire.Page) (*quire.List[*quire.SAMLProvider], error) {
				return f.st.SAMLProviders(ctx(t), o.ID, pg)
			})
			equal(t, "count", count, 5)
			equal(t, "ids, oldest first", ids(items, samlProviderID), all)
			l, err := f.st.SAMLProviders(ctx(t), other.ID, quire.Page{})
			must(t, err)
			equal(t, "other organization", len(l.Items), 0)

			got, err = f.st.UpdateSAMLProvider(ctx(t), o.ID, p.ID, quire.SAMLProviderUpdate{Label: ptr("Renamed"),
				DefaultRole: ptr(quire.Role("")), DefaultTeam: ptr(""), IDPInitiated: ptr(false)})
			must(t, err)
			want := *p
			want.Label, want.DefaultRole, want.DefaultTeam, want.IDPInitiated = "Renamed", "", "", false
			equal(t, "updated", *got, want)
			_, err = f.st.UpdateSAMLProvider(ctx(t), other.ID, p.ID, quire.SAMLProviderUpdate{Label: ptr("No")})
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.UpdateSAMLProvider(ctx(t), o.ID, p.ID, quire.SAMLProviderUpdate{DefaultTeam: ptr("noteam")})
			wantCode(t, err, quire.EINVALID)

			ok, err := f.st.DeleteSAMLProvider(ctx(t), other.ID, p.ID)
			must(t, err)
			equal(t, "deleted from another organization", ok, false)
			ok, err = f.st.DeleteSAMLProvider(ctx(t), o.ID, p.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			_, err = f.st.SAMLProvider(ctx(t), o.ID, p.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"saml/providers: deleting the default team clears it", func(t *testing.T, f *fixture) {
			o := f.org("A")
			team := f.team(o, "SSO")
			p := &quire.SAMLProvider{ID: quire.NewID(), OrgID: o.ID, Label: "Okta", DefaultTeam: team.ID, CreatedAt: f.tick()}
			must(t, f.st.CreateSAMLProvider(ctx(t), p))
			_, err := f.st.DeleteTeam(ctx(t), o.ID, team.ID)
			must(t, err)
			got, err := f.st.SAMLProvider(ctx(t), o.ID, p.ID)
			must(t, err)
			equal(t, "default team", got.DefaultTeam, "")
		}},
		{"saml/requests are taken once, before they expire", func(t *testing.T, f *fixture) {
			o := f.org("A")
			p := &quire.SAMLProvider{ID: quire.NewID(), OrgID: o.ID, Label: "Okta", CreatedAt: f.tick()}
			must(t, f.st.CreateSAMLProvider(ctx(t), p))
			now := f.tick()
			r := &quire.SAMLRequest{RelayHash: []byte("relay-1"), ProviderID: p.ID, RequestID: "id-1", Redirect: "/v1/user",
				ExpiresAt: now.Add(10 * time.Minute)}
			must(t, f.st.PutSAMLRequest(ctx(t), r, now))
			old := &quire.SAMLRequest{RelayHash: []byte("relay-2"), ProviderID: p.ID, RequestID: "id-2", ExpiresAt: now.Add(time.Minute)}
			must(t, f.st.PutSAMLRequest(ctx(t), old, now))

			_, err := f.st.TakeSAMLRequest(ctx(t), "otherprovider", r.RelayHash, now)
			wantCode(t, err, quire.ENOTFOUND)
			got, err := f.st.TakeSAMLRequest(ctx(t), p.ID, r.RelayHash, now)
			must(t, err)
			equal(t, "request", *got, *r)
			_, err = f.st.TakeSAMLRequest(ctx(t), p.ID, r.RelayHash, now)
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.TakeSAMLRequest(ctx(t), p.ID, old.RelayHash, now.Add(2*time.Minute))
			wantCode(t, err, quire.ENOTFOUND)

			wantCode(t, f.st.PutSAMLRequest(ctx(t), &quire.SAMLRequest{RelayHash: []byte("relay-3"), ProviderID: "nosuch",
				RequestID: "id-3", ExpiresAt: now.Add(time.Minute)}, now), quire.ENOTFOUND)
		}},
		{"saml/assertions are used once until they expire", func(t *testing.T, f *fixture) {
			now := f.tick()
			must(t, f.st.UseSAMLAssertion(ctx(t), "p1", "a1", now.Add(time.Hour), now))
			wantCode(t, f.st.UseSAMLAssertion(ctx(t), "p1", "a1", now.Add(time.Hour), now), quire.ECONFLICT)
			must(t, f.st.UseSAMLAssertion(ctx(t), "p2", "a1", now.Add(time.Hour), now))
			// Once expired, the record is pruned.
			must(t, f.st.UseSAMLAssertion(ctx(t), "p1", "a1", now.Add(3*time.Hour), now.Add(2*time.Hour)))
		}},
		{"saml/join team and SSO state", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u, owner := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			f.member(o, u, quire.RoleRead)
			f.member(o, owner, quire.RoleRead)
			team := f.team(o, "SSO")
			must(t, f.st.SetTeamMember(ctx(t), o.ID, team.ID, owner.ID, quire.TeamOwner))
			must(t, f.st.JoinTeam(ctx(t), o.ID, team.ID, u.ID))
			must(t, f.st.JoinTeam(ctx(t), o.ID, team.ID, u.ID))
			must(t, f.st.JoinTeam(ctx(t), o.ID, team.ID, owner.ID))
			l, err := f.st.MemberTeams(ctx(t), o.ID, owner.ID, quire.TeamFilter{}, quire.Page{})
			must(t, err)
			equal(t, "owner keeps their role", l.Items[0].Role, quire.TeamOwner)
			got, err := f.st.Team(ctx(t), o.ID, team.ID)
			must(t, err)
			equal(t, "members", got.Members, 2)
			wantCode(t, f.st.JoinTeam(ctx(t), o.ID, "noteam", u.ID), quire.ENOTFOUND)

			required, member, err := f.st.SSOState(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "state", [2]bool{required, member}, [2]bool{false, false})
			_, err = f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{SSO: ptr(true)})
			must(t, err)
			_, err = f.st.SetMemberSSO(ctx(t), o.ID, u.ID, true)
			must(t, err)
			required, member, err = f.st.SSOState(ctx(t), o.ID, u.ID)
			must(t, err)
			equal(t, "state", [2]bool{required, member}, [2]bool{true, true})
			_, _, err = f.st.SSOState(ctx(t), o.ID, "nobody")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"saml/sessions by hash, until they expire or end", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			p := &quire.SAMLProvider{ID: quire.NewID(), OrgID: o.ID, Label: "Okta", CreatedAt: f.tick()}
			must(t, f.st.CreateSAMLProvider(ctx(t), p))
			now := f.tick()
			s := &quire.Session{ID: quire.NewID(), Hash: []byte("hash-1"), UserID: u.ID, Method: quire.SessionSAML, ProviderID: p.ID, OrgID: o.ID,
				CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}
			idle := now.Add(-time.Hour)
			must(t, f.st.CreateSession(ctx(t), s))
			wantCode(t, f.st.CreateSession(ctx(t), s), quire.ECONFLICT)
			got, gu, err := f.st.Session(ctx(t), s.Hash, now, idle)
			must(t, err)
			equal(t, "session", *got, *s)
			equal(t, "user", *gu, *u)
			_, _, err = f.st.Session(ctx(t), s.Hash, now.Add(time.Hour), idle)
			wantCode(t, err, quire.ENOTFOUND)
			_, _, err = f.st.Session(ctx(t), []byte("other"), now, idle)
			wantCode(t, err, quire.ENOTFOUND)

			// A deleted provider leaves its sessions open.
			_, err = f.st.DeleteSAMLProvider(ctx(t), o.ID, p.ID)
			must(t, err)
			got, _, err = f.st.Session(ctx(t), s.Hash, now, idle)
			must(t, err)
			equal(t, "provider", got.ProviderID, "")
			equal(t, "organization", got.OrgID, o.ID)

			ok, err := f.st.DeleteSession(ctx(t), s.Hash)
			must(t, err)
			equal(t, "ended", ok, true)
			ok, err = f.st.DeleteSession(ctx(t), s.Hash)
			must(t, err)
			equal(t, "ended twice", ok, false)
			_, _, err = f.st.Session(ctx(t), s.Hash, now, idle)
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
