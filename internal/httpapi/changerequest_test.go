package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
)

// newChangeRequest creates a change request in a space as the admin and
// returns it.
func (ts *testServer) newChangeRequest(t *testing.T, space, subject string) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/change-requests", ts.token(cAdmin),
		map[string]any{"subject": subject})
}

// crCounters reads a space's change request counters.
func (ts *testServer) crCounters(t *testing.T, space string) map[string]any {
	t.Helper()
	sp := ts.must(t, 200, "GET", "/v1/spaces/"+space, ts.token(cAdmin), nil)
	return map[string]any{"changeRequests": sp["changeRequests"], "changeRequestsOpen": sp["changeRequestsOpen"],
		"changeRequestsDraft": sp["changeRequestsDraft"]}
}

// counts builds the expected counters of a space.
func counts(all, open, draft int) map[string]any {
	return map[string]any{"changeRequests": float64(all), "changeRequestsOpen": float64(open), "changeRequestsDraft": float64(draft)}
}

func TestChangeRequestCreateAndGet(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Guide")
		space := ts.must(t, 200, "GET", "/v1/spaces/"+sp, ts.token(cAdmin), nil)
		base := "/v1/spaces/" + sp + "/change-requests"
		editor := ts.user(cEdit)

		r := ts.send(t, "POST", base, editor.Token, map[string]any{"subject": "  Fix typos  ", "agentTaskId": "task-1"})
		if r.Status != http.StatusCreated {
			t.Fatalf("create: %d: %s", r.Status, r.Body)
		}
		cr := r.obj(t)
		id := str(cr, "id")
		wantFields(t, cr, map[string]any{
			"object": "change-request", "number": 1, "status": "draft", "subject": "Fix typos",
			"space": sp, "revision": space["revision"], "revisionInitial": space["revision"],
			"comments": 0, "outdated": false,
			"createdBy": map[string]any{"object": "user", "id": editor.ID, "displayName": editor.Name, "email": editor.Email,
				"urls": map[string]any{"location": testBaseURL + "/v1/users/" + editor.ID}},
			"urls": map[string]any{"location": testBaseURL + base + "/" + id, "app": testBaseURL + "/app/s/" + sp + "/~/changes/1"},
		})
		wantTimestamp(t, cr, "createdAt")
		wantTimestamp(t, cr, "updatedAt")
		for _, k := range []string{"description", "revisionMergedAncestor", "revisionMerged"} {
			wantAbsent(t, cr, k)
		}
		if got := r.Header.Get("Location"); got != str(cr, "urls.location") {
			t.Errorf("Location %q, want %q", got, str(cr, "urls.location"))
		}

		// Numbers count up per space; the body is optional.
		second := ts.must(t, http.StatusCreated, "POST", base, ts.token(cAdmin), nil)
		wantFields(t, second, map[string]any{"number": 2, "subject": ""})
		third := ts.newChangeRequest(t, sp, "Third")
		wantFields(t, third, map[string]any{"number": 3})
		other := ts.newSpace(t, "Other")
		wantFields(t, ts.newChangeRequest(t, other, "Elsewhere"), map[string]any{"number": 1})

		// By id or by number, readable at the read level.
		for _, key := range []string{id, "1"} {
			got := ts.must(t, 200, "GET", base+"/"+key, ts.token(cRead), nil)
			wantFields(t, got, map[string]any{"id": id, "number": 1, "subject": "Fix typos", "createdAt": cr["createdAt"]})
		}
		wantFields(t, ts.must(t, 200, "GET", base+"/2", ts.token(cRead), nil), map[string]any{"id": second["id"]})
		for _, key := range []string{"4", "0", "nosuchcr", str(ts.newChangeRequest(t, other, "x"), "id")} {
			ts.mustError(t, 404, "GET", base+"/"+key, ts.token(cAdmin), nil)
		}
		ts.mustError(t, 404, "GET", "/v1/spaces/"+other+"/change-requests/"+id, ts.token(cAdmin), nil)
		wantFields(t, ts.crCounters(t, sp), counts(3, 0, 3))
	})
}

