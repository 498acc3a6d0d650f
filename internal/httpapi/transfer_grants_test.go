package httpapi

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"quire/internal/quire"
)

// TestTransferKeepsOnlyGrantsOfTheTarget checks the one rule that space
// and collection transfers share: a grant survives only when its holder
// belongs to the destination organization, a team of it or a member of
// it. Grants to the old organization's teams and to users outside the
// destination go, on the transferred item and on everything under it.
func TestTransferKeepsOnlyGrantsOfTheTarget(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		ctx := context.Background()
		admin := ts.token(cAdmin)
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")
		oldTeam := ts.newTeam(t, "Writers", ts.user(cRead).ID)
		newTeam := str(ts.must(t, http.StatusCreated, "PUT", "/v1/orgs/"+org2+"/teams", owner.Token,
			map[string]any{"title": "Editors"}), "id")
		both := ts.user(cAdmin).ID      // a member of both organizations
		oldOnly := ts.user(cComment).ID // a member of the old one only

		space := ts.newSpace(t, "Loose")
		coll := ts.newCollection(t, "Shelf", "")
		inner := ts.newCollection(t, "Inner", coll)
		held := ts.newSpaceIn(t, "Held", inner)
		targets := []struct {
			kind quire.GrantTarget
			id   string
		}{{quire.GrantSpace, space}, {quire.GrantCollection, coll}, {quire.GrantCollection, inner}, {quire.GrantSpace, held}}
		for _, tg := range targets {
			for _, g := range []quire.Grant{
				{PrincipalKind: quire.PrincipalTeam, PrincipalID: oldTeam, Role: quire.RoleEdit},
				{PrincipalKind: quire.PrincipalTeam, PrincipalID: newTeam, Role: quire.RoleRead},
				{PrincipalKind: quire.PrincipalUser, PrincipalID: both, Role: quire.RoleRead},
				{PrincipalKind: quire.PrincipalUser, PrincipalID: oldOnly, Role: quire.RoleReview},
			} {
				g.TargetKind, g.TargetID = tg.kind, tg.id
				if err := ts.Store.SetGrant(ctx, g); err != nil {
					t.Fatal(err)
				}
			}
		}

		ts.must(t, http.StatusOK, "POST", "/v1/spaces/"+space+"/transfer", admin, map[string]any{"organization": org2})
		ts.must(t, http.StatusOK, "POST", "/v1/collections/"+coll+"/transfer", admin, map[string]any{"organization": org2})

		want := []string{"team " + newTeam, "user " + both}
		slices.Sort(want)
		for _, tg := range targets {
			gs, err := ts.Store.Grants(ctx, tg.kind, tg.id)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range gs {
				got = append(got, string(g.PrincipalKind)+" "+g.PrincipalID)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("grants on %s %s after the transfer: %v, want %v", tg.kind, tg.id, got, want)
			}
		}
	})
}
