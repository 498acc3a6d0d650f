package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"testing"
	"time"
)

func TestMemberGet(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, c := range append(append([]string{}, roleCallers...), cGuest) {
			u := ts.user(c)
			m := ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID), ts.token(cRead), nil)
			var role any = string(u.Role)
			if u.Role == "" {
				role = nil
			}
			wantFields(t, m, map[string]any{
				"object":             "member",
				"id":                 u.ID,
				"role":               role,
				"user.object":        "user",
				"user.id":            u.ID,
				"user.displayName":   u.Name,
				"user.email":         u.Email,
				"user.urls.location": testBaseURL + "/v1/users/" + u.ID,
				"disabled":           false,
				"sso":                false,
				"spaces":             0,
				"teams":              0,
			})
			wantTimestamp(t, m, "joinedAt")
			wantAbsent(t, m, "lastSeenAt")
		}
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/nosuchuser"), ts.token(cRead), nil)
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/"+ts.user(cNonMember).ID), ts.token(cRead), nil)
		ts.mustError(t, 403, "GET", ts.OrgPath("/members/"+ts.user(cRead).ID), ts.token(cGuest), nil)
	})
}

func TestMemberListFilters(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		tok := ts.token(cRead)
		list := func(query string) map[string]any {
			t.Helper()
			return ts.must(t, 200, "GET", ts.OrgPath("/members?"+query), tok, nil)
		}
		all := list("")
		if all["count"] != float64(7) || len(items(t, all)) != 7 {
			t.Fatalf("members: count %v, %d items, want 7", all["count"], len(items(t, all)))
		}
		wantAbsent(t, all, "next")

		for _, c := range []struct {
			query string
			want  []string
		}{
			{"role=edit", []string{cEdit}},
			{"role=admin", []string{cAdmin}},
			{"role=guest", []string{cGuest}},
			{"search=cleo", []string{cCreate}},
			{"search=CLEO", []string{cCreate}},
			{"search=" + url.QueryEscape("review@acme"), []string{cReview}},
			{"search=acme.test", []string{cAdmin, cCreate, cEdit, cReview, cComment, cRead, cGuest}},
			{"search=nobody-matches", nil},
			{"search=" + url.QueryEscape("%"), nil},
			{"search=" + url.QueryEscape("_"), nil},
			{"role=read&search=rita", []string{cRead}},
			{"role=read&search=cleo", nil},
		} {
			l := list(c.query)
			var want []string
			for _, n := range c.want {
				want = append(want, ts.user(n).ID)
			}
			got := ids(t, l, "id")
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) || l["count"] != float64(len(want)) {
				t.Errorf("members?%s: %v (count %v), want %v", c.query, got, l["count"], want)
			}
		}

		// joinedAt order, descending by default, ties broken by id.
		desc, asc := items(t, list("")), items(t, list("order=asc"))
		checkMemberOrder(t, desc, "joinedAt", true)
		checkMemberOrder(t, asc, "joinedAt", false)
		var d, a []string
		for i := range desc {
			d = append(d, str(desc[i], "id"))
			a = append(a, str(asc[i], "id"))
		}
		if r := slices.Clone(a); !slices.Equal(d, func() []string { slices.Reverse(r); return r }()) {
			t.Errorf("order=asc is not the reverse of the default: %v vs %v", a, d)
		}
		if got := ids(t, list("order=desc"), "id"); !slices.Equal(got, d) {
			t.Errorf("order=desc differs from the default")
		}

		// lastSeenAt lists only members seen at least once.
		if l := list("sort=lastSeenAt"); l["count"] != float64(0) || len(items(t, l)) != 0 {
			t.Errorf("sort=lastSeenAt before any ping: %v", l)
		}
		ts.must(t, 200, "POST", ts.OrgPath("/ping"), ts.token(cComment), nil)
		ts.Clock.Advance(time.Second)
		ts.must(t, 200, "POST", ts.OrgPath("/ping"), ts.token(cGuest), nil)
		ts.Clock.Advance(time.Second)
		ts.must(t, 200, "POST", ts.OrgPath("/ping"), ts.token(cAdmin), nil)
		seen := []string{ts.user(cAdmin).ID, ts.user(cGuest).ID, ts.user(cComment).ID}
		l := list("sort=lastSeenAt")
		if got := ids(t, l, "id"); !slices.Equal(got, seen) || l["count"] != float64(3) {
			t.Errorf("sort=lastSeenAt: %v (count %v), want %v (latest first)", got, l["count"], seen)
		}
		checkMemberOrder(t, items(t, l), "lastSeenAt", true)
		slices.Reverse(seen)
		if got := ids(t, list("sort=lastSeenAt&order=asc"), "id"); !slices.Equal(got, seen) {
			t.Errorf("sort=lastSeenAt&order=asc: %v, want %v", got, seen)
		}
		if got := ids(t, list("sort=lastSeenAt&role=guest"), "id"); !slices.Equal(got, []string{ts.user(cGuest).ID}) {
			t.Errorf("sort=lastSeenAt&role=guest: %v", got)
		}

		// Paging through members keeps the order and loses nobody.
		var paged []string
		query := "limit=2&order=asc"
		for pages := 0; ; pages++ {
			if pages > 7 {
				t.Fatalf("too many pages")
			}
			l := list(query)
			if l["count"] != float64(7) {
				t.Errorf("page count %v, want 7", l["count"])
			}
			paged = append(paged, ids(t, l, "id")...)
			next := str(l, "next.page")
			if next == "" {
				break
			}
			query = "limit=2&order=asc&page=" + url.QueryEscape(next)
		}
		if !slices.Equal(paged, a) {
			t.Errorf("paged members %v, want %v", paged, a)
		}
	})
}

