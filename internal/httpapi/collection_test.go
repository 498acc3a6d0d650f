package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/internal/service"
)

func TestCollectionCreate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		c := ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": " Guides "})
		id := str(c, "id")
		wantFields(t, c, map[string]any{
			"object":        "collection",
			"title":         "Guides",
			"organization":  ts.Org,
			"defaultLevel":  "inherit",
			"urls.location": testBaseURL + "/v1/collections/" + id,
			"urls.app":      testBaseURL + "/app/c/" + id,
			"permissions":   map[string]any{"view": true, "admin": true, "viewInviteLinks": true, "create": true},
		})
		wantAbsent(t, c, "parent")
		wantAbsent(t, c, "description")
		wantFields(t, ts.must(t, 200, "GET", "/v1/collections/"+id, admin, nil), map[string]any{"id": id, "title": "Guides"})

		// Flags per caller.
		for caller, want := range map[string]map[string]any{
			cAdmin:  {"view": true, "admin": true, "viewInviteLinks": true, "create": true},
			cCreate: {"view": true, "admin": false, "viewInviteLinks": false, "create": true},
			cEdit:   {"view": true, "admin": false, "viewInviteLinks": false, "create": false},
			cRead:   {"view": true, "admin": false, "viewInviteLinks": false, "create": false},
		} {
			got := ts.must(t, 200, "GET", "/v1/collections/"+id, ts.token(caller), nil)
			wantFields(t, got, map[string]any{"permissions": want})
		}
		ts.mustError(t, 404, "GET", "/v1/collections/"+id, ts.token(cGuest), nil)
		ts.mustError(t, 404, "GET", "/v1/collections/nosuchcollection", admin, nil)

		// A creator sees their level on what they made.
		c = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), ts.token(cCreate), map[string]any{"title": "Mine"})
		wantFields(t, c, map[string]any{"permissions.create": true, "permissions.admin": false})

		// No body at all, or a blank title: Untitled.
		c = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, nil)
		wantFields(t, c, map[string]any{"title": "Untitled"})
		c = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": "  "})
		wantFields(t, c, map[string]any{"title": "Untitled"})

		// In a parent.
		child := ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": "Child", "parent": id})
		wantFields(t, child, map[string]any{"parent": id})

		// Limits.
		c = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": strings.Repeat("c", 50)})
		wantFields(t, c, map[string]any{"title": strings.Repeat("c", 50)})
		c = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": strings.Repeat("é", 50)})
		wantFields(t, c, map[string]any{"title": strings.Repeat("é", 50)})
		before := len(items(t, ts.must(t, 200, "GET", ts.OrgPath("/collections"), admin, nil)))
		wantContains(t, ts.mustError(t, 400, "POST", ts.OrgPath("/collections"), admin, map[string]any{"title": strings.Repeat("c", 51)}), "title")
		wantContains(t, ts.mustError(t, 400, "POST", ts.OrgPath("/collections"), admin, map[string]any{"parent": "nosuchcollection"}), "parent")
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")
		foreign := str(ts.must(t, 201, "POST", "/v1/orgs/"+org2+"/collections", owner.Token, map[string]any{"title": "Foreign"}), "id")
		wantContains(t, ts.mustError(t, 400, "POST", ts.OrgPath("/collections"), admin, map[string]any{"parent": foreign}), "parent")
		if after := len(items(t, ts.must(t, 200, "GET", ts.OrgPath("/collections"), admin, nil))); after != before {
			t.Errorf("rejected creates changed the list: %d → %d collections", before, after)
		}
	})
}

func TestCollectionUpdate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		id := ts.newCollection(t, "Guides", "")
		path := "/v1/collections/" + id

		c := ts.must(t, 200, "PATCH", path, admin, map[string]any{"title": " Handbooks ", "description": "All the handbooks", "defaultLevel": "edit"})
		want := map[string]any{"title": "Handbooks", "description": "All the handbooks", "defaultLevel": "edit"}
		wantFields(t, c, want)
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), want)

		for _, lvl := range []any{"admin", "create", "edit", "review", "comment", "read", "inherit", nil} {
			c := ts.must(t, 200, "PATCH", path, admin, map[string]any{"defaultLevel": lvl})
			wantFields(t, c, map[string]any{"defaultLevel": lvl, "title": "Handbooks"})
		}
		c = ts.must(t, 200, "PATCH", path, admin, map[string]any{"description": strings.Repeat("d", 100)})
		wantFields(t, c, map[string]any{"description": strings.Repeat("d", 100), "defaultLevel": nil})
		c = ts.must(t, 200, "PATCH", path, admin, map[string]any{"title": strings.Repeat("t", 50)})
		wantFields(t, c, map[string]any{"title": strings.Repeat("t", 50)})

		before := ts.must(t, 200, "GET", path, admin, nil)
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"title": ""}, "title"},
			{map[string]any{"title": "   "}, "title"},
			{map[string]any{"title": strings.Repeat("t", 51)}, "title"},
			{map[string]any{"description": strings.Repeat("d", 101)}, "description"},
			{map[string]any{"defaultLevel": "owner"}, "defaultLevel"},
			{map[string]any{"defaultLevel": "guest"}, "defaultLevel"},
		} {
			wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, tc.body), tc.field)
		}
		if after := ts.must(t, 200, "GET", path, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected PATCHes changed the collection: %v → %v", before, after)
		}
	})
}

