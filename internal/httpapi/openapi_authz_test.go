package httpapi

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// minimalSpec is a small valid OpenAPI document.
const minimalSpec = "openapi: 3.0.3\ninfo:\n  title: Matrix\n  version: '1'\npaths:\n  /ping:\n    get:\n      responses:\n        '204':\n          description: pong\n"

// processedSpec creates a specification from minimalSpec as the service
// would for an admin, waits for its processing and returns its slug.
func (ts *testServer) processedSpec(t *testing.T) string {
	t.Helper()
	slug := "spec-" + strings.ToLower(quire.NewID())
	if _, err := ts.OpenAPI.Create(t.Context(), ts.Org, slug, service.OpenAPISource{Text: minimalSpec}); err != nil {
		t.Fatalf("create specification: %v", err)
	}
	ts.waitSpec(t, slug, "")
	return slug
}

// sharedSpec returns the processed specification the read cases share.
func (m *matrix) sharedSpec(t *testing.T) string {
	t.Helper()
	if m.spec == "" {
		m.spec = m.ts.processedSpec(t)
	}
	return m.spec
}

// openAPIRead is the case of a read of a specification or its versions.
func openAPIRead() authzCase {
	return authzCase{ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		slug := m.sharedSpec(t)
		v := m.ts.must(t, 200, "GET", m.ts.specPath(slug, "/versions/latest"), m.ts.token(cAdmin), nil)
		return pathParams("specSlug", slug, "versionId", str(v, "id")), nil
	}}
}

// specUnchanged checks that a refused write left the specification as it
// was: private, and at its first generation's version.
func specUnchanged(t *testing.T, m *matrix, ps map[string]string) {
	t.Helper()
	s := m.ts.must(t, 200, "GET", m.ts.specPath(ps["specSlug"]), m.ts.token(cAdmin), nil)
	wantFields(t, s, map[string]any{"visibility": "private", "processingState": "complete"})
}

// openAPIAuthzCases are the matrix cases of the OpenAPI operations.
func openAPIAuthzCases() map[string]authzCase {
	return map[string]authzCase{
		"listOpenAPISpecs": {ok: 200},
		"createOpenAPISpec": {ok: 201,
			setup: func(t *testing.T, m *matrix) (map[string]string, any) {
				slug := "new-" + strings.ToLower(quire.NewID())
				return pathParams("specSlug", slug), map[string]any{"slug": slug, "source": map[string]any{"text": minimalSpec}}
			},
			still: func(t *testing.T, m *matrix, ps map[string]string) {
				m.ts.mustError(t, 404, "GET", m.ts.specPath(ps["specSlug"]), m.ts.token(cAdmin), nil)
			}},
		"getOpenAPISpecBySlug": openAPIRead(),
		"createOrUpdateOpenAPISpecBySlug": {ok: 200,
			setup: func(t *testing.T, m *matrix) (map[string]string, any) {
				return pathParams("specSlug", m.ts.processedSpec(t)), map[string]any{"source": map[string]any{"text": "openapi: 3.1.0"}}
			},
			still: specUnchanged},
		"deleteOpenAPISpecBySlug": {ok: 205,
			setup: func(t *testing.T, m *matrix) (map[string]string, any) {
				return pathParams("specSlug", m.ts.processedSpec(t)), nil
			},
			still: specUnchanged},
		"updateOpenAPISpecBySlug": {ok: 200,
			setup: func(t *testing.T, m *matrix) (map[string]string, any) {
				return pathParams("specSlug", m.ts.processedSpec(t)), map[string]any{"visibility": "public"}
			},
			still: specUnchanged},
		"listOpenAPISpecVersions":            openAPIRead(),
		"getLatestOpenAPISpecVersion":        openAPIRead(),
		"getLatestOpenAPISpecVersionContent": openAPIRead(),
		"getOpenAPISpecVersionById":          openAPIRead(),
		"getOpenAPISpecVersionContentById":   openAPIRead(),
		"downloadOpenAPISpecFile": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			slug := m.sharedSpec(t)
			c := m.ts.must(t, 200, "GET", m.ts.specPath(slug, "/versions/latest/content"), m.ts.token(cAdmin), nil)
			return openAPIFileParams(t, str(c, "url")), nil
		}},
	}
}

// openAPIFileParams splits a specification file link into the path
// parameters of its route, the query riding on the last one.
func openAPIFileParams(t *testing.T, link string) map[string]string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(u.Path, "/v1/openapi-files/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 2 {
		t.Fatalf("not a specification file link: %s", link)
	}
	v := parts[1]
	if u.RawQuery != "" {
		v += "?" + u.RawQuery
	}
	return pathParams("specId", parts[0], "versionId", v)
}

// TestOpenAPIFileLinkRefusals checks the file route's refusals: a
// private specification's file needs a valid signature whatever the
// token, and a missing specification is 404.
func TestOpenAPIFileLinkRefusals(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		slug := ts.processedSpec(t)
		spec := ts.must(t, 200, "GET", ts.specPath(slug), ts.token(cAdmin), nil)
		base := "/v1/openapi-files/" + str(spec, "id") + "/latest"
		for _, q := range []string{"", "?expires=1&signature=abc", "?expires=99999999999&signature=%%%"} {
			if r := ts.send(t, "GET", base+q, ts.token(cAdmin), nil); r.Status != http.StatusForbidden {
				t.Errorf("%s: status %d, want 403", q, r.Status)
			}
		}
	})
}
