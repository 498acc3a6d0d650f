package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// spaceFlagsFor lists the flags a level sets.
func spaceFlagsFor(role string) map[string]any {
	lvl := quire.Role(role).Level()
	return map[string]any{
		"view": lvl >= quire.LevelRead, "access": lvl >= quire.LevelRead,
		"admin": lvl >= quire.LevelAdmin, "viewInviteLinks": lvl >= quire.LevelAdmin,
		"edit": lvl >= quire.LevelEdit, "triggerGitSync": lvl >= quire.LevelEdit,
		"comment": lvl >= quire.LevelComment, "merge": lvl >= quire.LevelEdit,
		"review": lvl >= quire.LevelReview, "installIntegration": lvl >= quire.LevelAdmin,
	}
}

func TestSpaceCreate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.createSpace(t, map[string]any{"title": " Handbook ", "emoji": "📘", "language": "fr", "editMode": "locked"})
		id := str(sp, "id")
		wantFields(t, sp, map[string]any{
			"object":              "space",
			"title":               "Handbook",
			"emoji":               "📘",
			"visibility":          "private",
			"editMode":            "locked",
			"mergeRules":          map[string]any{"type": "inherit"},
			"urls.location":       testBaseURL + "/v1/spaces/" + id,
			"urls.app":            testBaseURL + "/app/s/" + id,
			"organization":        ts.Org,
			"language":            "fr",
			"defaultLevel":        "inherit",
			"comments":            0,
			"changeRequests":      0,
			"changeRequestsOpen":  0,
			"changeRequestsDraft": 0,
			"permissions":         spaceFlagsFor("admin"),
		})
		wantTimestamp(t, sp, "createdAt")
		wantTimestamp(t, sp, "updatedAt")
		for _, k := range []string{"deletedAt", "parent", "urls.published", "urls.public", "urls.icon"} {
			wantAbsent(t, sp, k)
		}
		if str(sp, "revision") == "" {
			t.Errorf("space without a revision: %v", sp)
		}
		got := ts.must(t, 200, "GET", "/v1/spaces/"+id, admin, nil)
		if !jsonEqual(got, sp) {
			t.Errorf("GET differs from the create response:\n%v\n%v", got, sp)
		}

		// Flags per caller.
		for _, c := range roleCallers {
			got := ts.must(t, 200, "GET", "/v1/spaces/"+id, ts.token(c), nil)
			wantFields(t, got, map[string]any{"permissions": spaceFlagsFor(c)})
		}

		// Defaults: no body, no content type.
		sp = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/spaces"), admin, nil)
		wantFields(t, sp, map[string]any{"title": "Untitled", "emoji": "", "editMode": "live", "visibility": "private"})
		wantAbsent(t, sp, "language")
		sp = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/spaces"), ts.token(cCreate), map[string]any{})
		wantFields(t, sp, map[string]any{"title": "Untitled", "permissions": spaceFlagsFor("create")})

		// In a collection.
		coll := ts.newCollection(t, "Guides", "")
		sp = ts.createSpace(t, map[string]any{"title": "Inside", "parent": coll})
		wantFields(t, sp, map[string]any{"parent": coll})

		// With a visibility, which like a PATCH of it takes the admin
		// role on the new space.
		sp = ts.createSpace(t, map[string]any{"title": "Public", "visibility": "public"})
		wantFields(t, sp, map[string]any{"visibility": "public", "urls.published": testBaseURL + "/docs/" + str(sp, "id")})
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+str(sp, "id"), admin, nil), map[string]any{"visibility": "public"})
		sp = ts.createSpace(t, map[string]any{"title": "Shared", "visibility": "in-collection", "parent": coll})
		wantFields(t, sp, map[string]any{"visibility": "in-collection", "parent": coll})
		sp = ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/spaces"), ts.token(cCreate), map[string]any{"visibility": "private"})
		wantFields(t, sp, map[string]any{"visibility": "private"})
		before := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil)["count"]
		wantContains(t, ts.mustError(t, http.StatusForbidden, "POST", ts.OrgPath("/spaces"), ts.token(cCreate), map[string]any{"visibility": "unlisted"}), "visibility")
		if after := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil)["count"]; after != before {
			t.Errorf("refused create changed the count %v → %v", before, after)
		}

		// Limits.
		for _, tc := range []struct {
			body  map[string]any
			ok    bool
			field string
		}{
			{map[string]any{"title": strings.Repeat("s", 50)}, true, ""},
			{map[string]any{"title": strings.Repeat("ü", 50)}, true, ""},
			{map[string]any{"title": strings.Repeat("s", 51)}, false, "title"},
			{map[string]any{"emoji": strings.Repeat("e", 50)}, true, ""},
			{map[string]any{"emoji": strings.Repeat("e", 51)}, false, "emoji"},
			{map[string]any{"language": "pt-br"}, true, ""},
			{map[string]any{"language": "xx"}, false, "language"},
			{map[string]any{"language": "EN"}, false, "language"},
			{map[string]any{"editMode": "live"}, true, ""},
			{map[string]any{"editMode": "frozen"}, false, "editMode"},
			{map[string]any{"parent": "nosuchcollection"}, false, "parent"},
			{map[string]any{"visibility": "unlisted"}, true, ""},
			{map[string]any{"visibility": "secret"}, false, "visibility"},
			{map[string]any{"visibility": "Public"}, false, "visibility"},
			{map[string]any{"visibility": 1}, false, "visibility"},
			{map[string]any{"visibility": "in-collection"}, false, "visibility"},
		} {
			before := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil)["count"]
			r := ts.send(t, "POST", ts.OrgPath("/spaces"), admin, tc.body)
			switch {
			case tc.ok && r.Status != http.StatusCreated:
				t.Errorf("%v: status %d, want 201: %s", tc.body, r.Status, r.Body)
			case !tc.ok && r.Status != http.StatusBadRequest:
				t.Errorf("%v: status %d, want 400: %s", tc.body, r.Status, r.Body)
			case !tc.ok:
				wantContains(t, checkErrorBody(t, r), tc.field)
				if after := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil)["count"]; after != before {
					t.Errorf("%v: rejected create changed the count %v → %v", tc.body, before, after)
				}
			}
		}
	})
}

