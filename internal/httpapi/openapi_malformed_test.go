package httpapi

import (
	"strings"
	"testing"
)

// openAPISnapshot reads the organization's specifications and the one
// under test.
func openAPISnapshot(t *testing.T, ts *testServer, ps map[string]string) string {
	t.Helper()
	paths := []func(map[string]string) string{fixed(ts.OrgPath("/openapi"))}
	if ps["specSlug"] != "" {
		paths = append(paths, func(ps map[string]string) string { return ts.specPath(ps["specSlug"], "/versions") })
	}
	return snap(paths...)(t, ts, ps)
}

// sourceInvalid are the sources every operation taking one refuses.
func sourceInvalid(base map[string]any) []invalidBody {
	return []invalidBody{
		{"url and text", withField(base, "source", map[string]any{"url": "https://x.test/a.yaml", "text": "openapi: 3.0.0"}), "source"},
		{"empty source", withField(base, "source", map[string]any{}), "source"},
		{"blank text", withField(base, "source", map[string]any{"text": " \n"}), "source.text"},
		{"ftp URL", withField(base, "source", map[string]any{"url": "ftp://x.test/a.yaml"}), "source.url"},
		{"URL over 2048", withField(base, "source", map[string]any{"url": "https://x.test/" + strings.Repeat("a", 2048)}), "source.url"},
	}
}

// sourceWrongTypes are the bodies with a source member of the wrong type.
func sourceWrongTypes(base map[string]any) map[string]map[string]any {
	return map[string]map[string]any{
		"source":      withField(base, "source", "openapi: 3.0.0"),
		"source.text": withField(base, "source", map[string]any{"text": 5}),
		"source.url":  withField(base, "source", map[string]any{"url": true}),
	}
}

// openAPIBodyCases are the malformed-body cases of the OpenAPI operations.
func openAPIBodyCases() map[string]bodyCase {
	create := map[string]any{"slug": "new-spec", "source": map[string]any{"text": minimalSpec}}
	createWrong := sourceWrongTypes(create)
	createWrong["slug"] = withField(create, "slug", 12)
	put := map[string]any{"source": map[string]any{"text": minimalSpec}}
	patch := map[string]any{"visibility": "public"}
	existing := func(t *testing.T, ts *testServer) map[string]string {
		return pathParams("specSlug", ts.processedSpec(t))
	}
	unknownSource := func(base map[string]any) []invalidBody {
		return []invalidBody{{"unknown field in the source",
			withField(base, "source", map[string]any{"text": minimalSpec, "format": "yaml"}), "source.format"}}
	}
	return map[string]bodyCase{
		"createOpenAPISpec": {valid: create, wrongType: createWrong, required: []string{"slug", "source"},
			invalid: append(sourceInvalid(create),
				invalidBody{"slug with capitals", withField(create, "slug", "My-Spec"), "slug"},
				invalidBody{"slug with a trailing dash", withField(create, "slug", "spec-"), "slug"},
				invalidBody{"empty slug", withField(create, "slug", ""), "slug"},
				invalidBody{"slug over 100", withField(create, "slug", strings.Repeat("a", 101)), "slug"}),
			unknown: unknownSource(create), snapshot: openAPISnapshot, maxBody: OpenAPISpecMaxBody},
		"createOrUpdateOpenAPISpecBySlug": {setup: existing, valid: put, wrongType: sourceWrongTypes(put),
			required: []string{"source"}, invalid: sourceInvalid(put), unknown: unknownSource(put),
			snapshot: openAPISnapshot, maxBody: OpenAPISpecMaxBody},
		"updateOpenAPISpecBySlug": {setup: existing, valid: patch,
			wrongType: map[string]map[string]any{
				"visibility": withField(patch, "visibility", true),
				"source":     withField(patch, "source", "x"),
			},
			required: []string{"visibility"},
			invalid: append(sourceInvalid(patch),
				invalidBody{"unknown visibility", withField(patch, "visibility", "secret"), "visibility"}),
			snapshot: openAPISnapshot, maxBody: OpenAPISpecMaxBody},
	}
}