// checkMemberOrder checks that members are sorted by a timestamp field,
// ties broken by id, in the given direction.
func checkMemberOrder(t *testing.T, ms []map[string]any, key string, desc bool) {
	t.Helper()
	for i := 1; i < len(ms); i++ {
		a, b := str(ms[i-1], key)+" "+str(ms[i-1], "id"), str(ms[i], key)+" "+str(ms[i], "id")
		if (desc && a < b) || (!desc && a > b) {
			t.Errorf("members out of %s order at %d: %s then %s", key, i, a, b)
		}
	}
}

func TestMemberRoleChanges(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		reader := ts.user(cRead)
		path := ts.OrgPath("/members/" + reader.ID)

		m := ts.must(t, 200, "PATCH", path, admin, map[string]any{"role": "edit"})
		wantFields(t, m, map[string]any{"object": "member", "id": reader.ID, "role": "edit"})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath(""), reader.Token, nil), map[string]any{"permissions.listMembers": true})

		// Omitting the role keeps it; null makes a guest.
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{}), map[string]any{"role": "edit"})
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"role": nil}), map[string]any{"role": nil})
		ts.mustError(t, 403, "GET", ts.OrgPath("/members"), reader.Token, nil)
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"role": "read"}), map[string]any{"role": "read"})

		wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, map[string]any{"role": "owner"}), "role")
		ts.mustError(t, 404, "PATCH", ts.OrgPath("/members/nosuchuser"), admin, map[string]any{"role": "read"})
		ts.mustError(t, 404, "PATCH", ts.OrgPath("/members/"+ts.user(cNonMember).ID), admin, map[string]any{"role": "read"})

		// The last admin keeps the role.
		adminPath := ts.OrgPath("/members/" + ts.user(cAdmin).ID)
		for _, body := range []map[string]any{{"role": "create"}, {"role": nil}} {
			wantContains(t, ts.mustError(t, 400, "PATCH", adminPath, admin, body), "admin")
		}
		ts.mustError(t, 400, "DELETE", adminPath, admin, nil)
		wantFields(t, ts.must(t, 200, "GET", adminPath, admin, nil), map[string]any{"role": "admin"})
		wantFields(t, ts.must(t, 200, "PATCH", adminPath, admin, map[string]any{"role": "admin"}), map[string]any{"role": "admin"})

		// With a second admin, the first may step down.
		ts.must(t, 200, "PATCH", ts.OrgPath("/members/"+ts.user(cCreate).ID), admin, map[string]any{"role": "admin"})
		wantFields(t, ts.must(t, 200, "PATCH", adminPath, admin, map[string]any{"role": "edit"}), map[string]any{"role": "edit"})
		ts.mustError(t, 403, "PATCH", path, admin, map[string]any{"role": "edit"})
		// Now the promoted one is the last admin.
		ts.mustError(t, 400, "DELETE", ts.OrgPath("/members/"+ts.user(cCreate).ID), ts.token(cCreate), nil)
	})
}

