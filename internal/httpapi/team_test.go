package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTeamCreateAndGet(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		members := []string{ts.user(cEdit).ID, ts.user(cRead).ID, ts.user(cEdit).ID}
		tm := ts.must(t, http.StatusCreated, "PUT", ts.OrgPath("/teams"), admin,
			map[string]any{"title": "  Writers  ", "members": members})
		wantFields(t, tm, map[string]any{
			"object": "team", "title": "Writers", "members": 2, "spaces": 0,
			"permissions": map[string]any{"admin": true, "view": true},
		})
		wantTimestamp(t, tm, "createdAt")
		id := str(tm, "id")
		if id == "" {
			t.Fatalf("team without id: %v", tm)
		}

		got := ts.must(t, 200, "GET", ts.OrgPath("/teams/"+id), ts.token(cRead), nil)
		wantFields(t, got, map[string]any{"id": id, "title": "Writers", "members": 2,
			"createdAt": tm["createdAt"], "permissions": map[string]any{"admin": false, "view": true}})
		ts.mustError(t, 403, "GET", ts.OrgPath("/teams/"+id), ts.token(cGuest), nil)
		ts.mustError(t, 404, "GET", ts.OrgPath("/teams/nosuchteam"), admin, nil)

		// A team of another organization is not found through this one.
		org2, owner := ts.secondOrg(t, "Second Org", "owner@second.test")
		other := str(ts.must(t, 201, "PUT", "/v1/orgs/"+org2+"/teams", owner.Token, map[string]any{"title": "Elsewhere"}), "id")
		ts.mustError(t, 404, "GET", ts.OrgPath("/teams/"+other), admin, nil)
		ts.mustError(t, 404, "PATCH", ts.OrgPath("/teams/"+other), admin, map[string]any{"title": "Hijacked"})
		ts.must(t, http.StatusNoContent, "DELETE", ts.OrgPath("/teams/"+other), admin, nil)
		wantFields(t, ts.must(t, 200, "GET", "/v1/orgs/"+org2+"/teams/"+other, owner.Token, nil), map[string]any{"title": "Elsewhere"})

		// Without members.
		tm = ts.must(t, http.StatusCreated, "PUT", ts.OrgPath("/teams"), admin, map[string]any{"title": "Empty"})
		wantFields(t, tm, map[string]any{"members": 0})

		before := ts.must(t, 200, "GET", ts.OrgPath("/teams"), admin, nil)["count"]
		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"empty title", map[string]any{"title": ""}, "title"},
			{"blank title", map[string]any{"title": "   "}, "title"},
			{"title 65 chars", map[string]any{"title": strings.Repeat("t", 65)}, "title"},
			{"no title", map[string]any{"members": []string{}}, "title"},
			{"member not in the organization", map[string]any{"title": "T", "members": []string{ts.user(cNonMember).ID}}, "members"},
			{"unknown member", map[string]any{"title": "T", "members": []string{"nosuchuser"}}, "members"},
		} {
			wantContains(t, ts.mustError(t, 400, "PUT", ts.OrgPath("/teams"), admin, c.body), c.field)
			if after := ts.must(t, 200, "GET", ts.OrgPath("/teams"), admin, nil)["count"]; after != before {
				t.Errorf("%s: team count %v → %v", c.name, before, after)
			}
		}
		tm = ts.must(t, http.StatusCreated, "PUT", ts.OrgPath("/teams"), admin, map[string]any{"title": strings.Repeat("t", 64)})
		wantFields(t, tm, map[string]any{"title": strings.Repeat("t", 64)})
		tm = ts.must(t, http.StatusCreated, "PUT", ts.OrgPath("/teams"), admin, map[string]any{"title": "é"})
		wantFields(t, tm, map[string]any{"title": "é"})
	})
}

func TestTeamUpdateAndDelete(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		id := ts.newTeam(t, "Writers", ts.user(cRead).ID)
		path := ts.OrgPath("/teams/" + id)

		tm := ts.must(t, 200, "PATCH", path, admin, map[string]any{"title": " Editors "})
		wantFields(t, tm, map[string]any{"id": id, "title": "Editors", "members": 1})
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"title": "Editors"})

		for _, body := range []map[string]any{{"title": ""}, {"title": "  "}, {"title": strings.Repeat("x", 65)}, {}} {
			wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, body), "title")
		}
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"title": "Editors"})
		ts.mustError(t, 404, "PATCH", ts.OrgPath("/teams/nosuchteam"), admin, map[string]any{"title": "X"})

		// Deleting drops its grants too.
		sp := ts.newSpace(t, "Granted")
		ts.grantTeam(t, sp, id, "edit")
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"spaces": 1})
		ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
		ts.mustError(t, 404, "GET", path, admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", path, admin, nil)
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/permissions/teams", admin, nil), map[string]any{"count": 0, "items": []any{}})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+ts.user(cRead).ID), admin, nil), map[string]any{"teams": 0})
	})
}