func TestSpaceUpdate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		created := ts.createSpace(t, map[string]any{"title": "Handbook", "emoji": "📘"})
		id := str(created, "id")
		path := "/v1/spaces/" + id

		sp := ts.must(t, 200, "PATCH", path, admin, map[string]any{
			"title": " Manual ", "editMode": "locked", "defaultLevel": "comment", "language": "de",
		})
		want := map[string]any{"title": "Manual", "editMode": "locked", "defaultLevel": "comment", "language": "de",
			"emoji": "📘", "createdAt": created["createdAt"], "revision": created["revision"]}
		wantFields(t, sp, want)
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), want)
		if str(sp, "updatedAt") < str(created, "updatedAt") {
			t.Errorf("updatedAt %s before %s", str(sp, "updatedAt"), str(created, "updatedAt"))
		}

		for _, lvl := range []any{"admin", "create", "edit", "review", "comment", "read", "inherit", nil} {
			wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"defaultLevel": lvl}),
				map[string]any{"defaultLevel": lvl, "title": "Manual"})
		}

		// Emoji or icon, and both null to clear.
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"icon": "https://cdn.acme.test/icon.png"})
		wantFields(t, sp, map[string]any{"emoji": "", "urls.icon": "https://cdn.acme.test/icon.png"})
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"emoji": "🚀"})
		wantFields(t, sp, map[string]any{"emoji": "🚀"})
		wantAbsent(t, sp, "urls.icon")
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"emoji": nil, "icon": nil})
		wantFields(t, sp, map[string]any{"emoji": ""})
		wantAbsent(t, sp, "urls.icon")
		wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, map[string]any{"emoji": "🚀", "icon": "https://cdn.acme.test/i.png"}), "icon")

		// Merge rules; inherit is allowed on a space.
		rules := map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "allow_bypass", "users": []string{ts.user(cAdmin).ID}},
			map[string]any{"rule": "require_all_reviews_approved"},
		}}
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"mergeRules": rules}), map[string]any{"mergeRules": rules})
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"mergeRules": map[string]any{"type": "inherit"}}),
			map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"mergeRules": map[string]any{"type": "none"}}),
			map[string]any{"mergeRules": map[string]any{"type": "none"}})

		// Visibility drives the published URLs.
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"visibility": "public"})
		wantFields(t, sp, map[string]any{"visibility": "public", "urls.published": testBaseURL + "/docs/" + id, "urls.public": testBaseURL + "/docs/" + id})
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"visibility": "unlisted"})
		wantFields(t, sp, map[string]any{"urls.published": testBaseURL + "/docs/" + id})
		wantAbsent(t, sp, "urls.public")
		wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, map[string]any{"visibility": "in-collection"}), "visibility")
		inColl := ts.newSpaceIn(t, "Inside", ts.newCollection(t, "Guides", ""))
		wantFields(t, ts.must(t, 200, "PATCH", "/v1/spaces/"+inColl, admin, map[string]any{"visibility": "in-collection"}),
			map[string]any{"visibility": "in-collection"})
		sp = ts.must(t, 200, "PATCH", path, admin, map[string]any{"visibility": "private"})
		wantAbsent(t, sp, "urls.published")

		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"title": strings.Repeat("t", 50), "emoji": strings.Repeat("e", 50)}),
			map[string]any{"title": strings.Repeat("t", 50)})

		before := ts.must(t, 200, "GET", path, admin, nil)
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"title": ""}, "title"},
			{map[string]any{"title": "   "}, "title"},
			{map[string]any{"title": strings.Repeat("t", 51)}, "title"},
			{map[string]any{"emoji": strings.Repeat("e", 51)}, "emoji"},
			{map[string]any{"language": "klingon"}, "language"},
			{map[string]any{"editMode": "frozen"}, "editMode"},
			{map[string]any{"defaultLevel": "owner"}, "defaultLevel"},
			{map[string]any{"visibility": "secret"}, "visibility"},
			{map[string]any{"icon": "::not a url"}, "icon"},
			{map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "allow_bypass"}}}}, "mergeRules.rules[0].users"},
			{map[string]any{"mergeRules": map[string]any{"type": "inherit", "rules": []any{map[string]any{"rule": "custom", "expression": "x"}}}}, "mergeRules.rules"},
			{map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "custom", "expression": strings.Repeat("x", 1025)}}}}, "expression"},
		} {
			wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, tc.body), tc.field)
		}
		if after := ts.must(t, 200, "GET", path, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected PATCHes changed the space:\n%v\n%v", before, after)
		}
		ts.mustError(t, 404, "PATCH", "/v1/spaces/nosuchspace", admin, map[string]any{"title": "X"})
	})
}

