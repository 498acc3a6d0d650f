package reader

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const testSpec = `{
  "openapi": "3.1.0",
  "info": {"title": "Pets API", "version": "2.0", "description": "Pets <b>and</b> owners."},
  "tags": [{"name": "pets", "description": "Animals"}],
  "paths": {
    "/v1/pets/{petId}": {
      "get": {"operationId": "getPet", "tags": ["pets"], "summary": "Get a pet",
        "description": "Answers one pet.\n\nWho may call it: its owner.",
        "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}},
                       {"name": "expand", "in": "query", "schema": {"type": ["array", "null"], "items": {"type": "string", "enum": ["owner", "toys"]}}}],
        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                      "404": {"description": "Not Found"}}},
      "patch": {"operationId": "updatePet", "tags": ["pets"],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["name"],
          "properties": {"name": {"type": "string", "description": "New name"}, "age": {"type": "integer", "format": "int32"}}}}}},
        "responses": {"200": {"description": "OK"}}}
    },
    "/v1/owners": {"get": {"operationId": "listOwners", "responses": {"200": {"description": "OK",
       "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Owner"}}}}}}}}
  },
  "components": {"schemas": {
    "Pet": {"type": "object", "description": "A pet", "required": ["id"], "properties": {"id": {"type": "string"}, "owner": {"$ref": "#/components/schemas/Owner"}}},
    "Owner": {"type": "object", "properties": {"name": {"type": "string"}}}
  }}
}`

func TestAPIReference(t *testing.T) {
	ref, err := ReadAPIReference([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Tags) != 2 || ref.Tags[0].Name != "pets" || ref.Tags[1].Name != "owners" {
		t.Fatalf("tags = %+v", ref.Tags)
	}
	pets := ref.Tags[0].Operations
	if len(pets) != 2 || pets[0].Method != "GET" || pets[1].Method != "PATCH" {
		t.Fatalf("pets operations = %+v", pets)
	}
	if p := pets[0].Parameters[1]; p.Type.Text != "array of string, one of owner, toys or null" {
		t.Errorf("expand type = %q", p.Type.Text)
	}
	if b := pets[1].RequestBody; b == nil || !b.Required || len(b.Schema.Fields) != 2 || !b.Schema.Fields[1].Required {
		t.Errorf("request body = %+v", b)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.RenderAPIReference(&buf, ref, "/v1/openapi.json"); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "Pets &lt;b&gt;and&lt;/b&gt; owners.") {
		t.Error("the description is not escaped")
	}
	ops := findAll(doc, byClass("op"))
	if len(ops) != 5 { // three operations, two schemas
		t.Errorf("%d operation and schema boxes, want 5", len(ops))
	}
	// Links to schemas land on them.
	for _, a := range findAll(doc, byTag(atom.A)) {
		h, _ := attr(a, "href")
		if !strings.HasPrefix(h, "#schema-") {
			continue
		}
		id := strings.TrimPrefix(h, "#")
		if len(findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })) != 1 {
			t.Errorf("link %s has no target", h)
		}
	}
	for _, want := range []string{"Get a pet", "<p>Answers one pet.</p>", "<p>Who may call it: its owner.</p>", "getPet", "<code>/v1/pets/{petId}</code>", "New name", "required"} {
		if !strings.Contains(out, want) {
			t.Errorf("reference lacks %q", want)
		}
	}
	if _, err := ReadAPIReference([]byte("{")); err == nil {
		t.Error("a broken document was read")
	}
}

func TestStartPage(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.RenderStart(&buf, StartPage{APIDocsURL: "/docs/api"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "No published sites") {
		t.Error("an empty list is not said")
	}
	buf.Reset()
	if err := r.RenderStart(&buf, StartPage{APIDocsURL: "/docs/api", Sites: []SiteEntry{
		{Title: "Handbook", URL: "/handbook", Description: "How we work"},
		{Title: "<Bad>", URL: "javascript:alert(1)"},
	}}); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	items := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Li && n.Parent != nil && hasClass(n.Parent, "site-list")
	})
	if len(items) != 2 || !strings.Contains(textOf(items[0]), "Handbook") {
		t.Fatalf("site list = %d items", len(items))
	}
	if strings.Contains(buf.String(), "javascript:") || strings.Contains(buf.String(), "No published sites") {
		t.Error("unsafe link or empty notice with sites")
	}
	if len(findAll(doc, byTag(atom.Main))) != 1 || len(findAll(doc, byTag(atom.Header))) != 1 || len(findAll(doc, byTag(atom.Footer))) != 1 {
		t.Error("landmarks missing")
	}
}
