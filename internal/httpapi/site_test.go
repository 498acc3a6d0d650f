package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/internal/quire"
)

// newSite creates a site as the admin and returns its id.
func (ts *testServer) newSite(t *testing.T, body map[string]any) string {
	t.Helper()
	return str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/sites"), ts.token(cAdmin), body), "id")
}

// sitePath is the path of a site, followed by suffix.
func (ts *testServer) sitePath(site, suffix string) string {
	return ts.OrgPath("/sites/" + site + suffix)
}

// structureIDs flattens a site structure answer into "kind:title" lines
// in order, children indented.
func structureIDs(t *testing.T, v any, indent string) []string {
	t.Helper()
	var out []string
	list, _ := v.([]any)
	for _, it := range list {
		m := it.(map[string]any)
		switch m["object"] {
		case "site-section-group":
			out = append(out, indent+"group:"+str(m, "title"))
			out = append(out, structureIDs(t, m["children"], indent+"  ")...)
		case "site-section":
			line := indent + "section:" + str(m, "title")
			for _, ss := range m["siteSpaces"].([]any) {
				line += " " + str(ss, "path")
				if ss.(map[string]any)["default"] == true {
					line += "*"
				}
			}
			if m["default"] == true {
				line += " (default)"
			}
			out = append(out, line)
		case "site-space":
			line := indent + "space:" + str(m, "path")
			if m["default"] == true {
				line += "*"
			}
			out = append(out, line)
		}
	}
	return out
}

