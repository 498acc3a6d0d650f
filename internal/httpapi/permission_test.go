package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"testing"
)

// grantsOf lists a space's grants of a kind as id → role.
func (ts *testServer) grantsOf(t *testing.T, space, kind string) map[string]string {
	t.Helper()
	l := ts.must(t, 200, "GET", "/v1/spaces/"+space+"/permissions/"+kind+"s", ts.token(cAdmin), nil)
	out := map[string]string{}
	for _, it := range items(t, l) {
		out[str(it, kind+".id")] = str(it, "permission")
	}
	if l["count"] != float64(len(out)) {
		t.Errorf("%s grants count %v, %d listed", kind, l["count"], len(out))
	}
	return out
}

func TestSpacePermissionsInvite(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Shared")
		path := "/v1/spaces/" + sp + "/permissions"
		reader, commenter := ts.user(cRead), ts.user(cComment)
		team := ts.newTeam(t, "Writers", reader.ID)

		ts.must(t, http.StatusNoContent, "POST", path, admin, map[string]any{
			"role": "edit", "users": []string{reader.ID, commenter.ID, reader.ID}, "teams": []string{team},
		})
		if got := ts.grantsOf(t, sp, "user"); !jsonEqual(got, map[string]string{reader.ID: "edit", commenter.ID: "edit"}) {
			t.Errorf("user grants %v", got)
		}
		if got := ts.grantsOf(t, sp, "team"); !jsonEqual(got, map[string]string{team: "edit"}) {
			t.Errorf("team grants %v", got)
		}
		// Inviting again replaces the role.
		ts.must(t, http.StatusNoContent, "POST", path, admin, map[string]any{"role": "review", "users": []string{commenter.ID}})
		if got := ts.grantsOf(t, sp, "user")[commenter.ID]; got != "review" {
			t.Errorf("re-invited role %q, want review", got)
		}

		// The list entries.
		l := ts.must(t, 200, "GET", path+"/users", ts.token(cRead), nil)
		for _, it := range items(t, l) {
			u := ts.user(cRead)
			if str(it, "user.id") != u.ID {
				u = ts.user(cComment)
			}
			wantFields(t, it, map[string]any{"user.object": "user", "user.displayName": u.Name, "user.email": u.Email,
				"user.urls.location": testBaseURL + "/v1/users/" + u.ID})
		}
		l = ts.must(t, 200, "GET", path+"/teams", ts.token(cRead), nil)
		wantFields(t, l, map[string]any{"count": 1, "items.0.permission": "edit", "items.0.team.object": "team",
			"items.0.team.id": team, "items.0.team.title": "Writers", "items.0.team.members": 1, "items.0.team.spaces": 1})
		wantTimestamp(t, l, "items.0.team.createdAt")

		// Paging through user grants.
		var paged []string
		query := "limit=1"
		for i := 0; i < 3; i++ {
			l := ts.must(t, 200, "GET", path+"/users?"+query, admin, nil)
			if l["count"] != float64(2) {
				t.Errorf("page count %v", l["count"])
			}
			paged = append(paged, ids(t, l, "user.id")...)
			if !has(l, "next") {
				break
			}
			query = "limit=1&page=" + url.QueryEscape(str(l, "next.page"))
		}
		want := []string{reader.ID, commenter.ID}
		sort.Strings(want)
		if !slices.Equal(paged, want) {
			t.Errorf("paged grants %v, want %v", paged, want)
		}

		// Refused invitations change nothing, even partly.
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")
		foreignTeam := str(ts.must(t, 201, "PUT", "/v1/orgs/"+org2+"/teams", owner.Token, map[string]any{"title": "Foreign"}), "id")
		beforeUsers, beforeTeams := ts.grantsOf(t, sp, "user"), ts.grantsOf(t, sp, "team")
		for _, tc := range []struct {
			name   string
			status int
			body   map[string]any
			field  string
		}{
			{"nobody", 400, map[string]any{"role": "read"}, "users"},
			{"empty lists", 400, map[string]any{"role": "read", "users": []string{}, "teams": []string{}}, "users"},
			{"no role", 400, map[string]any{"users": []string{ts.user(cEdit).ID}}, "role"},
			{"null role", 400, map[string]any{"role": nil, "users": []string{ts.user(cEdit).ID}}, "role"},
			{"unknown role", 400, map[string]any{"role": "owner", "users": []string{ts.user(cEdit).ID}}, "role"},
			// Invitees that do not exist in the organization are 404.
			{"non-member", 404, map[string]any{"role": "read", "users": []string{ts.user(cEdit).ID, ts.user(cNonMember).ID}}, "users"},
			{"unknown user", 404, map[string]any{"role": "read", "users": []string{"nosuchuser"}}, "users"},
			{"unknown team", 404, map[string]any{"role": "read", "users": []string{ts.user(cEdit).ID}, "teams": []string{"nosuchteam"}}, "teams"},
			{"team of another organization", 404, map[string]any{"role": "read", "teams": []string{foreignTeam}}, "teams"},
		} {
			wantContains(t, ts.mustError(t, tc.status, "POST", path, admin, tc.body), tc.field)
			if got := ts.grantsOf(t, sp, "user"); !jsonEqual(got, beforeUsers) {
				t.Errorf("%s: user grants changed to %v", tc.name, got)
			}
			if got := ts.grantsOf(t, sp, "team"); !jsonEqual(got, beforeTeams) {
				t.Errorf("%s: team grants changed to %v", tc.name, got)
			}
		}
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/permissions", admin, map[string]any{"role": "read", "users": []string{reader.ID}})

		// A deleted space takes no grants.
		gone := ts.newSpace(t, "Gone")
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+gone, admin, nil)
		ts.mustError(t, 400, "POST", "/v1/spaces/"+gone+"/permissions", admin, map[string]any{"role": "read", "users": []string{reader.ID}})
	})
}

