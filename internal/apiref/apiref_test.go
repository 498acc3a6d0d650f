package apiref

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readFiles reads test documents into a filesystem.
func readFiles(t *testing.T, names ...string) Files {
	t.Helper()
	fs := Files{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		fs[n] = string(b)
	}
	return fs
}

func TestExternalRefs(t *testing.T) {
	fs := readFiles(t, "petstore-3.0.yaml")
	refs, problems := ExternalRefs("petstore-3.0.yaml", fs["petstore-3.0.yaml"])
	if len(problems) > 0 || !slices.Equal(refs, []string{"schemas/pet.yaml"}) {
		t.Fatalf("refs %v, problems %v", refs, problems)
	}
	refs, problems = ExternalRefs("a/main.yaml", "x:\n  $ref: ../../up.yaml\ny:\n  $ref: https://example.com/s.yaml#/A\nz:\n  $ref: ./b.json#/Z\n")
	if !slices.Equal(refs, []string{"a/b.json"}) || len(problems) != 2 {
		t.Fatalf("refs %v, problems %+v", refs, problems)
	}
	if problems[0].Line != 2 || problems[0].Pointer != "/x" || !strings.Contains(problems[0].Message, "leaves the directory") {
		t.Errorf("first problem %+v", problems[0])
	}
}

func TestParseVersions(t *testing.T) {
	cases := []struct {
		files   Files
		main    string
		version string
		ops     int
	}{
		{readFiles(t, "petstore-3.0.yaml", "schemas/pet.yaml"), "petstore-3.0.yaml", "3.0.3", 3},
		{readFiles(t, "petstore-3.1.yaml"), "petstore-3.1.yaml", "3.1.0", 1},
		{readFiles(t, "petstore-2.0.json"), "petstore-2.0.json", "2.0", 2},
	}
	for _, c := range cases {
		spec, problems := Parse(c.files, c.main)
		if len(problems) > 0 {
			t.Fatalf("%s: %+v", c.main, problems)
		}
		if spec.Version != c.version || len(spec.Operations()) != c.ops {
			t.Errorf("%s: version %s, operations %v", c.main, spec.Version, spec.Operations())
		}
	}
}

func TestCards(t *testing.T) {
	spec, problems := Parse(readFiles(t, "petstore-3.0.yaml", "schemas/pet.yaml"), "petstore-3.0.yaml")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	c, ok := spec.Card("/pets/{petId}", "get")
	if !ok {
		t.Fatal("no card")
	}
	if c.Method != "GET" || len(c.Parameters) != 1 || c.Parameters[0].Name != "petId" || !c.Parameters[0].Required {
		t.Errorf("card %+v", c)
	}
	if len(c.Responses) != 1 || c.Responses[0].Status != "200" || len(c.Responses[0].Contents) != 1 {
		t.Fatalf("responses %+v", c.Responses)
	}
	body := c.Responses[0].Contents[0]
	if body.Schema == nil || body.Schema.Name != "pet.yaml" || len(body.Schema.Properties) != 3 || !strings.Contains(body.Example, `"name": "string"`) {
		t.Errorf("response body %+v, example %s", body.Schema, body.Example)
	}
	c, _ = spec.Card("/pets", "POST")
	if c.RequestBody == nil || !c.RequestBody.Required || !strings.Contains(c.RequestBody.Contents[0].Example, `"Rex"`) {
		t.Errorf("request body %+v", c.RequestBody)
	}
	if _, ok := spec.Card("/pets", "delete"); ok {
		t.Error("a card for an operation that does not exist")
	}

	spec, _ = Parse(readFiles(t, "petstore-2.0.json"), "petstore-2.0.json")
	c, _ = spec.Card("/pets", "post")
	if c.RequestBody == nil || c.RequestBody.Contents[0].Schema.Name != "Pet" || c.Servers[0] != "https://petstore.example.com/v1" {
		t.Errorf("swagger card %+v", c)
	}
	c, _ = spec.Card("/pets", "get")
	if c.Responses[0].Contents[0].Example == "" || c.Parameters[0].Schema.Type != "integer (int32)" {
		t.Errorf("swagger list card %+v", c)
	}
	spec, _ = Parse(readFiles(t, "petstore-3.1.yaml"), "petstore-3.1.yaml")
	c, _ = spec.Card("/pets", "get")
	if !strings.Contains(c.Responses[0].Contents[0].Example, "Tom") || c.Parameters[0].Schema.Type != "integer, nullable" {
		t.Errorf("3.1 card %+v %+v", c.Responses[0].Contents[0], c.Parameters[0].Schema)
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, text, code string
		line             int
	}{
		{"syntax", "openapi: 3.0.0\ninfo:\n  title: x\n  version: 1\npaths:\n  /a: [\n", "syntax", 6},
		{"json syntax", "{\"openapi\": \"3.0.0\",\n \"info\": {\"title\": \"x\", \"version\": \"1\"},\n \"paths\": {,}}", "syntax", 3},
		{"not openapi", "name: something\nvalue: 3\n", "not-openapi", 1},
		{"old version", "openapi: 4.0.0\ninfo: {title: x, version: '1'}\n", "not-openapi", 1},
		{"no info", "openapi: 3.0.0\npaths: {}\n", "structure", 1},
		{"missing ref", "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Nope'\n", "unresolved-ref", 12},
	}
	for _, c := range cases {
		_, problems := Parse(Files{"openapi.yaml": c.text}, "openapi.yaml")
		if len(problems) == 0 {
			t.Errorf("%s: no problem", c.name)
			continue
		}
		p := problems[0]
		if p.Code != c.code || p.Line != c.line || p.File != "openapi.yaml" {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
}

func TestHash(t *testing.T) {
	a := Hash(Files{"a.yaml": "x: 1\ny: [1, 2]\n", "b.json": `{"k": "v"}`})
	b := Hash(Files{"a.yaml": "# comment\ny:\n  - 1\n  - 2\nx: 1\n", "b.json": "{\n  \"k\": \"v\"\n}"})
	if a != b {
		t.Error("formatting changed the hash")
	}
	if a == Hash(Files{"a.yaml": "x: 2\ny: [1, 2]\n", "b.json": `{"k": "v"}`}) {
		t.Error("a change kept the hash")
	}
	if a == Hash(Files{"c.yaml": "x: 1\ny: [1, 2]\n", "b.json": `{"k": "v"}`}) {
		t.Error("a renamed file kept the hash")
	}
}

func TestMainName(t *testing.T) {
	for _, c := range [][3]string{
		{"https://x.test/api/openapi.json", "", "openapi.json"},
		{"https://x.test/api/spec.yml?v=2", "", "spec.yml"},
		{"https://x.test/api/spec", "{}", "openapi.json"},
		{"", "openapi: 3.0.0", "openapi.yaml"},
	} {
		if got := MainName(c[0], c[1]); got != c[2] {
			t.Errorf("MainName(%q) = %q, want %q", c[0], got, c[2])
		}
	}
}