func TestSites(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		guides, api, blog := ts.newSpace(t, "Guides"), ts.newSpace(t, "API"), ts.newSpace(t, "Blog")
		site := ts.newSite(t, map[string]any{"title": "Docs", "spaces": []string{guides, api}})
		got := ts.must(t, 200, "GET", ts.sitePath(site, ""), admin, nil)
		wantFields(t, got, map[string]any{"object": "site", "type": "basic", "title": "Docs", "visibility": "public",
			"published": false, "siteSpaces": float64(2), "agentsContext": "included"})
		wantAbsent(t, got, "urls.published")

		// Root site spaces: the first is the default, paths from titles.
		st := ts.must(t, 200, "GET", ts.sitePath(site, "/structure"), admin, nil)
		wantFields(t, st, map[string]any{"type": "siteSpaces"})
		if got, want := structureIDs(t, st["structure"], ""), []string{"space:guides*", "space:api"}; !slices.Equal(got, want) {
			t.Fatalf("structure %v, want %v", got, want)
		}
		// A second site space of the same space gets the next free path.
		dup := ts.must(t, 201, "POST", ts.sitePath(site, "/site-spaces"), admin, map[string]any{"spaceId": guides})
		wantFields(t, dup, map[string]any{"path": "guides-2", "default": false, "space.id": guides, "title": "Guides"})
		ts.must(t, 205, "DELETE", ts.sitePath(site, "/site-spaces/"+str(dup, "id")), admin, nil)
		ts.must(t, 204, "DELETE", ts.sitePath(site, "/site-spaces/"+str(dup, "id")), admin, nil)

		// The first section takes the root site spaces into a section of
		// their own, keeping their default.
		sec := ts.must(t, 201, "POST", ts.sitePath(site, "/sections"), admin, map[string]any{"spaceId": blog, "title": "Blog posts"})
		wantFields(t, sec, map[string]any{"object": "site-section", "title": "Blog posts", "path": "blog-posts", "default": false})
		st = ts.must(t, 200, "GET", ts.sitePath(site, "/structure"), admin, nil)
		wantFields(t, st, map[string]any{"type": "sections"})
		if got, want := structureIDs(t, st["structure"], ""), []string{"section:Guides guides* api (default)", "section:Blog posts blog*"}; !slices.Equal(got, want) {
			t.Fatalf("structure %v, want %v", got, want)
		}
		first := str(st["structure"].([]any)[0], "id")

		// Groups: the two sections in one group.
		g := ts.must(t, 201, "POST", ts.sitePath(site, "/section-groups"), admin,
			map[string]any{"title": "Everything", "sections": []string{first, str(sec, "id")}})
		wantFields(t, g, map[string]any{"object": "site-section-group", "title": "Everything"})
		if n := len(g["children"].([]any)); n != 2 {
			t.Fatalf("group children: %d", n)
		}
		inner := ts.must(t, 201, "POST", ts.sitePath(site, "/section-groups"), admin,
			map[string]any{"title": "Inner", "parent": str(g, "id")})
		wantFields(t, inner, map[string]any{"sectionGroup": str(g, "id")})
		// Groups nest once.
		wantContains(t, ts.mustError(t, 400, "POST", ts.sitePath(site, "/section-groups"), admin,
			map[string]any{"title": "Too deep", "parent": str(inner, "id")}), "parent")
		ts.must(t, 205, "DELETE", ts.sitePath(site, "/section-groups/"+str(inner, "id")), admin, nil)

		// Sort: the blog section first.
		moved := ts.must(t, 200, "PATCH", ts.sitePath(site, "/structure/sort"), admin, map[string]any{
			"item": map[string]any{"type": "site-section", "id": str(sec, "id")}, "position": map[string]any{"before": map[string]any{"type": "site-section", "id": first}}})
		wantFields(t, moved, map[string]any{"id": str(sec, "id"), "sectionGroup": str(g, "id")})
		st = ts.must(t, 200, "GET", ts.sitePath(site, "/structure"), admin, nil)
		if got, want := structureIDs(t, st["structure"], ""), []string{"group:Everything", "  section:Blog posts blog*", "  section:Guides guides* api (default)"}; !slices.Equal(got, want) {
			t.Fatalf("structure after sort %v, want %v", got, want)
		}
		// Invalid positions answer 400.
		for _, pos := range []map[string]any{
			{"before": map[string]any{"type": "site-section", "id": "nosuch"}},
			{"before": map[string]any{"type": "site-space", "id": str(dup, "id")}},
			{"before": map[string]any{"type": "site-section", "id": str(sec, "id")}},
		} {
			wantContains(t, ts.mustError(t, 400, "PATCH", ts.sitePath(site, "/structure/sort"), admin, map[string]any{
				"item": map[string]any{"type": "site-section", "id": str(sec, "id")}, "position": pos}), "position")
		}
		ts.mustError(t, 404, "PATCH", ts.sitePath(site, "/structure/sort"), admin, map[string]any{
			"item": map[string]any{"type": "site-space", "id": "nosuch"}, "position": map[string]any{}})

		// Defaults: the blog section, and api in the guides section.
		ts.must(t, 200, "PATCH", ts.sitePath(site, ""), admin, map[string]any{"defaultSiteSection": str(sec, "id")})
		spaces := ts.must(t, 200, "GET", ts.sitePath(site, "/site-spaces"), admin, nil)
		var apiSS string
		for _, it := range items(t, spaces) {
			if str(it, "path") == "api" {
				apiSS = str(it, "id")
			}
		}
		ts.must(t, 200, "PATCH", ts.sitePath(site, "/sections/"+first), admin, map[string]any{"defaultSiteSpace": apiSS})
		st = ts.must(t, 200, "GET", ts.sitePath(site, "/structure"), admin, nil)
		if got, want := structureIDs(t, st["structure"], ""), []string{"group:Everything", "  section:Blog posts blog* (default)", "  section:Guides guides api*"}; !slices.Equal(got, want) {
			t.Fatalf("structure after defaults %v, want %v", got, want)
		}
		defaults := ts.must(t, 200, "GET", ts.sitePath(site, "/site-spaces?default=true"), admin, nil)
		if got := ids(t, defaults, "path"); !slices.Equal(got, []string{"blog"}) {
			t.Errorf("default site spaces %v", got)
		}
		others := ts.must(t, 200, "GET", ts.sitePath(site, "/site-spaces?default=false"), admin, nil)
		if got := ids(t, others, "path"); !slices.Equal(got, []string{"guides", "api"}) {
			t.Errorf("other site spaces %v", got)
		}
		wantContains(t, ts.mustError(t, 400, "PATCH", ts.sitePath(site, "/sections/"+first), admin,
			map[string]any{"defaultSiteSpace": "nosuch"}), "defaultSiteSpace")
		wantContains(t, ts.mustError(t, 400, "PATCH", ts.sitePath(site, "/sections/"+first), admin,
			map[string]any{"path": "blog-posts"}), "path")

		// Deleting the default site space's space moves the default on.
		ts.must(t, 205, "DELETE", "/v1/spaces/"+api, admin, nil)
		st = ts.must(t, 200, "GET", ts.sitePath(site, "/structure"), admin, nil)
		if got, want := structureIDs(t, st["structure"], ""), []string{"group:Everything", "  section:Blog posts blog* (default)", "  section:Guides guides*"}; !slices.Equal(got, want) {
			t.Fatalf("structure after deleting a space %v, want %v", got, want)
		}
		wantFields(t, ts.must(t, 200, "GET", ts.sitePath(site, ""), admin, nil), map[string]any{"siteSpaces": float64(2)})

		// The list filters.
		other := ts.newSite(t, map[string]any{"title": "Other", "type": "premium"})
		filtered := func(q string) []string {
			return ids(t, ts.must(t, 200, "GET", ts.OrgPath("/sites?"+q), admin, nil), "id")
		}
		if got := filtered("space=" + guides); !slices.Equal(got, []string{site}) {
			t.Errorf("space filter: %v", got)
		}
		if got := filtered("title=oth"); !slices.Equal(got, []string{other}) {
			t.Errorf("title filter: %v", got)
		}
		if got := filtered("type=premium&type=ultimate"); !slices.Equal(got, []string{other}) {
			t.Errorf("type filter: %v", got)
		}

		// Publishing and the published addresses.
		ts.must(t, 200, "PATCH", ts.sitePath(site, ""), admin, map[string]any{"basename": "docs", "visibility": "share-link"})
		pub := ts.must(t, 200, "POST", ts.sitePath(site, "/publish"), admin, nil)
		wantFields(t, pub, map[string]any{"published": true, "urls.published": testBaseURL + "/sites/docs/"})
		wantContains(t, ts.mustError(t, 409, "PATCH", ts.sitePath(other, ""), admin, map[string]any{"basename": "docs"}), "basename")
		secs := ts.must(t, 200, "GET", ts.sitePath(site, "/sections"), admin, nil)
		if got := ids(t, secs, "urls.published"); !slices.Equal(got, []string{testBaseURL + "/sites/docs/", testBaseURL + "/sites/docs/guides/"}) {
			t.Errorf("section addresses %v", got)
		}

		// Share links: a key reads the published site; deleting the link
		// revokes it at once.
		link := ts.must(t, 201, "POST", ts.sitePath(site, "/share-links"), admin, map[string]any{"name": "Reviewers"})
		key := strings.TrimSuffix(strings.TrimPrefix(str(link, "urls.published"), testBaseURL+"/sites/docs/~share/"), "/")
		if key == "" || strings.Contains(key, "/") {
			t.Fatalf("share link address %s", str(link, "urls.published"))
		}
		shared := ts.must(t, 200, "GET", ts.sitePath(site, "/sections?shareKey="+key), admin, nil)
		if got := ids(t, shared, "urls.published")[0]; got != testBaseURL+"/sites/docs/~share/"+key+"/" {
			t.Errorf("shared address %s", got)
		}
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/structure?shareKey=wrong"), admin, nil)
		ts.must(t, 200, "PATCH", ts.sitePath(site, "/share-links/"+str(link, "id")), admin, map[string]any{"active": false})
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/structure?shareKey="+key), admin, nil)
		ts.must(t, 200, "PATCH", ts.sitePath(site, "/share-links/"+str(link, "id")), admin, map[string]any{"active": true})
		ts.must(t, 200, "GET", ts.sitePath(site, "/site-spaces?shareKey="+key), admin, nil)
		ts.must(t, 205, "DELETE", ts.sitePath(site, "/share-links/"+str(link, "id")), admin, nil)
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/site-spaces?shareKey="+key), admin, nil)
		// An unpublished site opens to no key.
		link = ts.must(t, 201, "POST", ts.sitePath(site, "/share-links"), admin, map[string]any{"name": "Again"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/unpublish"), admin, nil)
		wantAbsent(t, link, "nothing")
		if l := ts.must(t, 200, "GET", ts.sitePath(site, "/share-links"), admin, nil); len(items(t, l)) != 1 {
			t.Errorf("share links: %v", l)
		}

		// Another organization's site is not found.
		org2, owner := ts.secondOrg(t, "Second", "owner@second.test")
		ts.mustError(t, 404, "GET", "/v1/orgs/"+org2+"/sites/"+site, owner.Token, nil)

		// Deleting the site leaves the spaces.
		ts.must(t, 205, "DELETE", ts.sitePath(site, ""), admin, nil)
		ts.must(t, 204, "DELETE", ts.sitePath(site, ""), admin, nil)
		ts.mustError(t, 404, "GET", ts.sitePath(site, ""), admin, nil)
		ts.must(t, 200, "GET", "/v1/spaces/"+guides, admin, nil)
	})
}