func TestSpacePermissionsUpdateAndRemove(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Shared")
		base := "/v1/spaces/" + sp + "/permissions"
		u := ts.user(cRead).ID
		team := ts.newTeam(t, "Writers")
		ts.grantUser(t, sp, u, "comment")
		ts.grantTeam(t, sp, team, "read")

		for _, kind := range []string{"user", "team"} {
			id := u
			if kind == "team" {
				id = team
			}
			path := base + "/" + kind + "s/" + id
			ts.must(t, http.StatusNoContent, "PATCH", path, admin, map[string]any{"role": "admin"})
			if got := ts.grantsOf(t, sp, kind)[id]; got != "admin" {
				t.Errorf("%s grant %q after PATCH, want admin", kind, got)
			}
			wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, map[string]any{"role": "owner"}), "role")

			// An omitted role must not drop the grant.
			r := ts.send(t, "PATCH", path, admin, map[string]any{})
			if r.Status != http.StatusNoContent && r.Status != http.StatusBadRequest {
				t.Errorf("%s PATCH {}: status %d: %s", kind, r.Status, r.Body)
			}
			if got := ts.grantsOf(t, sp, kind)[id]; got != "admin" {
				t.Errorf("%s PATCH {} changed the grant to %q", kind, got)
				ts.must(t, http.StatusNoContent, "POST", base, admin, map[string]any{"role": "admin", kind + "s": []string{id}})
			}

			// null removes it.
			ts.must(t, http.StatusNoContent, "PATCH", path, admin, map[string]any{"role": nil})
			if _, ok := ts.grantsOf(t, sp, kind)[id]; ok {
				t.Errorf("%s grant left after PATCH null", kind)
			}
			ts.mustError(t, 404, "PATCH", path, admin, map[string]any{"role": "read"})
			ts.mustError(t, 404, "PATCH", base+"/"+kind+"s/nosuchid", admin, map[string]any{"role": "read"})

			// DELETE: 205, then 204.
			ts.must(t, http.StatusNoContent, "POST", base, admin, map[string]any{"role": "read", kind + "s": []string{id}})
			ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
			if _, ok := ts.grantsOf(t, sp, kind)[id]; ok {
				t.Errorf("%s grant left after DELETE", kind)
			}
			ts.must(t, http.StatusNoContent, "DELETE", path, admin, nil)
			ts.must(t, http.StatusNoContent, "DELETE", base+"/"+kind+"s/nosuchid", admin, nil)
		}
		ts.mustError(t, 404, "GET", "/v1/spaces/nosuchspace/permissions/users", admin, nil)
		ts.mustError(t, 404, "GET", "/v1/spaces/nosuchspace/permissions/teams", admin, nil)
	})
}

// spacePerms reads a space's permission flags as a caller.
func (ts *testServer) spacePerms(t *testing.T, space, token string) map[string]any {
	t.Helper()
	sp := ts.must(t, 200, "GET", "/v1/spaces/"+space, token, nil)
	perms, _ := sp["permissions"].(map[string]any)
	return perms
}

// wantSpaceLevel checks that a caller's flags on a space are those of a
// role.
func (ts *testServer) wantSpaceLevel(t *testing.T, what, space, token, role string) {
	t.Helper()
	if got, want := ts.spacePerms(t, space, token), spaceFlagsFor(role); !jsonEqual(got, want) {
		t.Errorf("%s: flags %v, want those of %s %v", what, got, role, want)
	}
}

