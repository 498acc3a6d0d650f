package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"quire/internal/quire"
)

// addDisabledMember makes a new user a disabled member of the test
// organization with role; memberships are disabled outside the API.
func (ts *testServer) addDisabledMember(t *testing.T, email, name string, role quire.Role) *testUser {
	t.Helper()
	u := ts.addUser(t, email, name, "", "")
	usr, err := ts.Store.User(context.Background(), u.ID)
	if err != nil {
		t.Fatalf("read user %s: %v", email, err)
	}
	m := &quire.Member{OrgID: ts.Org, User: *usr, Role: role, Disabled: true, JoinedAt: time.Now()}
	if err := ts.Store.AddMember(context.Background(), m); err != nil {
		t.Fatalf("add disabled member %s: %v", email, err)
	}
	u.Role = role
	return u
}

// TestDisabledMemberHasNoAccess checks that a disabled member, even an
// admin holding a direct grant, sees nothing of the organization: not the
// organization itself, not its spaces or collections, not even in their
// own list of organizations; and that the membership still shows in the
// member list, marked disabled.
func TestDisabledMemberHasNoAccess(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		col := ts.newCollection(t, "Handbook", "")
		sp := ts.newSpace(t, "Docs")
		inCol := ts.newSpaceIn(t, "Policies", col)
		dee := ts.addDisabledMember(t, "dee@acme.test", "Dee Disabled", quire.RoleAdmin)
		for _, g := range []quire.Grant{
			{TargetKind: "space", TargetID: sp, PrincipalKind: "user", PrincipalID: dee.ID, Role: quire.RoleAdmin},
			{TargetKind: "collection", TargetID: col, PrincipalKind: "user", PrincipalID: dee.ID, Role: quire.RoleAdmin},
		} {
			if err := ts.Store.SetGrant(context.Background(), g); err != nil {
				t.Fatal(err)
			}
		}

		for _, path := range []string{
			ts.OrgPath(""), ts.OrgPath("/spaces"), ts.OrgPath("/collections"), ts.OrgPath("/members"),
			"/v1/spaces/" + sp, "/v1/spaces/" + sp + "/content", "/v1/spaces/" + inCol,
			"/v1/collections/" + col, "/v1/collections/" + col + "/spaces",
		} {
			ts.mustError(t, 404, "GET", path, dee.Token, nil)
		}
		ts.mustError(t, 404, "PATCH", "/v1/spaces/"+sp, dee.Token, map[string]any{"title": "Mine now"})
		ts.mustError(t, 404, "POST", ts.OrgPath("/spaces"), dee.Token, map[string]any{"title": "New"})
		wantFields(t, ts.must(t, 200, "GET", "/v1/orgs", dee.Token, nil), map[string]any{"count": 0, "items": []any{}})

		// The membership itself is still there for the admins to see.
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+dee.ID), admin, nil),
			map[string]any{"disabled": true, "role": "admin"})
		// The same grants give an enabled member access.
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp, admin, nil), map[string]any{"id": sp})
	})
}

// TestDisabledAdminIsNotAnAdmin checks that the last-admin guard does not
// count a disabled admin: the only enabled admin cannot step down or
// leave, while the disabled one may be demoted or removed.
func TestDisabledAdminIsNotAnAdmin(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		dee := ts.addDisabledMember(t, "dee@acme.test", "Dee Disabled", quire.RoleAdmin)
		adminPath := ts.OrgPath("/members/" + ts.user(cAdmin).ID)
		wantContains(t, ts.mustError(t, 400, "PATCH", adminPath, admin, map[string]any{"role": "edit"}), "admin")
		ts.mustError(t, 400, "DELETE", adminPath, admin, nil)
		wantFields(t, ts.must(t, 200, "GET", adminPath, admin, nil), map[string]any{"role": "admin"})

		deePath := ts.OrgPath("/members/" + dee.ID)
		wantFields(t, ts.must(t, 200, "PATCH", deePath, admin, map[string]any{"role": "read"}), map[string]any{"role": "read"})
		ts.must(t, http.StatusResetContent, "DELETE", deePath, admin, nil)
	})
}