// visitorSchema is a visitor schema with a signed and an unsigned claim.
func visitorSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"properties": map[string]any{
			"isBeta": map[string]any{"type": "boolean", "description": "In the beta program"},
			"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.",
				"properties":           map[string]any{"lang": map[string]any{"type": "string", "enum": []string{"en", "fr"}, "description": "Language"}},
				"additionalProperties": false},
		},
		"additionalProperties": false,
	}
}

func TestSiteAdaptiveContent(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		site := ts.newSite(t, map[string]any{"title": "Docs"})
		sec := ts.must(t, 201, "POST", ts.sitePath(site, "/sections"), admin, map[string]any{"spaceId": ts.newSpace(t, "Guides")})
		ss := str(sec["siteSpaces"].([]any)[0], "id")
		secPath, ssPath := ts.sitePath(site, "/sections/"+str(sec, "id")), ts.sitePath(site, "/site-spaces/"+ss)

		// No schema yet: 404, no template conditions, and no claim may be
		// named.
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/adaptive-schema"), admin, nil)
		tc := ts.must(t, 200, "GET", ts.sitePath(site, "/adaptive-schema/template-conditions"), admin, nil)
		wantFields(t, tc, map[string]any{"items": []any{}})
		wantContains(t, ts.mustError(t, 400, "PATCH", secPath, admin, map[string]any{"condition": "visitor.claims.isBeta"}), "condition")

		// Bad schemas are refused naming where.
		bad := visitorSchema()
		bad["properties"].(map[string]any)["isBeta"] = map[string]any{"type": "date", "description": "x"}
		wantContains(t, ts.mustError(t, 400, "PUT", ts.sitePath(site, "/adaptive-schema"), admin, map[string]any{"jsonSchema": bad}), "jsonSchema")
		wantContains(t, ts.mustError(t, 400, "PUT", ts.sitePath(site, "/adaptive-schema"), admin, map[string]any{"jsonSchema": []int{1}}), "jsonSchema")
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/adaptive-schema"), admin, nil)

		got := ts.must(t, 200, "PUT", ts.sitePath(site, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		wantFields(t, got, map[string]any{"object": "site-adaptive-schema", "jsonSchema": visitorSchema()})
		wantTimestamp(t, got, "updatedAt")
		wantFields(t, ts.must(t, 200, "GET", ts.sitePath(site, "/adaptive-schema"), admin, nil), map[string]any{"jsonSchema": visitorSchema()})
		tc = ts.must(t, 200, "GET", ts.sitePath(site, "/adaptive-schema/template-conditions"), admin, nil)
		conds := ids(t, tc, "condition")
		if !slices.Contains(conds, "visitor.claims.isBeta") {
			t.Errorf("template conditions %v", conds)
		}

		// Conditions that fit the schema are kept; others answer 400 with
		// where the error is.
		wantFields(t, ts.must(t, 200, "PATCH", secPath, admin, map[string]any{"condition": "visitor.claims.isBeta"}),
			map[string]any{"condition": "visitor.claims.isBeta"})
		wantFields(t, ts.must(t, 200, "PATCH", ssPath, admin, map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`}),
			map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`})
		msg := ts.mustError(t, 400, "PATCH", ssPath, admin, map[string]any{"condition": "visitor.claims.isBeta &&"})
		wantContains(t, msg, "condition")
		wantContains(t, msg, "column")
		wantContains(t, ts.mustError(t, 400, "PATCH", secPath, admin, map[string]any{"condition": "visitor.claims.nope"}), "condition")
		wantContains(t, ts.mustError(t, 400, "PATCH", secPath, admin, map[string]any{"condition": strings.Repeat("a", 1025)}), "condition")
		// Null removes a condition; omitting it keeps it.
		wantFields(t, ts.must(t, 200, "PATCH", ssPath, admin, map[string]any{"path": "guide"}), map[string]any{"condition": `visitor.claims.unsigned.lang == "fr"`})
		wantAbsent(t, ts.must(t, 200, "PATCH", ssPath, admin, map[string]any{"condition": nil}), "condition")
		wantAbsent(t, ts.must(t, 200, "PATCH", secPath, admin, map[string]any{"condition": nil}), "condition")
	})
}