func TestEffectiveRoleDefaultChain(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		reader := ts.token(cRead)
		outer := ts.newCollection(t, "Outer", "")
		inner := ts.newCollection(t, "Inner", outer)
		sp := ts.newSpaceIn(t, "Deep", inner)
		patch := func(path string, body map[string]any) {
			t.Helper()
			ts.must(t, 200, "PATCH", path, admin, body)
		}
		SpacePath, innerPath, outerPath := "/v1/spaces/"+sp, "/v1/collections/"+inner, "/v1/collections/"+outer

		ts.wantSpaceLevel(t, "everything inherits the org default read", sp, reader, "read")
		patch(ts.OrgPath(""), map[string]any{"defaultRole": "comment"})
		ts.wantSpaceLevel(t, "inherit up to the org default comment", sp, reader, "comment")
		patch(outerPath, map[string]any{"defaultLevel": "edit"})
		ts.wantSpaceLevel(t, "inherit up to the outer collection", sp, reader, "edit")
		patch(innerPath, map[string]any{"defaultLevel": "review"})
		ts.wantSpaceLevel(t, "the nearest concrete level wins", sp, reader, "review")
		patch(SpacePath, map[string]any{"defaultLevel": "create"})
		ts.wantSpaceLevel(t, "the space's own level", sp, reader, "create")
		patch(SpacePath, map[string]any{"defaultLevel": nil})
		ts.wantSpaceLevel(t, "null grants nothing beyond the org role", sp, reader, "read")
		ts.wantSpaceLevel(t, "null does not lower a higher role", sp, ts.token(cEdit), "edit")
		patch(SpacePath, map[string]any{"defaultLevel": "inherit"})
		patch(innerPath, map[string]any{"defaultLevel": nil})
		ts.wantSpaceLevel(t, "null on a collection stops the walk", sp, reader, "read")
		patch(innerPath, map[string]any{"defaultLevel": "inherit"})
		ts.wantSpaceLevel(t, "inherit through both collections", sp, reader, "edit")
		patch(outerPath, map[string]any{"defaultLevel": "inherit"})
		patch(ts.OrgPath(""), map[string]any{"defaultRole": nil})
		ts.wantSpaceLevel(t, "a null org default gives nothing beyond the role", sp, reader, "read")
		patch(ts.OrgPath(""), map[string]any{"defaultRole": "review"})
		ts.wantSpaceLevel(t, "org default review", sp, reader, "review")
		ts.wantSpaceLevel(t, "defaults never lower the admin", sp, admin, "admin")

		// Guests get nothing from defaults.
		patch(SpacePath, map[string]any{"defaultLevel": "edit"})
		ts.mustError(t, 404, "GET", SpacePath, ts.token(cGuest), nil)

		// Collections resolve their own chain.
		patch(outerPath, map[string]any{"defaultLevel": "create"})
		c := ts.must(t, 200, "GET", innerPath, reader, nil)
		wantFields(t, c, map[string]any{"permissions": map[string]any{"view": true, "admin": false, "viewInviteLinks": false, "create": true}})
		patch(innerPath, map[string]any{"defaultLevel": nil})
		c = ts.must(t, 200, "GET", innerPath, reader, nil)
		wantFields(t, c, map[string]any{"permissions.create": false})
		ts.mustError(t, 404, "GET", innerPath, ts.token(cGuest), nil)

		// A level from the chain opens the matching operations: with admin by
		// default, a reader may rename the space.
		patch(SpacePath, map[string]any{"defaultLevel": "admin"})
		ts.must(t, 200, "PATCH", SpacePath, reader, map[string]any{"title": "Renamed by a reader"})
		patch(SpacePath, map[string]any{"defaultLevel": "inherit"})
		ts.mustError(t, 403, "PATCH", SpacePath, reader, map[string]any{"title": "Again"})
	})
}