func TestSpaceDeleteRestorePurge(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		id := ts.newSpace(t, "Doomed")
		keep := ts.newSpace(t, "Kept")
		path := "/v1/spaces/" + id
		listed := func() []string {
			t.Helper()
			return ids(t, ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil), "id")
		}

		ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
		sp := ts.must(t, 200, "GET", path, admin, nil)
		wantTimestamp(t, sp, "deletedAt")
		if got := listed(); !slices.Equal(got, []string{keep}) {
			t.Errorf("list after delete: %v", got)
		}
		if l := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil); has(l, "count") {
			t.Errorf("the space list is not counted, yet answered count %v", l["count"])
		}
		ts.must(t, http.StatusNoContent, "DELETE", path, admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", "/v1/spaces/nosuchspace", admin, nil)
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"deletedAt": sp["deletedAt"]})

		// A deleted space takes no changes.
		ts.mustError(t, 400, "PATCH", path, admin, map[string]any{"title": "Changed"})
		ts.mustError(t, 400, "POST", path+"/duplicate", admin, nil)
		ts.mustError(t, 400, "POST", path+"/move", admin, map[string]any{"parent": ts.newCollection(t, "C", "")})

		// Restore: no body, no content type.
		ts.Clock.Advance(6 * 24 * time.Hour)
		sp = ts.must(t, 200, "POST", path+"/restore", admin, nil)
		wantFields(t, sp, map[string]any{"id": id, "title": "Doomed"})
		wantAbsent(t, sp, "deletedAt")
		wantAbsent(t, ts.must(t, 200, "GET", path, admin, nil), "deletedAt")
		if got := listed(); !slices.Contains(got, id) || len(got) != 2 {
			t.Errorf("list after restore: %v", got)
		}
		// Restoring a live space is refused.
		ts.mustError(t, 400, "POST", path+"/restore", admin, nil)
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/restore", admin, nil)

		// Past 7 days a space can no longer be restored.
		ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
		ts.Clock.Advance(7*24*time.Hour + time.Minute)
		wantContains(t, ts.mustError(t, 400, "POST", path+"/restore", admin, nil), "7 days")
		wantTimestamp(t, ts.must(t, 200, "GET", path, admin, nil), "deletedAt")

		// Purge removes spaces deleted more than 7 days ago, and only those.
		recent := ts.newSpace(t, "Recently deleted")
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+recent, admin, nil)
		n, err := ts.Svc.PurgeDeletedSpaces(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("purge: %d, %v; want 1", n, err)
		}
		ts.mustError(t, 404, "GET", path, admin, nil)
		ts.mustError(t, 404, "POST", path+"/restore", admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", path, admin, nil)
		wantTimestamp(t, ts.must(t, 200, "GET", "/v1/spaces/"+recent, admin, nil), "deletedAt")
		ts.must(t, 200, "POST", "/v1/spaces/"+recent+"/restore", admin, nil)
		ts.must(t, 200, "GET", "/v1/spaces/"+keep, admin, nil)
	})
}