// siteFixture is a site with a section holding a site space, a section
// group and a share link, for the authorization matrix.
type siteFixture struct {
	site, section, siteSpace, group, shareLink, key string
}

// newSiteFixture builds a siteFixture as the admin.
func (ts *testServer) newSiteFixture(t *testing.T) siteFixture {
	t.Helper()
	admin := ts.token(cAdmin)
	var f siteFixture
	f.site = ts.newSite(t, map[string]any{"title": "Matrix site"})
	sec := ts.must(t, 201, "POST", ts.sitePath(f.site, "/sections"), admin, map[string]any{"spaceId": ts.newSpace(t, "Site space")})
	f.section, f.siteSpace = str(sec, "id"), str(sec["siteSpaces"].([]any)[0], "id")
	f.group = str(ts.must(t, 201, "POST", ts.sitePath(f.site, "/section-groups"), admin, map[string]any{"title": "Group"}), "id")
	link := ts.must(t, 201, "POST", ts.sitePath(f.site, "/share-links"), admin, map[string]any{"name": "Link"})
	f.shareLink = str(link, "id")
	ts.must(t, 200, "POST", ts.sitePath(f.site, "/publish"), admin, nil)
	l := ts.must(t, 200, "GET", ts.sitePath(f.site, "/share-links"), admin, nil)
	pub := str(items(t, l)[0], "urls.published")
	f.key = strings.TrimSuffix(pub[strings.LastIndex(strings.TrimSuffix(pub, "/"), "/")+1:], "/")
	return f
}