func TestMemberRemove(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		u := ts.user(cComment)
		sp := ts.newSpace(t, "Shared")
		ts.grantUser(t, sp, u.ID, "edit")
		team := ts.newTeam(t, "Team", u.ID)
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID), admin, nil), map[string]any{"spaces": 1, "teams": 1})

		ts.must(t, http.StatusResetContent, "DELETE", ts.OrgPath("/members/"+u.ID), admin, nil)
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/"+u.ID), admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", ts.OrgPath("/members/"+u.ID), admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", ts.OrgPath("/members/nosuchuser"), admin, nil)

		// Their access, grants and team memberships are gone.
		ts.mustError(t, 404, "GET", ts.OrgPath(""), u.Token, nil)
		ts.mustError(t, 404, "GET", "/v1/spaces/"+sp, u.Token, nil)
		l := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/permissions/users", admin, nil)
		wantFields(t, l, map[string]any{"count": 0})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/teams/"+team), admin, nil), map[string]any{"members": 0})
		if l := ts.must(t, 200, "GET", ts.OrgPath("/members"), admin, nil); l["count"] != float64(6) {
			t.Errorf("members after removal: %v", l["count"])
		}
	})
}

func TestMemberSpacesAndTeams(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		u := ts.user(cRead)
		direct := ts.newSpace(t, "Direct")
		viaTeam := ts.newSpace(t, "Via team")
		both := ts.newSpace(t, "Both")
		ts.newSpace(t, "Unrelated")
		docs := ts.newTeam(t, "Docs Writers", u.ID)
		ts.newTeam(t, "API reviewers", u.ID, ts.user(cReview).ID)
		ts.newTeam(t, "Design", ts.user(cEdit).ID)
		ts.grantUser(t, direct, u.ID, "comment")
		ts.grantTeam(t, viaTeam, docs, "edit")
		ts.grantUser(t, both, u.ID, "review")
		ts.grantTeam(t, both, docs, "create")

		m := ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID), admin, nil)
		wantFields(t, m, map[string]any{"spaces": 2, "teams": 2})

		l := ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/spaces"), ts.token(cRead), nil)
		got := map[string]string{}
		for _, it := range items(t, l) {
			got[str(it, "space.id")] = str(it, "permission")
			if str(it, "space.object") != "space" {
				t.Errorf("space entry without a space: %v", it)
			}
		}
		want := map[string]string{direct: "comment", viaTeam: "edit", both: "create"}
		if !jsonEqual(got, want) || l["count"] != float64(3) {
			t.Errorf("member spaces %v (count %v), want %v", got, l["count"], want)
		}
		desc := ids(t, l, "space.id")
		asc := ids(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/spaces?order=asc"), admin, nil), "space.id")
		slices.Reverse(asc)
		if !slices.Equal(desc, asc) {
			t.Errorf("order=asc is not the reverse of the default: %v vs %v", asc, desc)
		}
		// The space objects carry the caller's own level.
		for _, it := range items(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/spaces"), admin, nil)) {
			if field(it, "space.permissions.admin") != true {
				t.Errorf("admin's view of a member's space lacks admin: %v", it)
			}
		}
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/nosuchuser/spaces"), admin, nil)

		// Deleted spaces drop out of the list and the count.
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+direct, admin, nil)
		l = ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/spaces"), admin, nil)
		if got := ids(t, l, "space.id"); slices.Contains(got, direct) || l["count"] != float64(2) {
			t.Errorf("member spaces after deleting one: %v (count %v)", got, l["count"])
		}
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID), admin, nil), map[string]any{"spaces": 1})
		ts.must(t, 200, "POST", "/v1/spaces/"+direct+"/restore", admin, nil)

		l = ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/teams"), admin, nil)
		if l["count"] != float64(2) {
			t.Errorf("member teams count %v, want 2", l["count"])
		}
		for _, it := range items(t, l) {
			if str(it, "member.role") != "member" || str(it, "team.object") != "team" {
				t.Errorf("team entry %v", it)
			}
		}
		l = ts.must(t, 200, "GET", ts.OrgPath("/members/"+u.ID+"/teams?title=WRITERS"), admin, nil)
		if got := ids(t, l, "team.id"); !slices.Equal(got, []string{docs}) || l["count"] != float64(1) {
			t.Errorf("member teams title=WRITERS: %v", got)
		}
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/nosuchuser/teams"), admin, nil)
	})
}