// teamMemberSetter is implemented by stores that can change a team
// member's role (the API has no operation for it yet).
type teamMemberSetter interface {
	SetTeamMember(ctx context.Context, orgID, teamID, userID, role string) error
}

func TestTeamListFilters(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		titles := []string{"Docs", "API docs", "Design", "Ops_team", "Opsxteam", "100% docs"}
		var all []string
		for _, title := range titles {
			all = append(all, ts.newTeam(t, title, ts.user(cEdit).ID))
			ts.Clock.Advance(time.Millisecond)
		}
		list := func(query string) map[string]any {
			t.Helper()
			return ts.must(t, 200, "GET", ts.OrgPath("/teams?"+query), ts.token(cRead), nil)
		}
		l := list("")
		if got := ids(t, l, "id"); !slices.Equal(got, all) || l["count"] != float64(len(all)) {
			t.Errorf("teams %v, want %v oldest first", got, all)
		}
		for _, it := range items(t, l) {
			wantFields(t, it, map[string]any{"object": "team", "members": 1, "permissions": map[string]any{"admin": false, "view": true}})
		}
		for _, c := range []struct {
			title string
			want  []string
		}{
			{"DOCS", []string{all[0], all[1], all[5]}},
			{"des", []string{all[2]}},
			{"_", []string{all[3]}},
			{"%", []string{all[5]}},
			{"ops_", []string{all[3]}},
			{"nothing", nil},
		} {
			l := list("title=" + url.QueryEscape(c.title))
			if got := ids(t, l, "id"); !slices.Equal(got, c.want) || l["count"] != float64(len(c.want)) {
				t.Errorf("title=%s: %v (count %v), want %v", c.title, got, l["count"], c.want)
			}
		}

		// Paging.
		var paged []string
		query := "limit=4"
		for i := 0; i < 5; i++ {
			l := list(query)
			paged = append(paged, ids(t, l, "id")...)
			if !has(l, "next") {
				break
			}
			query = "limit=4&page=" + url.QueryEscape(str(l, "next.page"))
		}
		if !slices.Equal(paged, all) {
			t.Errorf("paged teams %v, want %v", paged, all)
		}

		// owner keeps the teams the member can manage: all of them for an
		// admin of the organization, those they own otherwise. Creating a
		// team makes every member a plain member.
		if got := ids(t, list("owner="+ts.user(cAdmin).ID), "id"); !slices.Equal(got, all) {
			t.Errorf("owner=<admin>: %v, want every team", got)
		}
		if got := ids(t, list("owner="+ts.user(cAdmin).ID+"&title=docs"), "id"); !slices.Equal(got, []string{all[0], all[1], all[5]}) {
			t.Errorf("owner=<admin>&title=docs: %v", got)
		}
		if l := list("owner=nosuchuser"); l["count"] != float64(0) || len(items(t, l)) != 0 {
			t.Errorf("owner=nosuchuser: %v", l)
		}
		editor := ts.user(cEdit).ID
		if l := list("owner=" + editor); l["count"] != float64(0) {
			t.Errorf("owner=%s before any owner: %v", editor, l)
		}
		setter, ok := ts.Store.(teamMemberSetter)
		if !ok {
			t.Log("store cannot set team owners; owner filter checked only for the empty case")
			return
		}
		for _, i := range []int{1, 5} {
			if err := setter.SetTeamMember(context.Background(), ts.Org, all[i], editor, "owner"); err != nil {
				t.Fatalf("set owner: %v", err)
			}
		}
		if got := ids(t, list("owner="+editor), "id"); !slices.Equal(got, []string{all[1], all[5]}) {
			t.Errorf("owner=%s: %v, want %v", editor, got, []string{all[1], all[5]})
		}
		if got := ids(t, list("owner="+editor+"&title=100"), "id"); !slices.Equal(got, []string{all[5]}) {
			t.Errorf("owner and title: %v", got)
		}
		l = ts.must(t, 200, "GET", ts.OrgPath("/members/"+editor+"/teams"), admin, nil)
		roles := map[string]string{}
		for _, it := range items(t, l) {
			roles[str(it, "team.id")] = str(it, "member.role")
		}
		if roles[all[1]] != "owner" || roles[all[0]] != "member" {
			t.Errorf("member team roles %v", roles)
		}
	})
}