func TestChangeRequestCreateRules(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		base := "/v1/spaces/" + sp + "/change-requests"

		wantContains(t, ts.mustError(t, 400, "POST", base, admin, map[string]any{"subject": strings.Repeat("s", 101)}), "subject")
		wantContains(t, ts.mustError(t, 400, "POST", base, admin, map[string]any{"subject": strings.Repeat("é", 101)}), "subject")
		wantFields(t, ts.newChangeRequest(t, sp, strings.Repeat("é", 100)), map[string]any{"number": 1})

		// A locked space takes no change request.
		ts.must(t, 200, "PATCH", "/v1/spaces/"+sp, admin, map[string]any{"editMode": "locked"})
		wantContains(t, ts.mustError(t, 400, "POST", base, admin, map[string]any{"subject": "Locked"}), "locked")
		ts.must(t, 200, "PATCH", "/v1/spaces/"+sp, admin, map[string]any{"editMode": "live"})
		wantFields(t, ts.newChangeRequest(t, sp, "Unlocked"), map[string]any{"number": 2})

		// Nor does a deleted one.
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+sp, admin, nil)
		wantContains(t, ts.mustError(t, 400, "POST", base, admin, nil), "deleted")
		wantFields(t, ts.crCounters(t, sp), counts(2, 0, 2))
	})
}

func TestChangeRequestStatusCounters(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		base := "/v1/spaces/" + sp + "/change-requests/"
		for i := range 3 {
			ts.newChangeRequest(t, sp, "Change "+strconv.Itoa(i+1))
		}
		wantFields(t, ts.crCounters(t, sp), counts(3, 0, 3))
		for _, step := range []struct {
			number, status string
			want           map[string]any
		}{
			{"1", "open", counts(3, 1, 2)},
			{"2", "open", counts(3, 2, 1)},
			{"1", "open", counts(3, 2, 1)},
			{"2", "archived", counts(3, 1, 1)},
			{"3", "archived", counts(3, 1, 0)},
			{"3", "draft", counts(3, 1, 1)},
			{"1", "draft", counts(3, 0, 2)},
			{"2", "open", counts(3, 1, 2)},
		} {
			cr := ts.must(t, 200, "PATCH", base+step.number, ts.token(cEdit), map[string]any{"status": step.status})
			wantFields(t, cr, map[string]any{"status": step.status})
			wantFields(t, ts.crCounters(t, sp), step.want)
		}
		wantContains(t, ts.mustError(t, 400, "PATCH", base+"1", admin, map[string]any{"status": "merged"}), "status")
		wantFields(t, ts.crCounters(t, sp), counts(3, 1, 2))

		// A merged change request keeps its status.
		cr, err := ts.Store.ChangeRequest(context.Background(), sp, "2")
		if err != nil {
			t.Fatal(err)
		}
		merged := quire.CRMerged
		if _, err := ts.Store.UpdateChangeRequest(context.Background(), sp, cr.ID, quire.ChangeRequestUpdate{Status: &merged}); err != nil {
			t.Fatal(err)
		}
		wantFields(t, ts.crCounters(t, sp), counts(3, 0, 2))
		for _, status := range []string{"open", "draft", "archived"} {
			wantContains(t, ts.mustError(t, 400, "PATCH", base+"2", admin, map[string]any{"status": status}), "merged")
		}
		wantFields(t, ts.must(t, 200, "GET", base+"2", admin, nil), map[string]any{"status": "merged"})
		wantFields(t, ts.crCounters(t, sp), counts(3, 0, 2))
	})
}

