package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// orgPermissionFlags are the organization flags in response order.
var orgPermissionFlags = []string{"view", "admin", "ownTeam", "createContent", "createOpenAPISpec",
	"ingestConversations", "viewBilling", "listMembers", "listTeams", "listIntegrations",
	"listInstallations", "installIntegration"}

func TestOrganizationGet(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		o := ts.must(t, 200, "GET", ts.OrgPath(""), ts.token(cAdmin), nil)
		wantFields(t, o, map[string]any{
			"object":                "organization",
			"id":                    ts.Org,
			"title":                 "Acme Docs",
			"emailDomains":          []string{},
			"type":                  "business",
			"defaultRole":           "read",
			"sso":                   false,
			"ai":                    false,
			"inviteLinks":           true,
			"plan":                  "free_2024",
			"mergeRules":            map[string]any{"type": "none"},
			"urls.location":         testBaseURL + "/v1/orgs/" + ts.Org,
			"urls.app":              testBaseURL + "/app/o/" + ts.Org,
			"trial":                 map[string]any{"status": "notapplicable"},
			"internal_isOnNewTrial": true,
		})
		wantTimestamp(t, o, "createdAt")
		wantAbsent(t, o, "defaultContent")
		wantAbsent(t, o, "urls.logo")

		// The flags follow the caller's role.
		yes := map[string][]string{
			cAdmin:   orgPermissionFlags,
			cCreate:  {"view", "createContent", "createOpenAPISpec", "listMembers", "listTeams", "listIntegrations"},
			cEdit:    {"view", "listMembers", "listTeams", "listIntegrations"},
			cReview:  {"view", "listMembers", "listTeams", "listIntegrations"},
			cComment: {"view", "listMembers", "listTeams", "listIntegrations"},
			cRead:    {"view", "listMembers", "listTeams", "listIntegrations"},
			cGuest:   {"view"},
		}
		for caller, flags := range yes {
			o := ts.must(t, 200, "GET", ts.OrgPath(""), ts.token(caller), nil)
			perms, _ := o["permissions"].(map[string]any)
			if len(perms) != len(orgPermissionFlags) {
				t.Errorf("%s: permissions %v, want the %d flags", caller, perms, len(orgPermissionFlags))
			}
			for _, f := range orgPermissionFlags {
				if want := slices.Contains(flags, f); perms[f] != want {
					t.Errorf("%s: permissions.%s = %v, want %v", caller, f, perms[f], want)
				}
			}
		}

		ts.mustError(t, 404, "GET", ts.OrgPath(""), ts.token(cNonMember), nil)
		ts.mustError(t, 404, "GET", "/v1/orgs/nosuchorg", ts.token(cAdmin), nil)
	})
}

func TestOrganizationList(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		l := ts.must(t, 200, "GET", "/v1/orgs", ts.token(cRead), nil)
		wantFields(t, l, map[string]any{"count": 1, "items.0.id": ts.Org, "items.0.permissions.admin": false})
		wantAbsent(t, l, "next")

		org2, _ := ts.secondOrg(t, "Second Org", "owner@second.test")
		l = ts.must(t, 200, "GET", "/v1/orgs", ts.token(cAdmin), nil)
		if got := ids(t, l, "id"); !slices.Equal(got, []string{ts.Org, org2}) || l["count"] != float64(2) {
			t.Errorf("admin's organizations %v (count %v), want [%s %s] oldest membership first", got, l["count"], ts.Org, org2)
		}
		l = ts.must(t, 200, "GET", "/v1/orgs?limit=1", ts.token(cAdmin), nil)
		if len(items(t, l)) != 1 || str(l, "next.page") == "" || l["count"] != float64(2) {
			t.Errorf("first page of 1: %v", l)
		}
		l2 := ts.must(t, 200, "GET", "/v1/orgs?limit=1&page="+str(l, "next.page"), ts.token(cAdmin), nil)
		if got := ids(t, l2, "id"); !slices.Equal(got, []string{org2}) || has(l2, "next") {
			t.Errorf("second page: %v", l2)
		}

		l = ts.must(t, 200, "GET", "/v1/orgs", ts.token(cNonMember), nil)
		wantFields(t, l, map[string]any{"count": 0, "items": []any{}})

		l = ts.must(t, 200, "GET", "/v1/orgs", ts.token(cGuest), nil)
		wantFields(t, l, map[string]any{"count": 1, "items.0.permissions.view": true, "items.0.permissions.listMembers": false})
	})
}