// params are the fixture's path parameters.
func (f siteFixture) params() map[string]string {
	return pathParams("siteId", f.site, "siteSectionId", f.section, "siteSpaceId", f.siteSpace,
		"siteSectionGroupId", f.group, "shareLinkId", f.shareLink)
}

// siteCase is a matrix case on a fresh site fixture: ok, with the body
// body(f) and the query query(f) when given.
func siteCase(ok int, body func(t *testing.T, m *matrix, f siteFixture) any) authzCase {
	return authzCase{ok: ok, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.ts.newSiteFixture(t)
		var b any
		if body != nil {
			b = body(t, m, f)
		}
		return f.params(), b
	}}
}

// siteStill checks after a refused change that the site's structure is
// as the fixture left it.
func siteStill(t *testing.T, m *matrix, ps map[string]string) {
	t.Helper()
	st := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/structure"), m.ts.token(cAdmin), nil)
	if got, want := structureIDs(t, st["structure"], ""), []string{"section:Site space site-space* (default)", "group:Group"}; !slices.Equal(got, want) {
		t.Errorf("structure after a refused change: %v, want %v", got, want)
	}
	site := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], ""), m.ts.token(cAdmin), nil)
	wantFields(t, site, map[string]any{"title": "Matrix site", "published": true})
	links := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/share-links"), m.ts.token(cAdmin), nil)
	wantFields(t, items(t, links)[0], map[string]any{"name": "Link", "active": true})
}

// siteChange is siteCase for a change, checked with siteStill.
func siteChange(ok int, body func(t *testing.T, m *matrix, f siteFixture) any) authzCase {
	c := siteCase(ok, body)
	c.still = siteStill
	return c
}

// siteRead is the case of a read of a fresh site fixture.
func siteRead() authzCase { return siteCase(200, nil) }

// siteBodyCase is a malformed-body case on a fresh site fixture, whose
// snapshot is the site, its structure, share links, visitor schema and
// publishing authentication.
func siteBodyCase(c bodyCase) bodyCase {
	c.setup = func(t *testing.T, ts *testServer) map[string]string { return ts.newSiteFixture(t).params() }
	c.snapshot = func(t *testing.T, ts *testServer, ps map[string]string) string {
		base := ts.sitePath(ps["siteId"], "")
		return snap(fixed(base), fixed(base+"/structure"), fixed(base+"/share-links"), fixed(base+"/adaptive-schema"),
			fixed(base+"/publishing/auth"))(t, ts, ps)
	}
	return c
}