func TestChangeRequestUpdate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		cr := ts.newChangeRequest(t, sp, "First")
		path := "/v1/spaces/" + sp + "/change-requests/" + str(cr, "id")

		ts.Clock.Advance(time.Second)
		doc := map[string]any{"object": "document", "data": map[string]any{"schemaVersion": 1},
			"nodes": []any{map[string]any{"object": "block", "type": "paragraph", "nodes": []any{}}}}
		got := ts.must(t, 200, "PATCH", path, admin, map[string]any{"subject": " Renamed ", "description": doc})
		wantFields(t, got, map[string]any{"subject": "Renamed", "description": doc, "status": "draft", "number": 1})
		if str(got, "updatedAt") <= str(cr, "updatedAt") {
			t.Errorf("updatedAt %s not after %s", got["updatedAt"], cr["updatedAt"])
		}
		wantFields(t, ts.must(t, 200, "GET", path, ts.token(cRead), nil), map[string]any{"subject": "Renamed", "description": doc})

		// An empty PATCH changes nothing.
		same := ts.must(t, 200, "PATCH", path, admin, map[string]any{})
		wantFields(t, same, map[string]any{"subject": "Renamed", "updatedAt": got["updatedAt"]})

		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"subject of 101 characters", map[string]any{"subject": strings.Repeat("x", 101)}, "subject"},
			{"status merged", map[string]any{"status": "merged"}, "status"},
			{"unknown status", map[string]any{"status": "closed"}, "status"},
			{"description not a document", map[string]any{"description": map[string]any{"object": "block", "data": map[string]any{}, "nodes": []any{}}}, "description"},
			{"description without nodes", map[string]any{"description": map[string]any{"object": "document", "data": map[string]any{}}}, "description"},
			{"description with nodes not an array", map[string]any{"description": map[string]any{"object": "document", "data": map[string]any{}, "nodes": "x"}}, "description"},
			{"description without data", map[string]any{"description": map[string]any{"object": "document", "nodes": []any{}}}, "description"},
			{"description a string", map[string]any{"description": "text"}, "description"},
		} {
			wantContains(t, ts.mustError(t, 400, "PATCH", path, admin, c.body), c.field)
		}
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"subject": "Renamed", "description": doc, "status": "draft"})
		wantFields(t, ts.must(t, 200, "PATCH", path, admin, map[string]any{"subject": strings.Repeat("é", 100)}),
			map[string]any{"subject": strings.Repeat("é", 100)})

		// null removes the description.
		wantAbsent(t, ts.must(t, 200, "PATCH", path, admin, rawBody(`{"description":null}`)), "description")
		wantAbsent(t, ts.must(t, 200, "GET", path, admin, nil), "description")

		ts.mustError(t, 404, "PATCH", "/v1/spaces/"+sp+"/change-requests/99", admin, map[string]any{"subject": "x"})
		ts.mustError(t, 403, "PATCH", path, ts.token(cReview), map[string]any{"subject": "x"})
	})
}

func TestChangeRequestOutdated(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		ctx := context.Background()
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		first := ts.newChangeRequest(t, sp, "First")
		second := ts.newChangeRequest(t, sp, "Second")
		path := func(cr map[string]any) string { return "/v1/spaces/" + sp + "/change-requests/" + str(cr, "id") }
		wantFields(t, ts.must(t, 200, "GET", path(first), admin, nil), map[string]any{"outdated": false})

		// Main content moves on.
		prev := str(first, "revision")
		next := &quire.Revision{ID: quire.NewID(), SpaceID: sp, Parents: []string{prev}, Type: quire.RevisionEdits, CreatedAt: time.Now()}
		if err := ts.Store.CreateRevision(ctx, next); err != nil {
			t.Fatal(err)
		}
		if err := ts.Store.AdvanceSpaceRevision(ctx, sp, prev, next.ID); err != nil {
			t.Fatal(err)
		}
		wantFields(t, ts.must(t, 200, "GET", path(first), admin, nil), map[string]any{"outdated": true})

		// Pulling it in brings the change request up to date; a merged one
		// is never outdated.
		if _, err := ts.Store.UpdateChangeRequest(ctx, sp, str(first, "id"), quire.ChangeRequestUpdate{RevisionMergedAncestor: &next.ID}); err != nil {
			t.Fatal(err)
		}
		merged := quire.CRMerged
		if _, err := ts.Store.UpdateChangeRequest(ctx, sp, str(second, "id"), quire.ChangeRequestUpdate{Status: &merged, RevisionMerged: &next.ID}); err != nil {
			t.Fatal(err)
		}
		got := ts.must(t, 200, "GET", path(first), admin, nil)
		wantFields(t, got, map[string]any{"outdated": false, "revisionMergedAncestor": next.ID, "revisionInitial": prev})
		wantFields(t, ts.must(t, 200, "GET", path(second), admin, nil), map[string]any{"outdated": false, "revisionMerged": next.ID})

		// A new change request starts from the new revision.
		wantFields(t, ts.newChangeRequest(t, sp, "Third"), map[string]any{"revision": next.ID, "revisionInitial": next.ID, "outdated": false})
	})
}