func TestOrganizationUpdate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		path := ts.OrgPath("")
		o := ts.must(t, 200, "PATCH", path, admin, map[string]any{
			"title":        "Acme Handbook",
			"emailDomains": []string{"Acme.TEST", "acme.test", " docs.acme.test "},
			"hostname":     "acme-docs",
			"defaultRole":  "comment",
			"logo":         "https://cdn.acme.test/logo.png",
			"sso":          true,
			"ai":           true,
			"inviteLinks":  false,
		})
		want := map[string]any{
			"title":        "Acme Handbook",
			"emailDomains": []string{"acme.test", "docs.acme.test"},
			"hostname":     "acme-docs",
			"defaultRole":  "comment",
			"urls.logo":    "https://cdn.acme.test/logo.png",
			"sso":          true,
			"ai":           true,
			"inviteLinks":  false,
		}
		wantFields(t, o, want)
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), want)

		// Omitted fields are kept; null clears the nullable ones.
		o = ts.must(t, 200, "PATCH", path, admin, map[string]any{"defaultRole": nil, "logo": nil})
		wantFields(t, o, map[string]any{"title": "Acme Handbook", "defaultRole": nil, "hostname": "acme-docs", "sso": true})
		wantAbsent(t, o, "urls.logo")
		o = ts.must(t, 200, "PATCH", path, admin, map[string]any{})
		wantFields(t, o, map[string]any{"title": "Acme Handbook", "defaultRole": nil})

		for _, c := range []struct {
			name  string
			body  map[string]any
			ok    bool
			field string
		}{
			{"title 1 char", map[string]any{"title": "A"}, false, "title"},
			{"title 2 chars", map[string]any{"title": "Ab"}, true, ""},
			{"title blank", map[string]any{"title": "   "}, false, "title"},
			{"title 255 chars", map[string]any{"title": strings.Repeat("t", 255)}, true, ""},
			{"title 256 chars", map[string]any{"title": strings.Repeat("t", 256)}, false, "title"},
			{"hostname 2 chars", map[string]any{"hostname": "ab"}, false, "hostname"},
			{"hostname 3 chars", map[string]any{"hostname": "abc"}, true, ""},
			{"hostname 32 chars", map[string]any{"hostname": strings.Repeat("h", 32)}, true, ""},
			{"hostname 33 chars", map[string]any{"hostname": strings.Repeat("h", 33)}, false, "hostname"},
			{"hostname upper case", map[string]any{"hostname": "Acme"}, false, "hostname"},
			{"hostname leading dash", map[string]any{"hostname": "-acme"}, false, "hostname"},
			{"defaultRole unknown", map[string]any{"defaultRole": "owner"}, false, "defaultRole"},
			{"defaultRole each role", map[string]any{"defaultRole": "admin"}, true, ""},
			{"emailDomains not a domain", map[string]any{"emailDomains": []string{"acme.test", "not a domain"}}, false, "emailDomains[1]"},
			{"emailDomains empty", map[string]any{"emailDomains": []string{}}, true, ""},
			{"defaultContent unknown site", map[string]any{"defaultContent": map[string]any{"type": "site", "site": "nosuchsite"}}, false, "defaultContent"},
			{"defaultContent null", map[string]any{"defaultContent": nil}, true, ""},
			{"logo not a URI", map[string]any{"logo": "not a uri"}, false, "logo"},
			{"mergeRules none", map[string]any{"mergeRules": map[string]any{"type": "none"}}, true, ""},
			{"mergeRules inherit", map[string]any{"mergeRules": map[string]any{"type": "inherit"}}, false, "mergeRules"},
			{"mergeRules unknown type", map[string]any{"mergeRules": map[string]any{"type": "some"}}, false, "mergeRules"},
			{"mergeRules none with rules", map[string]any{"mergeRules": map[string]any{"type": "none",
				"rules": []any{map[string]any{"rule": "allow_bypass", "users": []string{}}}}}, false, "mergeRules.rules"},
			{"mergeRules reviewers without users", map[string]any{"mergeRules": map[string]any{"type": "rules",
				"rules": []any{map[string]any{"rule": "require_specific_reviewers"}}}}, false, "mergeRules.rules[0].users"},
			{"mergeRules custom with users", map[string]any{"mergeRules": map[string]any{"type": "rules",
				"rules": []any{map[string]any{"rule": "custom", "users": []string{"u"}}}}}, false, "mergeRules.rules[0].users"},
			{"mergeRules plain rule with users", map[string]any{"mergeRules": map[string]any{"type": "rules",
				"rules": []any{map[string]any{"rule": "require_at_least_one_review", "users": []string{"u"}}}}}, false, "mergeRules.rules[0]"},
			{"mergeRules unknown rule", map[string]any{"mergeRules": map[string]any{"type": "rules",
				"rules": []any{map[string]any{"rule": "be_nice"}}}}, false, "rule"},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := ts.must(t, 200, "GET", path, admin, nil)
				r := ts.send(t, "PATCH", path, admin, c.body)
				if c.ok {
					if r.Status != 200 {
						t.Fatalf("status %d, want 200: %s", r.Status, r.Body)
					}
					return
				}
				if r.Status != 400 {
					t.Fatalf("status %d, want 400: %s", r.Status, r.Body)
				}
				wantContains(t, checkErrorBody(t, r), c.field)
				if after := ts.must(t, 200, "GET", path, admin, nil); !jsonEqual(after, before) {
					t.Errorf("rejected PATCH changed the organization:\nbefore %v\nafter  %v", before, after)
				}
			})
		}

		// Merge rules round-trip in their three shapes.
		rules := map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_specific_reviewers", "users": []string{ts.user(cReview).ID}},
			map[string]any{"rule": "custom", "expression": "len(reviews) >= 2"},
			map[string]any{"rule": "require_at_least_one_review"},
		}}
		o = ts.must(t, 200, "PATCH", path, admin, map[string]any{"mergeRules": rules})
		wantFields(t, o, map[string]any{"mergeRules": rules})
		wantFields(t, ts.must(t, 200, "GET", path, admin, nil), map[string]any{"mergeRules": rules})
		o = ts.must(t, 200, "PATCH", path, admin, map[string]any{"mergeRules": map[string]any{"type": "none"}})
		wantFields(t, o, map[string]any{"mergeRules": map[string]any{"type": "none"}})
	})
}

