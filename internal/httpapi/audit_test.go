package httpapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"quire/internal/quire"
)

func TestAuditEventsAfterRoleChangeAndToken(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin, reader := ts.user(cAdmin), ts.user(cRead)
		ts.must(t, 200, "PATCH", ts.OrgPath("/members/"+reader.ID), admin.Token, map[string]any{"role": "comment"})
		u, err := ts.Store.User(t.Context(), reader.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ts.Svc.CreatePersonalToken(t.Context(), u, "laptop"); err != nil {
			t.Fatal(err)
		}

		all := ts.must(t, 200, "GET", ts.OrgPath("/audit-events"), admin.Token, nil)
		got := items(t, all)
		// The fixture's members were added first, by the server.
		if len(got) < 3 || got[2]["action"] != "member.added" || got[2]["actor"] != "" {
			t.Fatalf("events: %v", got)
		}
		wantFields(t, got[0], map[string]any{"object": "audit-event", "action": "token.created", "actor": reader.ID,
			"target.kind": "token", "details.name": "laptop"})
		wantFields(t, got[1], map[string]any{"object": "audit-event", "action": "member.role_changed", "actor": admin.ID,
			"target.kind": "user", "target.id": reader.ID, "details.from": "read", "details.to": "comment"})
		wantTimestamp(t, got[1], "createdAt")
		wantAbsent(t, all, "next")
		wantAbsent(t, all, "count")

		// Filters and pages.
		one := items(t, ts.must(t, 200, "GET", ts.OrgPath("/audit-events?action=member.role_changed"), admin.Token, nil))
		if len(one) != 1 || one[0]["action"] != "member.role_changed" {
			t.Fatalf("by action: %v", one)
		}
		one = items(t, ts.must(t, 200, "GET", ts.OrgPath("/audit-events?actor="+reader.ID), admin.Token, nil))
		if len(one) != 1 || one[0]["action"] != "token.created" {
			t.Fatalf("by actor: %v", one)
		}
		none := items(t, ts.must(t, 200, "GET", ts.OrgPath("/audit-events?until=2000-01-01T00:00:00Z"), admin.Token, nil))
		if len(none) != 0 {
			t.Fatalf("until long ago: %v", none)
		}
		first := ts.must(t, 200, "GET", ts.OrgPath("/audit-events?limit=1"), admin.Token, nil)
		next, _ := first["next"].(map[string]any)
		if next == nil {
			t.Fatalf("no next page: %v", first)
		}
		second := items(t, ts.must(t, 200, "GET", ts.OrgPath("/audit-events?limit=1&page="+next["page"].(string)), admin.Token, nil))
		if len(second) != 1 || second[0]["action"] != "member.role_changed" {
			t.Fatalf("second page: %v", second)
		}

		// JSON lines, by query or by Accept.
		r := ts.send(t, "GET", ts.OrgPath("/audit-events?format=jsonl"), admin.Token, nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != ndjson {
			t.Fatalf("jsonl: %d %q %s", r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
		if len(lines) != len(got) {
			t.Fatalf("jsonl: %d lines, want %d: %q", len(lines), len(got), lines)
		}
		var line map[string]any
		if err := json.Unmarshal([]byte(lines[1]), &line); err != nil || line["action"] != "member.role_changed" {
			t.Fatalf("jsonl line: %v %v", line, err)
		}
		req, _ := http.NewRequest("GET", ts.URL+ts.OrgPath("/audit-events?action=token.created"), nil)
		req.Header.Set("Authorization", "Bearer "+admin.Token)
		req.Header.Set("Accept", ndjson)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var one1 map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&one1); err != nil || one1["action"] != "token.created" {
			t.Fatalf("accept ndjson: %v %v", one1, err)
		}
		resp.Body.Close()
		if resp.Header.Get("Content-Type") != ndjson {
			t.Fatalf("accept ndjson: content type %q", resp.Header.Get("Content-Type"))
		}
	})
}

func TestAuditEventsRefusals(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		ts.mustError(t, 403, "GET", ts.OrgPath("/audit-events"), ts.token(cCreate), nil)
		ts.mustError(t, 403, "GET", ts.OrgPath("/audit-events?format=jsonl"), ts.token(cRead), nil)
		ts.mustError(t, 404, "GET", ts.OrgPath("/audit-events"), ts.token(cNonMember), nil)
		admin := ts.token(cAdmin)
		for query, field := range map[string]string{
			"action=member.eaten": "action",
			"since=yesterday":     "since",
			"until=2024-13-01":    "until",
			"format=xml":          "format",
			"limit=5000":          "limit",
			"page=nonsense":       "page",
		} {
			msg := ts.mustError(t, 400, "GET", ts.OrgPath("/audit-events?"+query), admin, nil)
			if !strings.Contains(msg, field) {
				t.Errorf("%s: message %q does not name %s", query, msg, field)
			}
		}
		msg := ts.mustError(t, 400, "GET", ts.OrgPath("/audit-events?since=2024-03-02T00:00:00Z&until=2024-03-01T00:00:00Z"), admin, nil)
		if !strings.Contains(msg, "until") {
			t.Errorf("until before since: %q", msg)
		}
	})
}

// TestAuditActionsDeclared checks that the declarations' enums of audit
// actions list every action the domain has, in its order.
func TestAuditActionsDeclared(t *testing.T) {
	t.Parallel()
	var want []string
	for _, a := range quire.AuditActions() {
		want = append(want, string(a))
	}
	for _, f := range []reflect.StructField{
		mustField(t, reflect.TypeOf(auditEventJSON{}), "Action"),
		mustField(t, reflect.TypeOf(auditListParams{}), "Action"),
	} {
		if got := strings.Split(f.Tag.Get("enum"), ","); !reflect.DeepEqual(got, want) {
			t.Errorf("enum %v, want %v", got, want)
		}
	}
}

// mustField returns a struct type's field by name.
func mustField(t *testing.T, typ reflect.Type, name string) reflect.StructField {
	t.Helper()
	f, ok := typ.FieldByName(name)
	if !ok {
		t.Fatalf("%s has no field %s", typ, name)
	}
	return f
}