func TestEffectiveRoleGrants(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		reader := ts.user(cRead)
		sp := ts.newSpace(t, "Team space")
		other := ts.newSpace(t, "Other")
		team := ts.newTeam(t, "Editors", reader.ID)

		ts.wantSpaceLevel(t, "before the grant", sp, reader.Token, "read")
		ts.grantTeam(t, sp, team, "edit")
		ts.wantSpaceLevel(t, "through the team", sp, reader.Token, "edit")
		ts.wantSpaceLevel(t, "other space unchanged", other, reader.Token, "read")
		ts.wantSpaceLevel(t, "non-members of the team unchanged", sp, ts.token(cComment), "comment")
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/teams/"+team), admin, nil), map[string]any{"spaces": 1})

		// A direct grant adds to the team's; the highest counts.
		ts.grantUser(t, sp, reader.ID, "review")
		ts.wantSpaceLevel(t, "team edit beats direct review", sp, reader.Token, "edit")
		ts.grantUser(t, sp, reader.ID, "admin")
		ts.wantSpaceLevel(t, "direct admin", sp, reader.Token, "admin")
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+sp+"/permissions/users/"+reader.ID, admin, nil)
		ts.wantSpaceLevel(t, "back to the team's", sp, reader.Token, "edit")

		// A grant never lowers the org role.
		ts.grantUser(t, sp, ts.user(cCreate).ID, "read")
		ts.wantSpaceLevel(t, "create member granted read", sp, ts.token(cCreate), "create")

		// Dropping the team grant, or the team, takes the level away.
		ts.must(t, http.StatusNoContent, "PATCH", "/v1/spaces/"+sp+"/permissions/teams/"+team, admin, map[string]any{"role": "comment"})
		ts.wantSpaceLevel(t, "team role lowered", sp, reader.Token, "comment")
		ts.must(t, http.StatusResetContent, "DELETE", ts.OrgPath("/teams/"+team), admin, nil)
		ts.wantSpaceLevel(t, "team deleted", sp, reader.Token, "read")

		// A guest in a team sees the team's spaces.
		guest := ts.user(cGuest)
		guests := ts.newTeam(t, "Guests", guest.ID)
		ts.mustError(t, 404, "GET", "/v1/spaces/"+sp, guest.Token, nil)
		ts.grantTeam(t, sp, guests, "comment")
		ts.wantSpaceLevel(t, "guest through a team", sp, guest.Token, "comment")
		ts.mustError(t, 404, "GET", "/v1/spaces/"+other, guest.Token, nil)
	})
}

func TestGuestVisibility(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		guest := ts.user(cGuest)
		coll := ts.newCollection(t, "Guides", "")
		shared := ts.newSpaceIn(t, "Shared", coll)
		private := ts.newSpaceIn(t, "Private", coll)
		rootSpace := ts.newSpace(t, "Root")

		for _, id := range []string{shared, private, rootSpace} {
			ts.mustError(t, 404, "GET", "/v1/spaces/"+id, guest.Token, nil)
		}
		ts.grantUser(t, shared, guest.ID, "read")
		ts.wantSpaceLevel(t, "granted space", shared, guest.Token, "read")
		for _, id := range []string{private, rootSpace} {
			ts.mustError(t, 404, "GET", "/v1/spaces/"+id, guest.Token, nil)
			ts.mustError(t, 404, "GET", "/v1/spaces/"+id+"/permissions/users", guest.Token, nil)
		}
		// Even a default level does not reach guests.
		ts.must(t, 200, "PATCH", "/v1/spaces/"+private, admin, map[string]any{"defaultLevel": "admin"})
		ts.mustError(t, 404, "GET", "/v1/spaces/"+private, guest.Token, nil)

		// What a guest may do on the granted space.
		l := ts.must(t, 200, "GET", "/v1/spaces/"+shared+"/permissions/users", guest.Token, nil)
		if got := ids(t, l, "user.id"); !slices.Equal(got, []string{guest.ID}) {
			t.Errorf("grants seen by the guest: %v", got)
		}
		ts.mustError(t, 403, "PATCH", "/v1/spaces/"+shared, guest.Token, map[string]any{"title": "Mine"})
		ts.mustError(t, 403, "POST", "/v1/spaces/"+shared+"/duplicate", guest.Token, nil)
		ts.mustError(t, 404, "GET", "/v1/collections/"+coll, guest.Token, nil)
		ts.mustError(t, 403, "GET", ts.OrgPath("/spaces"), guest.Token, nil)
		ts.mustError(t, 403, "GET", ts.OrgPath("/collections"), guest.Token, nil)
		ts.mustError(t, 403, "POST", ts.OrgPath("/spaces"), guest.Token, nil)

		// An admin grant makes the guest an admin of that space only.
		ts.must(t, http.StatusNoContent, "PATCH", "/v1/spaces/"+shared+"/permissions/users/"+guest.ID, admin, map[string]any{"role": "admin"})
		ts.wantSpaceLevel(t, "guest granted admin", shared, guest.Token, "admin")
		ts.must(t, 200, "PATCH", "/v1/spaces/"+shared, guest.Token, map[string]any{"title": "Renamed by a guest"})
		// Team flags follow the organization role, not the space grant.
		ts.grantTeam(t, shared, ts.newTeam(t, "Writers"), "read")
		l = ts.must(t, 200, "GET", "/v1/spaces/"+shared+"/permissions/teams", guest.Token, nil)
		wantFields(t, l, map[string]any{"count": 1, "items.0.team.permissions": map[string]any{"admin": false, "view": false}})
		ts.mustError(t, 404, "GET", "/v1/spaces/"+rootSpace, guest.Token, nil)

		// Removing the grant hides the space again.
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+shared+"/permissions/users/"+guest.ID, admin, nil)
		ts.mustError(t, 404, "GET", "/v1/spaces/"+shared, guest.Token, nil)
	})
}