func TestSpaceDuplicate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		coll := ts.newCollection(t, "Guides", "")
		src := ts.createSpace(t, map[string]any{"title": "Original", "emoji": "📗", "language": "es", "editMode": "locked", "parent": coll})
		id := str(src, "id")
		after := ts.newSpaceIn(t, "After", coll)
		src = ts.must(t, 200, "PATCH", "/v1/spaces/"+id, admin, map[string]any{"defaultLevel": "review", "visibility": "unlisted",
			"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_at_least_one_review"}}}})

		// No body, no content type; the create role is enough.
		cp := ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+id+"/duplicate", ts.token(cCreate), nil)
		cpID := str(cp, "id")
		if cpID == "" || cpID == id || str(cp, "revision") == str(src, "revision") {
			t.Fatalf("copy has id %q revision %q, source %q %q", cpID, str(cp, "revision"), id, str(src, "revision"))
		}
		for _, k := range []string{"emoji", "language", "editMode", "visibility", "defaultLevel", "mergeRules", "parent", "organization"} {
			if !jsonEqual(cp[k], src[k]) {
				t.Errorf("copy %s = %v, source %v", k, cp[k], src[k])
			}
		}
		wantFields(t, cp, map[string]any{"title": "Original (copy)", "urls.location": testBaseURL + "/v1/spaces/" + cpID,
			"permissions": spaceFlagsFor("create")})
		wantTimestamp(t, cp, "createdAt")
		wantAbsent(t, cp, "deletedAt")
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+id, admin, nil), map[string]any{"title": "Original"})

		// The copy goes right after its source.
		got := ids(t, ts.must(t, 200, "GET", "/v1/collections/"+coll+"/spaces", admin, nil), "id")
		if !slices.Equal(got, []string{id, cpID, after}) {
			t.Errorf("spaces in the collection: %v, want [%s %s %s]", got, id, cpID, after)
		}
		// A long title is cut to fit.
		long := ts.newSpace(t, strings.Repeat("l", 50))
		cp = ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+long+"/duplicate", admin, nil)
		if title := str(cp, "title"); len([]rune(title)) > 50 || !strings.HasSuffix(title, " (copy)") {
			t.Errorf("copy title %q", title)
		}
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/duplicate", admin, nil)
		ts.mustError(t, 403, "POST", "/v1/spaces/"+id+"/duplicate", ts.token(cEdit), nil)
	})
}

func TestSpacePagination(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		var created []string
		for i := 0; i < 7; i++ {
			created = append(created, ts.newSpace(t, "Space "+string(rune('A'+i))))
		}
		var (
			seen  []string
			sizes []int
		)
		query := "limit=3"
		for page := 0; ; page++ {
			if page > 3 {
				t.Fatalf("too many pages")
			}
			l := ts.must(t, 200, "GET", ts.OrgPath("/spaces?"+query), ts.token(cRead), nil)
			if has(l, "count") {
				t.Errorf("page %d: count %v; the space list is not counted", page, l["count"])
			}
			got := ids(t, l, "id")
			sizes = append(sizes, len(got))
			seen = append(seen, got...)
			if !has(l, "next") {
				break
			}
			if str(l, "next.page") == "" {
				t.Fatalf("next without a page: %v", l["next"])
			}
			query = "limit=3&page=" + url.QueryEscape(str(l, "next.page"))
		}
		if !slices.Equal(sizes, []int{3, 3, 1}) {
			t.Errorf("page sizes %v, want [3 3 1]", sizes)
		}
		if !slices.Equal(seen, created) {
			t.Errorf("paged spaces %v, want %v in creation order", seen, created)
		}
		// Default and exact page sizes.
		l := ts.must(t, 200, "GET", ts.OrgPath("/spaces"), ts.token(cRead), nil)
		if len(items(t, l)) != 7 || has(l, "next") {
			t.Errorf("default page: %d items, next %v", len(items(t, l)), l["next"])
		}
		l = ts.must(t, 200, "GET", ts.OrgPath("/spaces?limit=7"), ts.token(cRead), nil)
		if len(items(t, l)) != 7 || has(l, "next") {
			t.Errorf("limit=7: %d items, next %v", len(items(t, l)), l["next"])
		}
		// A cursor of another list is refused.
		tl := ts.must(t, 200, "GET", ts.OrgPath("/members?limit=1"), ts.token(cRead), nil)
		ts.mustError(t, 400, "GET", ts.OrgPath("/spaces?page="+url.QueryEscape(str(tl, "next.page"))), ts.token(cRead), nil)
	})
}