func TestCollectionListAndDelete(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		a := ts.newCollection(t, "A", "")
		b := ts.newCollection(t, "B", "")
		a1 := ts.newCollection(t, "A1", a)
		a1x := ts.newCollection(t, "A1x", a1)

		l := ts.must(t, 200, "GET", ts.OrgPath("/collections"), ts.token(cRead), nil)
		got := ids(t, l, "id")
		slices.Sort(got)
		want := []string{a, b, a1, a1x}
		slices.Sort(want)
		if !slices.Equal(got, want) || has(l, "count") {
			t.Errorf("nested collections %v (count %v), want %v", got, l["count"], want)
		}
		if got := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/collections?nested=true"), admin, nil), "id"); len(got) != 4 {
			t.Errorf("nested=true: %v", got)
		}
		l = ts.must(t, 200, "GET", ts.OrgPath("/collections?nested=false"), admin, nil)
		if got := ids(t, l, "id"); !slices.Equal(got, []string{a, b}) || has(l, "count") {
			t.Errorf("nested=false: %v (count %v), want [%s %s]", got, l["count"], a, b)
		}

		// Spaces in a collection.
		s1 := ts.newSpaceIn(t, "S1", a)
		s2 := ts.newSpaceIn(t, "S2", a)
		deep := ts.newSpaceIn(t, "Deep", a1)
		ts.newSpace(t, "Root")
		l = ts.must(t, 200, "GET", "/v1/collections/"+a+"/spaces", ts.token(cRead), nil)
		if got := ids(t, l, "id"); !slices.Equal(got, []string{s1, s2}) || has(l, "count") {
			t.Errorf("spaces in A: %v, want [%s %s]", got, s1, s2)
		}
		for _, it := range items(t, l) {
			wantFields(t, it, map[string]any{"parent": a, "permissions.view": true, "permissions.admin": false})
		}
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+s2, admin, nil)
		if got := ids(t, ts.must(t, 200, "GET", "/v1/collections/"+a+"/spaces", admin, nil), "id"); !slices.Equal(got, []string{s1}) {
			t.Errorf("spaces in A after deleting S2: %v", got)
		}
		ts.mustError(t, 404, "GET", "/v1/collections/nosuchcollection/spaces", admin, nil)

		// Deleting a collection takes its sub-collections and soft-deletes
		// the spaces inside.
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/collections/"+a, admin, nil)
		for _, id := range []string{a, a1, a1x} {
			ts.mustError(t, 404, "GET", "/v1/collections/"+id, admin, nil)
		}
		for _, id := range []string{s1, deep} {
			sp := ts.must(t, 200, "GET", "/v1/spaces/"+id, admin, nil)
			wantTimestamp(t, sp, "deletedAt")
		}
		ts.must(t, http.StatusNoContent, "DELETE", "/v1/collections/"+a, admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", "/v1/collections/nosuchcollection", admin, nil)

		// A space restored after its collection went comes back somewhere
		// that exists.
		restored := ts.must(t, 200, "POST", "/v1/spaces/"+s1+"/restore", admin, nil)
		if parent := str(restored, "parent"); parent != "" {
			t.Errorf("restored space points at deleted collection %s", parent)
			ts.must(t, 200, "GET", "/v1/collections/"+parent, admin, nil)
		}
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+s1, admin, nil)
		l = ts.must(t, 200, "GET", ts.OrgPath("/collections"), admin, nil)
		if got := ids(t, l, "id"); !slices.Equal(got, []string{b}) {
			t.Errorf("collections after delete: %v", got)
		}
		if got := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil), "title"); !slices.Equal(got, []string{"Root"}) {
			t.Errorf("live spaces after delete: %v", got)
		}
	})
}