// siteBodyCases are the malformed-body cases of the site operations.
func siteBodyCases() map[string]bodyCase {
	item := func(typ, id string) map[string]any { return map[string]any{"type": typ, "id": id} }
	return map[string]bodyCase{
		"createSite": {
			valid:     map[string]any{"title": "Site"},
			wrongType: map[string]map[string]any{"title": {"title": 1}, "spaces": {"spaces": "x"}, "type": {"type": 2}},
			invalid: []invalidBody{
				{"unknown type", map[string]any{"type": "gold"}, "type"},
				{"unknown visibility", map[string]any{"visibility": "secret"}, "visibility"},
				{"short title", map[string]any{"title": "A"}, "title"},
				{"space of no one", map[string]any{"spaces": []string{"nosuch"}}, "spaces[0]"},
			},
			snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
				return snap(fixed(ts.OrgPath("/sites")))(t, ts, ps)
			},
		},
		"updateSiteById": siteBodyCase(bodyCase{
			valid:     map[string]any{"title": "Renamed"},
			wrongType: map[string]map[string]any{"title": {"title": 1}, "adaptiveContent": {"adaptiveContent": true}, "proxy": {"proxy": 3}},
			invalid: []invalidBody{
				{"proxy without a path", map[string]any{"proxy": "example.com"}, "proxy"},
				{"unknown agents context", map[string]any{"agentsContext": "some"}, "agentsContext"},
				{"empty basename", map[string]any{"basename": ""}, "basename"},
				{"default site space elsewhere", map[string]any{"defaultSiteSpace": "nosuch"}, "defaultSiteSpace"},
				{"default section elsewhere", map[string]any{"defaultSiteSection": "nosuch"}, "defaultSiteSection"},
			},
		}),
		"updateSiteAdaptiveSchema": siteBodyCase(bodyCase{
			valid:     map[string]any{"jsonSchema": visitorSchema()},
			wrongType: map[string]map[string]any{"jsonSchema": {"jsonSchema": "object"}},
			required:  []string{"jsonSchema"},
			invalid: []invalidBody{
				{"not draft-07", map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": 5}}, "additionalProperties": false}}, "jsonSchema"},
				{"open object", map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{}}}, "jsonSchema"},
			},
		}),
		"sortSiteStructure": siteBodyCase(bodyCase{
			valid:     map[string]any{"item": item("site-section", "x"), "position": map[string]any{}},
			wrongType: map[string]map[string]any{"item": {"item": "x", "position": map[string]any{}}, "position": {"item": item("site-section", "x"), "position": 1}},
			required:  []string{"item", "position"},
			invalid: []invalidBody{
				{"unknown item type", map[string]any{"item": item("page", "x"), "position": map[string]any{}}, "type"},
				{"unknown anchor", map[string]any{"item": item("site-section-group", ""), "position": map[string]any{}}, "id"},
			},
		}),
		"createSiteShareLink": siteBodyCase(bodyCase{
			valid:     map[string]any{"name": "Link"},
			wrongType: map[string]map[string]any{"name": {"name": 1}},
			required:  []string{"name"},
			invalid:   []invalidBody{{"long name", map[string]any{"name": strings.Repeat("n", 51)}, "name"}},
		}),
		"updateSiteShareLinkById": siteBodyCase(bodyCase{
			valid:     map[string]any{"name": "Renamed"},
			wrongType: map[string]map[string]any{"active": {"active": "yes"}},
			invalid:   []invalidBody{{"nothing", map[string]any{}, "active"}},
		}),
		"updateSitePublishingAuthById": siteBodyCase(bodyCase{
			valid:     map[string]any{"backend": "custom"},
			wrongType: map[string]map[string]any{"backend": {"backend": 1}, "fallbackURL": {"backend": "custom", "fallbackURL": 3}},
			required:  []string{"backend"},
			invalid: []invalidBody{
				{"unknown backend", map[string]any{"backend": "saml"}, "backend"},
				{"integration not installed", map[string]any{"backend": "integration"}, "backend"},
				{"fallback not a URL", map[string]any{"backend": "custom", "fallbackURL": "sign in here"}, "fallbackURL"},
				{"fallback of another scheme", map[string]any{"backend": "custom", "fallbackURL": "javascript:alert(1)"}, "fallbackURL"},
				{"long fallback", map[string]any{"backend": "custom", "fallbackURL": "https://example.com/" + strings.Repeat("a", 2048)}, "fallbackURL"},
			},
		}),
		"addSectionToSite": siteBodyCase(bodyCase{
			valid:     map[string]any{"spaceId": "nosuch"},
			wrongType: map[string]map[string]any{"spaceId": {"spaceId": 1}, "title": {"spaceId": "x", "title": 2}},
			required:  []string{"spaceId"},
			invalid: []invalidBody{
				{"space of no one", map[string]any{"spaceId": "nosuch"}, "spaceId"},
				{"long icon", map[string]any{"spaceId": "x", "icon": strings.Repeat("i", 51)}, "icon"},
			},
		}),
		"updateSiteSectionById": siteBodyCase(bodyCase{
			valid:     map[string]any{"title": "Renamed"},
			wrongType: map[string]map[string]any{"title": {"title": 1}, "condition": {"condition": true}},
			invalid: []invalidBody{
				{"condition naming no claim", map[string]any{"condition": "visitor.claims.beta"}, "condition"},
				{"condition that does not parse", map[string]any{"condition": "(("}, "condition"},
				{"long description", map[string]any{"description": strings.Repeat("d", 257)}, "description"},
				{"path with a slash", map[string]any{"path": "a/b"}, "path"},
			},
		}),
		"moveSiteSection": siteBodyCase(bodyCase{
			valid:     map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": "x"}}},
			wrongType: map[string]map[string]any{"position": {"position": "first"}},
			invalid:   []invalidBody{{"unknown anchor", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": "nosuch"}}}, "position.before"}},
		}),
		"addSectionGroupToSite": siteBodyCase(bodyCase{
			valid:     map[string]any{"title": "Group"},
			wrongType: map[string]map[string]any{"title": {"title": 1}, "sections": {"title": "G", "sections": "x"}},
			required:  []string{"title"},
			invalid: []invalidBody{
				{"unknown section", map[string]any{"title": "G", "sections": []string{"nosuch"}}, "sections[0]"},
				{"unknown parent", map[string]any{"title": "G", "parent": "nosuch"}, "parent"},
			},
		}),
		"updateSiteSectionGroupById": siteBodyCase(bodyCase{
			valid:     map[string]any{"title": "Renamed"},
			wrongType: map[string]map[string]any{"title": {"title": 1}, "icon": {"icon": 2}},
			invalid:   []invalidBody{{"empty title", map[string]any{"title": ""}, "title"}},
		}),
		"addSectionToGroup": siteBodyCase(bodyCase{
			valid:     map[string]any{"sectionId": "nosuch"},
			wrongType: map[string]map[string]any{"sectionId": {"sectionId": 1}},
			required:  []string{"sectionId"},
			invalid:   []invalidBody{{"unknown section", map[string]any{"sectionId": "nosuch"}, "sectionId"}},
		}),
		"moveSiteSectionGroup": siteBodyCase(bodyCase{
			valid:     map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": "x"}}},
			wrongType: map[string]map[string]any{"position": {"position": []int{1}}},
			invalid:   []invalidBody{{"anchor of a site space", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "id": "x"}}}, "type"}},
		}),
		"addSpaceToSite": siteBodyCase(bodyCase{
			valid:     map[string]any{"spaceId": "nosuch"},
			wrongType: map[string]map[string]any{"spaceId": {"spaceId": 1}, "sectionId": {"spaceId": "x", "sectionId": 2}},
			required:  []string{"spaceId"},
			invalid:   []invalidBody{{"unknown section", map[string]any{"spaceId": "x", "sectionId": "nosuch"}, "sectionId"}},
		}),
		"updateSiteSpaceById": siteBodyCase(bodyCase{
			valid:     map[string]any{"path": "renamed"},
			wrongType: map[string]map[string]any{"path": {"path": 1}, "condition": {"condition": 2}},
			invalid: []invalidBody{
				{"empty path", map[string]any{"path": ""}, "path"},
				{"condition that is not boolean", map[string]any{"condition": `"text"`}, "condition"},
				{"space of no one", map[string]any{"spaceId": "nosuch"}, "spaceId"},
			},
		}),
		"updateSiteCustomizationById": siteBodyCase(bodyCase{
			valid:     customization("Site"),
			wrongType: map[string]map[string]any{"title": withField(customization("Site"), "title", 1), "styling": withField(customization("Site"), "styling", "clean")},
			required:  []string{"styling", "header"},
			invalid: []invalidBody{
				{"condition naming no claim", withField(customization("Site"), "header", map[string]any{"preset": "default",
					"links": []any{map[string]any{"title": "x", "to": nil, "links": []any{}, "condition": "visitor.claims.nope"}}}), "header.links[0].condition"},
				{"short title", withField(customization("Site"), "title", "S"), "title"},
			},
		}),
		"moveSiteSpace": siteBodyCase(bodyCase{
			valid:     map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": "x"}}},
			wrongType: map[string]map[string]any{"position": {"position": true}},
			invalid:   []invalidBody{{"unknown anchor", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": "nosuch"}}}, "position.after"}},
		}),
	}
}