func TestChangeRequestLists(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, editor := ts.token(cAdmin), ts.user(cEdit)
		sp, sp2, gone := ts.newSpace(t, "One"), ts.newSpace(t, "Two"), ts.newSpace(t, "Gone")
		create := func(space, token string) string {
			t.Helper()
			ts.Clock.Advance(time.Millisecond)
			return str(ts.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/change-requests", token, map[string]any{"subject": "C"}), "id")
		}
		setStatus := func(space, id, status string) {
			t.Helper()
			ts.must(t, 200, "PATCH", "/v1/spaces/"+space+"/change-requests/"+id, admin, map[string]any{"status": status})
		}
		a1, e1, a2, e2 := create(sp, admin), create(sp, editor.Token), create(sp, admin), create(sp2, editor.Token)
		b1 := create(sp2, admin)
		g1 := create(gone, admin)
		for _, id := range []string{a1, e1} {
			setStatus(sp, id, "open")
		}
		setStatus(sp2, e2, "open")
		setStatus(sp, a2, "archived")
		setStatus(gone, g1, "open")
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+gone, admin, nil)

		list := func(path, query, token string) []string {
			t.Helper()
			l := ts.must(t, 200, "GET", path+"?"+query, token, nil)
			got := ids(t, l, "id")
			if got == nil {
				got = []string{}
			}
			if int(l["count"].(float64)) != len(got) {
				t.Errorf("%s?%s: count %v with %d items", path, query, l["count"], len(got))
			}
			return got
		}
		spacePath, orgPath := "/v1/spaces/"+sp+"/change-requests", ts.OrgPath("/change-requests")
		for _, c := range []struct {
			path, query string
			want        []string
		}{
			{spacePath, "", []string{e1, a1}},
			{spacePath, "status=open", []string{e1, a1}},
			{spacePath, "status=draft", []string{}},
			{spacePath, "status=archived", []string{a2}},
			{spacePath, "status=merged", []string{}},
			{spacePath, "creator=" + editor.ID, []string{e1}},
			{spacePath, "status=archived&creator=" + editor.ID, []string{}},
			{spacePath, "contributor=" + editor.ID, []string{e1}},
			{spacePath, "contributor=" + ts.user(cRead).ID, []string{}},
			{orgPath, "", []string{e2, e1, a1}},
			{orgPath, "status=draft", []string{b1}},
			{orgPath, "creator=" + editor.ID, []string{e2, e1}},
			{orgPath, "contributor=" + ts.user(cAdmin).ID + "&status=archived", []string{a2}},
		} {
			if got := list(c.path, c.query, ts.token(cRead)); !slices.Equal(got, c.want) {
				t.Errorf("%s?%s: %v, want %v", c.path, c.query, got, c.want)
			}
		}

		// Paging walks the whole list once.
		var seen []string
		next := ""
		for range 10 {
			l := ts.must(t, 200, "GET", orgPath+"?status=open&limit=2&page="+next, admin, nil)
			seen = append(seen, ids(t, l, "id")...)
			next = str(l, "next.page")
			if next == "" {
				break
			}
		}
		if want := []string{e2, e1, a1}; !slices.Equal(seen, want) {
			t.Errorf("paged: %v, want %v", seen, want)
		}
		wantContains(t, ts.mustError(t, 400, "GET", spacePath+"?page=garbage", admin, nil), "page")
		wantContains(t, ts.mustError(t, 400, "GET", spacePath+"?status=all", admin, nil), "status")

		// Callers outside see nothing.
		ts.mustError(t, 404, "GET", spacePath, ts.token(cNonMember), nil)
		ts.mustError(t, 403, "GET", orgPath, ts.token(cGuest), nil)
	})
}