func TestJoinOrganization(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		joiner := ts.addUser(t, "jo@joiners.test", "Jo Joiner", "", "")
		stranger := ts.addUser(t, "sam@strangers.test", "Sam Stranger", "", "")

		// No domain allowed yet: the answer is that of an organization
		// that does not exist, body included.
		unknown := ts.send(t, "POST", "/v1/orgs/nosuchorg/join", joiner.Token, nil)
		wantSameAnswer := func(r response) {
			t.Helper()
			if r.Status != http.StatusNotFound || r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
				t.Errorf("refused join: %d %s; unknown organization: %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
			}
			checkErrorBody(t, r)
		}
		wantSameAnswer(ts.send(t, "POST", ts.OrgPath("/join"), joiner.Token, nil))

		ts.must(t, 200, "PATCH", ts.OrgPath(""), admin, map[string]any{"emailDomains": []string{"joiners.test"}, "defaultRole": "comment"})

		// The caller can find the organization through their domain.
		l := ts.must(t, 200, "GET", "/v1/email-domains/joiners.test/orgs", joiner.Token, nil)
		orgs, _ := l["organizations"].([]any)
		if len(orgs) != 1 || str(orgs[0], "id") != ts.Org || field(orgs[0], "permissions.view") != false {
			t.Errorf("organizations for joiners.test: %v", l)
		}
		l = ts.must(t, 200, "GET", "/v1/email-domains/JOINERS.test/orgs", joiner.Token, nil)
		if orgs, _ := l["organizations"].([]any); len(orgs) != 1 {
			t.Errorf("domain lookup is case-sensitive: %v", l)
		}
		ts.mustError(t, 403, "GET", "/v1/email-domains/joiners.test/orgs", stranger.Token, nil)
		l = ts.must(t, 200, "GET", "/v1/email-domains/strangers.test/orgs", stranger.Token, nil)
		wantFields(t, l, map[string]any{"organizations": []any{}})

		// Join: no body, no content type.
		ts.must(t, 204, "POST", ts.OrgPath("/join"), joiner.Token, nil)
		m := ts.must(t, 200, "GET", ts.OrgPath("/members/"+joiner.ID), admin, nil)
		wantFields(t, m, map[string]any{"role": "comment", "user.email": "jo@joiners.test"})
		wantTimestamp(t, m, "joinedAt")
		o := ts.must(t, 200, "GET", ts.OrgPath(""), joiner.Token, nil)
		wantFields(t, o, map[string]any{"permissions.view": true, "permissions.listMembers": true, "permissions.admin": false})

		// Joining again changes nothing.
		ts.must(t, 204, "POST", ts.OrgPath("/join"), joiner.Token, nil)
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+joiner.ID), admin, nil),
			map[string]any{"role": "comment", "joinedAt": m["joinedAt"]})

		// Another domain is refused as if the organization did not exist.
		wantSameAnswer(ts.send(t, "POST", ts.OrgPath("/join"), stranger.Token, nil))
		ts.mustError(t, 404, "GET", ts.OrgPath("/members/"+stranger.ID), admin, nil)

		// A member whose domain is not (or no longer) allowed is already
		// in: nothing changes.
		ts.must(t, 204, "POST", ts.OrgPath("/join"), ts.token(cGuest), nil)
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+ts.user(cGuest).ID), admin, nil), map[string]any{"role": nil})

		// With a null default role the joiner is a guest.
		ts.must(t, 200, "PATCH", ts.OrgPath(""), admin, map[string]any{"emailDomains": []string{"joiners.test", "strangers.test"}, "defaultRole": nil})
		ts.must(t, 204, "POST", ts.OrgPath("/join"), stranger.Token, nil)
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+stranger.ID), admin, nil), map[string]any{"role": nil})
	})
}