func TestCollectionMove(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		a := ts.newCollection(t, "A", "")
		b := ts.newCollection(t, "B", "")
		c := ts.newCollection(t, "C", "")
		move := func(id string, body any) map[string]any {
			t.Helper()
			return ts.must(t, 200, "POST", "/v1/collections/"+id+"/move", admin, body)
		}
		roots := func() []string {
			t.Helper()
			return ids(t, ts.must(t, 200, "GET", ts.OrgPath("/collections?nested=false"), admin, nil), "id")
		}
		anchor := func(id string) map[string]any { return map[string]any{"type": "collection", "collection": id} }

		if got := roots(); !slices.Equal(got, []string{a, b, c}) {
			t.Fatalf("initial order %v", got)
		}
		move(c, map[string]any{"position": map[string]any{"before": anchor(a)}})
		if got := roots(); !slices.Equal(got, []string{c, a, b}) {
			t.Errorf("after moving C before A: %v", got)
		}
		move(a, map[string]any{"position": map[string]any{"after": anchor(b)}})
		if got := roots(); !slices.Equal(got, []string{c, b, a}) {
			t.Errorf("after moving A after B: %v", got)
		}
		move(c, map[string]any{"position": map[string]any{"after": anchor(b), "before": anchor(a)}})
		if got := roots(); !slices.Equal(got, []string{b, c, a}) {
			t.Errorf("after moving C between B and A: %v", got)
		}

		// Into a collection and back to the root.
		m := move(c, map[string]any{"parent": a})
		wantFields(t, m, map[string]any{"id": c, "parent": a, "object": "collection"})
		wantFields(t, ts.must(t, 200, "GET", "/v1/collections/"+c, admin, nil), map[string]any{"parent": a})
		if got := roots(); !slices.Equal(got, []string{b, a}) {
			t.Errorf("roots after moving C into A: %v", got)
		}
		m = move(c, map[string]any{"parent": nil})
		wantAbsent(t, m, "parent")
		if got := roots(); !slices.Equal(got, []string{b, a, c}) {
			t.Errorf("roots after moving C back: %v (appended last)", got)
		}
		// Mixed siblings: a collection goes next to a space.
		sp := ts.newSpace(t, "Space")
		spaceAnchor := map[string]any{"type": "space", "space": sp}
		move(c, map[string]any{"position": map[string]any{"after": spaceAnchor}})
		move(c, map[string]any{"position": map[string]any{"before": spaceAnchor}})
		move(c, map[string]any{"position": map[string]any{"after": spaceAnchor}})

		before := ts.must(t, 200, "GET", "/v1/collections/"+c, admin, nil)
		for _, tc := range []struct {
			name   string
			status int
			body   any
			field  string
		}{
			{"empty body", 400, map[string]any{}, "parent"},
			{"empty position", 400, map[string]any{"position": map[string]any{}}, "position"},
			{"anchor not a sibling", 400, map[string]any{"position": map[string]any{"before": anchor("nosuchcollection")}}, "position.before"},
			{"anchor of the wrong kind", 400, map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": a}}}, "position.after"},
			{"anchor without its id", 400, map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "space": a}}}, "position.after"},
			{"anchor with both ids", 400, map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": a, "space": sp}}}, "position.after"},
			{"anchor type unknown", 400, map[string]any{"position": map[string]any{"after": map[string]any{"type": "page", "collection": a}}}, "type"},
			{"anchors not adjacent", 400, map[string]any{"position": map[string]any{"after": anchor(b), "before": spaceAnchor}}, "position"},
			{"unknown parent", 400, map[string]any{"parent": "nosuchcollection"}, "parent"},
			{"into itself", 400, map[string]any{"parent": c}, "parent"},
			{"no change: already at the root", 409, map[string]any{"parent": nil}, ""},
			{"no change: same place", 409, map[string]any{"position": map[string]any{"after": spaceAnchor}}, ""},
		} {
			r := ts.send(t, "POST", "/v1/collections/"+c+"/move", admin, tc.body)
			if r.Status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
				continue
			}
			wantContains(t, checkErrorBody(t, r), tc.field)
		}
		if after := ts.must(t, 200, "GET", "/v1/collections/"+c, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected moves changed the collection")
		}
		ts.mustError(t, 404, "POST", "/v1/collections/nosuchcollection/move", admin, map[string]any{"parent": nil})

		// A collection cannot go under its own descendant.
		inner := ts.newCollection(t, "Inner", a)
		deeper := ts.newCollection(t, "Deeper", inner)
		wantContains(t, ts.mustError(t, 400, "POST", "/v1/collections/"+a+"/move", admin, map[string]any{"parent": deeper}), "parent")
		// Moving a sub-collection among the siblings of its new parent.
		m = move(deeper, map[string]any{"parent": a, "position": map[string]any{"before": anchor(inner)}})
		wantFields(t, m, map[string]any{"parent": a})
		l := ts.must(t, 200, "GET", ts.OrgPath("/collections"), admin, nil)
		var order []string
		for _, it := range items(t, l) {
			if str(it, "parent") == a {
				order = append(order, str(it, "id"))
			}
		}
		if !slices.Equal(order, []string{deeper, inner}) {
			t.Errorf("children of A: %v, want [%s %s]", order, deeper, inner)
		}
	})
}

