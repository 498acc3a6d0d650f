package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/internal/quire"
)

// scopeMiss is an operation a scope does not name, with the status a
// token holding only that scope gets: 403 when the scope shows it the
// subject, 404 when the subject is not there for it.
type scopeMiss struct {
	op     string
	status int
}

// scopeMisses names one such operation for every published scope.
func scopeMisses() map[string]scopeMiss {
	return map[string]scopeMiss{
		quire.ScopeSpaceContentRead:   {"createChangeRequest", http.StatusForbidden},
		quire.ScopeSpaceContentWrite:  {"updateSpaceById", http.StatusForbidden},
		quire.ScopeSpaceMetadataRead:  {"listPages", http.StatusForbidden},
		quire.ScopeSpaceMetadataWrite: {"getCurrentRevision", http.StatusForbidden},
		quire.ScopeSpaceGitSync:       {"listPages", http.StatusForbidden},
		"page:feedback:read":          {"getSpaceById", http.StatusNotFound},
		quire.ScopeSiteMetadataRead:   {"updateSiteById", http.StatusForbidden},
		"site:views:read":             {"getSiteById", http.StatusNotFound},
		"site:script:inject":          {"getSiteById", http.StatusNotFound},
		"site:script:cookies":         {"getSiteById", http.StatusNotFound},
		"site:visitor:auth":           {"getSiteById", http.StatusNotFound},
		quire.ScopeSiteAdaptiveRead:   {"updateSiteAdaptiveSchema", http.StatusForbidden},
		quire.ScopeSiteAdaptiveWrite:  {"getSiteCustomizationById", http.StatusForbidden},
		quire.ScopeOpenAPIRead:        {"createOpenAPISpec", http.StatusForbidden},
		quire.ScopeOpenAPIWrite:       {"listSpacesInOrganizationById", http.StatusForbidden},
		"conversations:ingest":        {"getSpaceById", http.StatusNotFound},
	}
}

// publishedScopes are the values of IntegrationScope in the published
// API document.
var publishedScopes = []string{
	"space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write",
	"space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read",
	"site:script:inject", "site:script:cookies", "site:visitor:auth", "site:adaptive:read",
	"site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest",
}

// scopeToken publishes an integration holding one scope, installs it on
// every space and site of the organization and returns an installation
// token.
func (ts *testServer) scopeToken(t *testing.T, scope string) string {
	t.Helper()
	admin := ts.token(cAdmin)
	name := "scope-" + strings.ReplaceAll(scope, ":", "-")
	ts.publish(t, name, map[string]any{"scopes": []string{scope}})
	path := "/v1/integrations/" + name + "/installations/" + ts.install(t, name)
	ts.must(t, http.StatusOK, "PATCH", path, admin, map[string]any{"space_selection": "all", "site_selection": "all"})
	return str(ts.must(t, http.StatusOK, "POST", path+"/tokens", admin, nil), "token")
}

// TestIntegrationScopeTableIsComplete checks that the scope table has a
// row for every published scope and no other, and that each operation it
// names is an operation of the route table.
func TestIntegrationScopeTableIsComplete(t *testing.T) {
	t.Parallel()
	ops := map[string]bool{}
	for _, r := range declaredRoutes(t) {
		ops[r.ID] = true
	}
	rows := map[string]bool{}
	for _, r := range quire.IntegrationScopes() {
		if rows[r.Scope] {
			t.Errorf("scope %s has two rows", r.Scope)
		}
		rows[r.Scope] = true
		for _, op := range r.Operations {
			if !ops[op] {
				t.Errorf("scope %s names %s, which is no operation", r.Scope, op)
			}
		}
		for op := range r.Fields {
			if !slices.Contains(r.Operations, op) {
				t.Errorf("scope %s limits the fields of %s, which it does not name", r.Scope, op)
			}
		}
	}
	for _, s := range publishedScopes {
		if !rows[s] {
			t.Errorf("published scope %s has no row", s)
		}
		if _, ok := scopeMisses()[s]; !ok {
			t.Errorf("published scope %s has no operation it does not allow", s)
		}
	}
	if len(rows) != len(publishedScopes)+1 {
		t.Errorf("%d rows, want one per published scope and the row of every token", len(rows))
	}
}

// TestIntegrationScopes checks every published scope against the table:
// a token holding only that scope, installed on every space and site,
// succeeds at each operation the scope names, and is refused one it does
// not name.
func TestIntegrationScopes(t *testing.T) {
	t.Parallel()
	routes := map[string]Route{}
	for _, r := range declaredRoutes(t) {
		routes[r.ID] = r
	}
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		m := &matrix{ts: ts}
		m.org2, _ = ts.secondOrg(t, "Second Org", "owner@second.test")
		m.guestRead = ts.addUser(t, "guest2@acme.test", "Gina Guest", ts.Org, "")
		call := func(t *testing.T, op, token string) response {
			t.Helper()
			res, _ := m.call(t, routes[op], authzCases[op], token)
			return res
		}
		for _, rule := range quire.IntegrationScopes() {
			if rule.Scope == quire.AnyScope {
				continue
			}
			t.Run(rule.Scope, func(t *testing.T) {
				tok := ts.scopeToken(t, rule.Scope)
				for _, op := range append([]string{"getOrganizationById"}, rule.Operations...) {
					// A rule of the service beyond the table (only its
					// author deletes a comment) holds for the token as
					// for an editor.
					want := authzCases[op].ok
					if beyond := authzCases[op].beyond; beyond != nil && beyond(cEdit) != 0 {
						want = beyond(cEdit)
					}
					if res := call(t, op, tok); res.Status != want {
						t.Errorf("%s with %s: status %d, want %d: %s", op, rule.Scope, res.Status, want, res.Body)
					}
				}
				miss := scopeMisses()[rule.Scope]
				res := call(t, miss.op, tok)
				if res.Status != miss.status {
					t.Errorf("%s with %s: status %d, want %d: %s", miss.op, rule.Scope, res.Status, miss.status, res.Body)
				} else {
					checkErrorBody(t, res)
				}
			})
		}
	})
}

// TestIntegrationSpaceMetadataWrite checks the fields space:metadata:write
// changes: a space's title, emoji, icon and language, and not who may
// see or edit it; and that the space's admins keep changing those.
func TestIntegrationSpaceMetadataWrite(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		tok := ts.scopeToken(t, quire.ScopeSpaceMetadataWrite)
		sp := "/v1/spaces/" + ts.newSpace(t, "Named")
		got := ts.must(t, http.StatusOK, "PATCH", sp, tok, map[string]any{"emoji": "1f4da"})
		if str(got, "emoji") != "1f4da" {
			t.Errorf("emoji after the change: %v", got["emoji"])
		}
		ts.must(t, http.StatusOK, "PATCH", sp, tok, map[string]any{"title": "Renamed", "language": "fr"})
		for field, value := range map[string]any{"visibility": "public", "defaultLevel": "edit", "editMode": "locked"} {
			msg := ts.mustError(t, http.StatusForbidden, "PATCH", sp, tok, map[string]any{field: value})
			if !strings.HasPrefix(msg, field+":") {
				t.Errorf("refusal of %s: %q does not name the field", field, msg)
			}
		}
		got = ts.must(t, http.StatusOK, "GET", sp, ts.token(cAdmin), nil)
		wantFields(t, got, map[string]any{"title": "Renamed", "emoji": "1f4da", "visibility": "private"})
		ts.must(t, http.StatusOK, "PATCH", sp, ts.token(cAdmin), map[string]any{"visibility": "public"})
	})
}