// customization is a site's default customization with a title, as a
// request body.
func customization(title string) map[string]any {
	b, err := json.Marshal(quire.DefaultSiteCustomization())
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	m["title"] = title
	return m
}

func TestSitePublishedProfile(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		site := ts.newSite(t, map[string]any{"title": "Docs", "spaces": []string{ts.newSpace(t, "Guides")}})

		// Defaults until set.
		c := ts.must(t, 200, "GET", ts.sitePath(site, "/customization"), admin, nil)
		wantFields(t, c, map[string]any{"styling.theme": "clean", "themes.default": "light", "header.links": []any{}})
		wantAbsent(t, c, "title")

		// A header link's condition is checked against the visitor schema.
		body := customization("Docs portal")
		body["header"].(map[string]any)["links"] = []any{map[string]any{"title": "Beta", "to": nil, "links": []any{}, "condition": "visitor.claims.isBeta"}}
		wantContains(t, ts.mustError(t, 400, "PUT", ts.sitePath(site, "/customization"), admin, body), "header.links[0].condition")
		ts.must(t, 200, "PUT", ts.sitePath(site, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		c = ts.must(t, 200, "PUT", ts.sitePath(site, "/customization"), admin, body)
		wantFields(t, c, map[string]any{"title": "Docs portal", "header.links.0.condition": "visitor.claims.isBeta"})
		wantFields(t, ts.must(t, 200, "GET", ts.sitePath(site, "/customization"), admin, nil), map[string]any{"title": "Docs portal"})
		bad := customization("Docs")
		bad["styling"].(map[string]any)["theme"] = "neon"
		wantContains(t, ts.mustError(t, 400, "PUT", ts.sitePath(site, "/customization"), admin, bad), "theme")

		// The profile: the site, its structure and the customizations.
		p := ts.must(t, 200, "GET", ts.sitePath(site, "/published"), admin, nil)
		wantFields(t, p, map[string]any{"object": "published-content-site", "site.id": site, "structure.type": "siteSpaces",
			"customizations.site.title": "Docs portal", "scripts": []any{}})
		ss := str(p, "structure.structure.0.id")
		wantFields(t, p, map[string]any{"customizations.siteSpaces." + ss + ".title": "Docs portal"})
		wantAbsent(t, p, "site.urls.published")

		// Through a share key: only once published.
		link := ts.must(t, 201, "POST", ts.sitePath(site, "/share-links"), admin, map[string]any{"name": "Readers"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/publish"), admin, nil)
		pub := str(ts.must(t, 200, "GET", ts.sitePath(site, "/share-links"), admin, nil), "items.0.urls.published")
		key := strings.TrimSuffix(pub[strings.Index(pub, "/~share/")+len("/~share/"):], "/")
		p = ts.must(t, 200, "GET", ts.sitePath(site, "/published?shareKey="+key), admin, nil)
		wantFields(t, p, map[string]any{"structure.structure.0.urls.published": testBaseURL + "/sites/" + site + "/~share/" + key + "/"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/unpublish"), admin, nil)
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/published?shareKey="+key), admin, nil)
		ts.must(t, 205, "DELETE", ts.sitePath(site, "/share-links/"+str(link, "id")), admin, nil)
		ts.mustError(t, 404, "GET", ts.sitePath(site, "/published"), ts.token(cNonMember), nil)
	})
}
