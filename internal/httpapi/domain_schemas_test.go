package httpapi

import (
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"quire/internal/quire"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite testdata/site_customization_schema.json")

// customizationSchema returns the registry of an API configured as the
// server's, and the schema it gives the site customization settings.
func customizationSchema(t *testing.T) (huma.Registry, *huma.Schema) {
	t.Helper()
	api := humago.New(http.NewServeMux(), (&Server{}).humaConfig())
	reg := api.OpenAPI().Components.Schemas
	ref := reg.Schema(reflect.TypeFor[quire.SiteCustomizationSettings](), true, "")
	return reg, ref
}

// readSettings reads a golden file of the domain package's tests.
func readSettings(t *testing.T, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "quire", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// validate returns the framework's validation errors of a request body.
func validate(reg huma.Registry, s *huma.Schema, v any) []string {
	res := &huma.ValidateResult{}
	huma.Validate(reg, s, huma.NewPathBuffer([]byte{}, 0), huma.ModeWriteToServer, v, res)
	out := make([]string, len(res.Errors))
	for i, e := range res.Errors {
		out[i] = e.Error()
	}
	return out
}

// TestSiteCustomizationSchemaAccepts checks that what the domain marshals
// (the defaults of a new site, and settings with every optional member)
// passes the validation its own declaration gives.
func TestSiteCustomizationSchemaAccepts(t *testing.T) {
	reg, s := customizationSchema(t)
	for _, name := range []string{"site_customization_default.json", "site_customization_full.json"} {
		if errs := validate(reg, s, readSettings(t, name)); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}

// TestSiteCustomizationSchemaRefuses changes one member of valid settings
// at a time and expects the validation to name it.
func TestSiteCustomizationSchemaRefuses(t *testing.T) {
	reg, s := customizationSchema(t)
	for _, tc := range []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"theme outside its enum", func(m map[string]any) { obj(m, "styling")["theme"] = "dark" }, "styling.theme"},
		{"color not hex", func(m map[string]any) { obj(m, "styling", "primaryColor")["light"] = "blue" }, "styling.primaryColor.light"},
		{"color of 4 digits", func(m map[string]any) { obj(m, "styling", "infoColor")["dark"] = "#1234" }, "styling.infoColor.dark"},
		{"unknown font", func(m map[string]any) { obj(m, "styling")["font"] = "Comic Sans" }, "styling.font"},
		{"monospace font in the text list", func(m map[string]any) { obj(m, "styling")["monospaceFont"] = "Inter" }, "styling.monospaceFont"},
		{"font definition without faces", func(m map[string]any) {
			obj(m, "styling")["font"] = map[string]any{"id": "f", "custom": true, "fontFamily": "F", "fontFaces": []any{}}
		}, "styling.font"},
		{"font weight out of range", func(m map[string]any) {
			obj(m, "styling")["font"] = map[string]any{"id": "f", "custom": true, "fontFamily": "F", "fontFaces": []any{
				map[string]any{"weight": 1001, "sources": []any{map[string]any{"url": "https://a/b.woff2"}}}}}
		}, "styling.font"},
		{"missing required styling member", func(m map[string]any) { delete(obj(m, "styling"), "sidebar") }, "required property sidebar to be present (styling"},
		{"sidebar list outside its enum", func(m map[string]any) { obj(m, "styling", "sidebar")["list"] = "tabs" }, "styling.sidebar.list"},
		{"deprecated background still required", func(m map[string]any) { delete(obj(m, "styling"), "background") }, "required property background to be present (styling"},
		{"header links null", func(m map[string]any) { obj(m, "header")["links"] = nil }, "header.links"},
		{"header item without to", func(m map[string]any) {
			obj(m, "header")["links"] = []any{map[string]any{"title": "x", "links": []any{}}}
		}, "required property to to be present (header.links[0]"},
		{"header item style", func(m map[string]any) {
			obj(m, "header")["links"] = []any{map[string]any{"title": "x", "to": nil, "links": []any{}, "style": "huge"}}
		}, "header.links[0].style"},
		{"condition too long", func(m map[string]any) {
			obj(m, "header")["links"] = []any{map[string]any{"title": "x", "to": nil, "links": []any{}, "condition": strings.Repeat("a", 1025)}}
		}, "header.links[0].condition"},
		{"link title too long", func(m map[string]any) {
			obj(m, "footer")["groups"] = []any{map[string]any{"title": "g", "links": []any{
				map[string]any{"title": strings.Repeat("t", 65), "to": map[string]any{"kind": "url", "url": "https://a"}}}}}
		}, "footer.groups[0].links[0].title"},
		{"copyright too long", func(m map[string]any) { obj(m, "footer")["copyright"] = strings.Repeat("c", 301) }, "footer.copyright"},
		{"title too short", func(m map[string]any) { m["title"] = "A" }, "title"},
		{"announcement message too short", func(m map[string]any) {
			m["announcement"] = map[string]any{"enabled": true, "message": "x", "style": "info"}
		}, "announcement.message"},
		{"announcement style", func(m map[string]any) {
			m["announcement"] = map[string]any{"enabled": true, "message": "hello", "style": "loud"}
		}, "announcement.style"},
		{"locale", func(m map[string]any) { obj(m, "internationalization")["locale"] = "it" }, "internationalization.locale"},
		{"themes default", func(m map[string]any) { obj(m, "themes")["default"] = "auto" }, "themes.default"},
		{"ai mode", func(m map[string]any) { obj(m, "ai")["mode"] = "chat" }, "ai.mode"},
		{"external links target", func(m map[string]any) { obj(m, "externalLinks")["target"] = "_blank" }, "externalLinks.target"},
		{"header preset", func(m map[string]any) { obj(m, "header")["preset"] = "loud" }, "header.preset"},
		{"missing insights", func(m map[string]any) { delete(m, "insights") }, "required property insights"},
		{"missing page action", func(m map[string]any) { delete(obj(m, "pageActions"), "mcp") }, "required property mcp to be present (pageActions"},
		{"privacy URL too long", func(m map[string]any) {
			obj(m, "privacyPolicy")["url"] = "https://example.com/" + strings.Repeat("p", 2048)
		}, "privacyPolicy.url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := readSettings(t, "site_customization_default.json")
			tc.edit(m)
			errs := validate(reg, s, m)
			if len(errs) == 0 {
				t.Fatal("accepted")
			}
			if !strings.Contains(strings.Join(errs, "\n"), tc.field) {
				t.Fatalf("errors do not name %s: %v", tc.field, errs)
			}
		})
	}
	// A menu (to null) and a font of the site's own are accepted.
	m := readSettings(t, "site_customization_default.json")
	obj(m, "header")["links"] = []any{map[string]any{"title": "Menu", "to": nil, "links": []any{}}}
	if errs := validate(reg, s, m); len(errs) > 0 {
		t.Fatalf("menu refused: %v", errs)
	}
}

// obj returns the object at the path of members.
func obj(m map[string]any, path ...string) map[string]any {
	for _, k := range path {
		m = m[k].(map[string]any)
	}
	return m
}

// TestSiteCustomizationSchemaGolden keeps testdata/site_customization_schema.json
// equal to the schema the declaration gives. The conformance suite compares
// that file with the published SiteCustomizationSettings: every enum with
// its full list, the same members and the same required ones
// (conformance/test/site_customization.test.js).
func TestSiteCustomizationSchemaGolden(t *testing.T) {
	reg, ref := customizationSchema(t)
	doc := map[string]any{"$ref": ref.Ref, "components": map[string]any{"schemas": reg.Map()}}
	got, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "site_customization_schema.json")
	if *updateSchemas {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is not the schema the declaration gives (run go test ./internal/httpapi -run TestSiteCustomizationSchemaGolden -update-schemas)", path)
	}
}