func TestCollectionTransfer(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")

		// An organization where the admin is only a reader.
		res, err := ts.Svc.Bootstrap(context.Background(), service.BootstrapInput{OrgTitle: "Third Org", Email: "owner@third.test", Name: "Third"})
		if err != nil {
			t.Fatal(err)
		}
		org3 := res.Organization
		ts.must(t, 200, "PATCH", "/v1/orgs/"+org3, res.Token, map[string]any{"emailDomains": []string{"acme.test"}})
		ts.must(t, 204, "POST", "/v1/orgs/"+org3+"/join", admin, nil)
		// An organization the admin is not in.
		res4, err := ts.Svc.Bootstrap(context.Background(), service.BootstrapInput{OrgTitle: "Fourth Org", Email: "owner@fourth.test", Name: "Fourth"})
		if err != nil {
			t.Fatal(err)
		}

		top := ts.newCollection(t, "Top", "")
		sub := ts.newCollection(t, "Sub", top)
		inTop := ts.newSpaceIn(t, "In top", top)
		inSub := ts.newSpaceIn(t, "In sub", sub)
		path := "/v1/collections/" + top + "/transfer"
		team := ts.newTeam(t, "Writers", ts.user(cRead).ID)
		ts.grantTeam(t, inTop, team, "edit")

		before := ts.must(t, 200, "GET", "/v1/collections/"+top, admin, nil)
		for _, tc := range []struct {
			name   string
			status int
			org    string
		}{
			{"unknown organization", 404, "nosuchorg"},
			{"organization the caller is not in", 404, res4.Organization},
			{"same organization", 409, ts.Org},
			{"caller not admin of the target", 412, org3},
		} {
			r := ts.send(t, "POST", path, admin, map[string]any{"organization": tc.org})
			if r.Status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
				continue
			}
			checkErrorBody(t, r)
		}
		wantContains(t, ts.mustError(t, 400, "POST", path, admin, map[string]any{"organization": ""}), "organization")
		if after := ts.must(t, 200, "GET", "/v1/collections/"+top, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected transfers changed the collection")
		}
		ts.mustError(t, 404, "POST", "/v1/collections/nosuchcollection/transfer", admin, map[string]any{"organization": org2})

		// A sub-collection lands at the root of the target.
		c := ts.must(t, 200, "POST", "/v1/collections/"+sub+"/transfer", admin, map[string]any{"organization": org2})
		wantFields(t, c, map[string]any{"id": sub, "organization": org2, "permissions.admin": true})
		wantAbsent(t, c, "parent")
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+inSub, admin, nil), map[string]any{"organization": org2, "parent": sub})
		ts.mustError(t, 404, "GET", "/v1/collections/"+sub, ts.token(cRead), nil)

		// Everything inside moves along.
		c = ts.must(t, 200, "POST", path, admin, map[string]any{"organization": org2})
		wantFields(t, c, map[string]any{"id": top, "organization": org2})
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+inTop, owner.Token, nil), map[string]any{"organization": org2, "parent": top})
		if got := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/collections"), admin, nil), "id"); len(got) != 0 {
			t.Errorf("collections left in the source: %v", got)
		}
		if got := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil), "id"); len(got) != 0 {
			t.Errorf("spaces left in the source: %v", got)
		}
		got := ids(t, ts.must(t, 200, "GET", "/v1/orgs/"+org2+"/collections?nested=false", owner.Token, nil), "id")
		if !slices.Equal(got, []string{sub, top}) {
			t.Errorf("roots of the target: %v, want [%s %s]", got, sub, top)
		}
		// Grants to the old organization's teams do not follow, as for a
		// space transfer, and the grant lists still answer.
		l := ts.must(t, 200, "GET", "/v1/spaces/"+inTop+"/permissions/teams", owner.Token, nil)
		wantFields(t, l, map[string]any{"count": 0, "items": []any{}})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/teams/"+team), admin, nil), map[string]any{"spaces": 0})
		// Transferring back to where it now is: 409.
		ts.mustError(t, 409, "POST", path, admin, map[string]any{"organization": org2})
	})
}