func TestPingAndSSO(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		m := ts.must(t, 200, "GET", ts.OrgPath("/members/"+ts.user(cGuest).ID), admin, nil)
		wantAbsent(t, m, "lastSeenAt")

		r := ts.send(t, "POST", ts.OrgPath("/ping"), ts.token(cGuest), nil)
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != "{}" {
			t.Fatalf("ping: %d %s, want 200 {}", r.Status, r.Body)
		}
		m = ts.must(t, 200, "GET", ts.OrgPath("/members/"+ts.user(cGuest).ID), admin, nil)
		wantTimestamp(t, m, "lastSeenAt")

		// Pinging with an empty JSON body works too.
		ts.must(t, 200, "POST", ts.OrgPath("/ping"), ts.token(cRead), rawBody(""))

		l := ts.must(t, 200, "GET", ts.OrgPath("/sso"), ts.token(cGuest), nil)
		wantFields(t, l, map[string]any{"items": []any{}})

		// Mark a member as SSO: no body.
		m = ts.must(t, 200, "POST", ts.OrgPath("/members/"+ts.user(cRead).ID+"/sso"), admin, nil)
		wantFields(t, m, map[string]any{"object": "member", "id": ts.user(cRead).ID, "sso": true})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+ts.user(cRead).ID), admin, nil), map[string]any{"sso": true})
		ts.mustError(t, 404, "POST", ts.OrgPath("/members/nosuchuser/sso"), admin, nil)
		ts.mustError(t, 404, "POST", ts.OrgPath("/members/"+ts.user(cNonMember).ID+"/sso"), admin, nil)
	})
}

func TestDeleteInvite(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		id := ts.newInvite(t)
		ts.must(t, http.StatusResetContent, "DELETE", ts.OrgPath("/link-invites/"+id), ts.token(cAdmin), nil)
		ts.must(t, http.StatusNoContent, "DELETE", ts.OrgPath("/link-invites/"+id), ts.token(cAdmin), nil)
		ts.must(t, http.StatusNoContent, "DELETE", ts.OrgPath("/link-invites/nosuchinvite"), ts.token(cAdmin), nil)
	})
}

func TestCallerAndAPIInformation(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		u := ts.user(cEdit)
		me := ts.must(t, 200, "GET", "/v1/user", u.Token, nil)
		wantFields(t, me, map[string]any{"object": "user", "id": u.ID, "displayName": u.Name, "email": u.Email,
			"urls.location": testBaseURL + "/v1/users/" + u.ID})
		wantAbsent(t, me, "photoURL")

		info := ts.must(t, 200, "GET", "/v1/", ts.token(cNonMember), nil)
		if _, ok := info["version"].(string); !ok {
			t.Errorf("version missing: %v", info)
		}
		if _, ok := info["build"].(string); !ok {
			t.Errorf("build missing: %v", info)
		}
	})
}

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	routes := declaredRoutes(t)
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		doc, ops := fetchOpenAPI(t, ts)
		if doc.OpenAPI != "3.1.0" {
			t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
		}
		byID := map[string]operation{}
		for _, op := range ops {
			byID[op.OperationID] = op
		}
		for _, r := range routes {
			op, ok := byID[r.ID]
			if !ok {
				t.Errorf("operation %s missing from the document", r.ID)
				continue
			}
			if op.Method != r.Method || op.Path != r.Path {
				t.Errorf("%s documented as %s %s, routed as %s %s", r.ID, op.Method, op.Path, r.Method, r.Path)
			}
			if _, ok := op.Responses["422"]; ok {
				t.Errorf("%s documents a 422; validation failures are 400", r.ID)
			}
		}
		if len(ops) != len(routes) {
			t.Errorf("document has %d operations, route table %d", len(ops), len(routes))
		}
		// Served without a token, even a bad one.
		if r := ts.sendAuth(t, "GET", "/v1/openapi.json", "Bearer garbage", nil); r.Status != 200 {
			t.Errorf("openapi.json with a bad token: %d", r.Status)
		}
	})
}