func TestSpaceMove(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		a, b, c := ts.newSpace(t, "A"), ts.newSpace(t, "B"), ts.newSpace(t, "C")
		coll := ts.newCollection(t, "Guides", "")
		anchor := func(id string) map[string]any { return map[string]any{"type": "space", "space": id} }
		move := func(id string, body any) map[string]any {
			t.Helper()
			return ts.must(t, 200, "POST", "/v1/spaces/"+id+"/move", admin, body)
		}
		order := func() []string {
			t.Helper()
			return ids(t, ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil), "id")
		}

		move(c, map[string]any{"position": map[string]any{"before": anchor(a)}})
		if got := order(); !slices.Equal(got, []string{c, a, b}) {
			t.Errorf("after moving C before A: %v", got)
		}
		move(c, map[string]any{"position": map[string]any{"after": anchor(a), "before": anchor(b)}})
		if got := order(); !slices.Equal(got, []string{a, c, b}) {
			t.Errorf("after moving C between A and B: %v", got)
		}

		sp := move(b, map[string]any{"parent": coll})
		wantFields(t, sp, map[string]any{"id": b, "parent": coll, "object": "space"})
		got := ids(t, ts.must(t, 200, "GET", "/v1/collections/"+coll+"/spaces", admin, nil), "id")
		if !slices.Equal(got, []string{b}) {
			t.Errorf("spaces in the collection: %v", got)
		}
		// Into the collection, before B.
		sp = move(a, map[string]any{"parent": coll, "position": map[string]any{"before": anchor(b)}})
		wantFields(t, sp, map[string]any{"parent": coll})
		got = ids(t, ts.must(t, 200, "GET", "/v1/collections/"+coll+"/spaces", admin, nil), "id")
		if !slices.Equal(got, []string{a, b}) {
			t.Errorf("spaces in the collection: %v, want [%s %s]", got, a, b)
		}
		sp = move(a, map[string]any{"parent": nil})
		wantAbsent(t, sp, "parent")

		// in-collection is only for spaces in a collection: a space leaving
		// its collection cannot keep it.
		ts.must(t, 200, "PATCH", "/v1/spaces/"+b, admin, map[string]any{"visibility": "in-collection"})
		r := ts.send(t, "POST", "/v1/spaces/"+b+"/move", admin, map[string]any{"parent": nil})
		if got := ts.must(t, 200, "GET", "/v1/spaces/"+b, admin, nil); r.Status == 200 && str(got, "visibility") == "in-collection" {
			t.Errorf("space moved to the root kept visibility in-collection")
		}
		if r.Status == 200 {
			move(b, map[string]any{"parent": coll})
		}

		before := ts.must(t, 200, "GET", "/v1/spaces/"+c, admin, nil)
		for _, tc := range []struct {
			name   string
			status int
			body   any
			field  string
		}{
			{"empty body", 400, map[string]any{}, "parent"},
			{"anchor not a sibling", 400, map[string]any{"position": map[string]any{"after": anchor(b)}}, "position.after"},
			{"unknown anchor", 400, map[string]any{"position": map[string]any{"before": anchor("nosuchspace")}}, "position.before"},
			{"anchor without its id", 400, map[string]any{"position": map[string]any{"before": map[string]any{"type": "space"}}}, "position.before"},
			{"unknown parent", 400, map[string]any{"parent": "nosuchcollection"}, "parent"},
			{"parent is a space", 400, map[string]any{"parent": a}, "parent"},
			{"no change: already at the root", 409, map[string]any{"parent": nil}, ""},
			{"no change: same place", 409, map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection", "collection": coll}}}, ""},
		} {
			r := ts.send(t, "POST", "/v1/spaces/"+c+"/move", admin, tc.body)
			if r.Status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
				continue
			}
			wantContains(t, checkErrorBody(t, r), tc.field)
		}
		if after := ts.must(t, 200, "GET", "/v1/spaces/"+c, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected moves changed the space")
		}
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/move", admin, map[string]any{"parent": nil})
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/move", admin, map[string]any{})

		// Moving into a collection needs the create role there: an admin of
		// the space only is refused.
		editor := ts.user(cEdit)
		mine := ts.newSpace(t, "Editor's")
		ts.grantUser(t, mine, editor.ID, "admin")
		ts.mustError(t, 403, "POST", "/v1/spaces/"+mine+"/move", editor.Token, map[string]any{"parent": coll})
		ts.must(t, 200, "POST", "/v1/spaces/"+mine+"/move", editor.Token, map[string]any{"position": map[string]any{"before": anchor(c)}})
	})
}

func TestSpaceTransfer(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")
		res, err := ts.Svc.Bootstrap(context.Background(), service.BootstrapInput{OrgTitle: "Third Org", Email: "owner@third.test", Name: "Third"})
		if err != nil {
			t.Fatal(err)
		}
		ts.must(t, 200, "PATCH", "/v1/orgs/"+res.Organization, res.Token, map[string]any{"emailDomains": []string{"acme.test"}})
		ts.must(t, 204, "POST", "/v1/orgs/"+res.Organization+"/join", admin, nil)

		coll := ts.newCollection(t, "Guides", "")
		id := ts.newSpaceIn(t, "Moving", coll)
		path := "/v1/spaces/" + id + "/transfer"
		team := ts.newTeam(t, "Writers", ts.user(cRead).ID)
		ts.grantTeam(t, id, team, "edit")
		ts.grantUser(t, id, ts.user(cComment).ID, "review")

		before := ts.must(t, 200, "GET", "/v1/spaces/"+id, admin, nil)
		for _, tc := range []struct {
			name   string
			status int
			org    string
		}{
			{"unknown organization", 404, "nosuchorg"},
			{"same organization", 409, ts.Org},
			{"caller not admin of the target", 412, res.Organization},
		} {
			r := ts.send(t, "POST", path, admin, map[string]any{"organization": tc.org})
			if r.Status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
				continue
			}
			checkErrorBody(t, r)
		}
		ts.mustError(t, 400, "POST", path, admin, map[string]any{})
		if after := ts.must(t, 200, "GET", "/v1/spaces/"+id, admin, nil); !jsonEqual(after, before) {
			t.Errorf("rejected transfers changed the space")
		}
		ts.mustError(t, 404, "POST", "/v1/spaces/nosuchspace/transfer", admin, map[string]any{"organization": org2})

		sp := ts.must(t, 200, "POST", path, admin, map[string]any{"organization": org2})
		wantFields(t, sp, map[string]any{"id": id, "organization": org2, "title": "Moving", "permissions": spaceFlagsFor("admin")})
		wantAbsent(t, sp, "parent")
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+id, owner.Token, nil), map[string]any{"organization": org2})
		// Grants to the old organization's teams are gone.
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+id+"/permissions/teams", owner.Token, nil), map[string]any{"count": 0})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/teams/"+team), admin, nil), map[string]any{"spaces": 0})
		if got := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/spaces"), admin, nil), "id"); len(got) != 0 {
			t.Errorf("spaces left in the source: %v", got)
		}
		if got := ids(t, ts.must(t, 200, "GET", "/v1/orgs/"+org2+"/spaces", owner.Token, nil), "id"); !slices.Equal(got, []string{id}) {
			t.Errorf("spaces of the target: %v", got)
		}
		// Members of the old organization lose it.
		ts.mustError(t, 404, "GET", "/v1/spaces/"+id, ts.token(cRead), nil)
		ts.mustError(t, 409, "POST", path, admin, map[string]any{"organization": org2})

		// A deleted space cannot be transferred.
		gone := ts.newSpace(t, "Gone")
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+gone, admin, nil)
		ts.mustError(t, 400, "POST", "/v1/spaces/"+gone+"/transfer", admin, map[string]any{"organization": org2})
	})
}
