package adaptive

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// testSchema is a visitor schema with every kind of claim.
const testSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "isBeta": {"type": "boolean", "description": "Visitor is in the beta program"},
    "plan": {"type": "string", "enum": ["free", "pro"], "description": "Subscription plan"},
    "email": {"type": "string", "description": "Email address"},
    "seats": {"type": "number", "description": "Seats bought"},
    "roles": {"type": "array", "description": "Roles", "items": {"type": "string", "enum": ["admin", "dev"], "description": "A role"}},
    "org": {"type": "object", "description": "Organization", "additionalProperties": false,
      "properties": {"trial": {"type": "boolean", "description": "Organization on trial"}, "name": {"type": "string", "description": "Name"}}},
    "my-flag": {"type": "boolean", "description": "Dashed name"},
    "in": {"type": "boolean", "description": "Reserved word"},
    "unsigned": {
      "type": "object",
      "description": "Unsigned claims of the site visitor.",
      "properties": {"bucket": {"type": "string", "enum": ["a", "b"], "description": "Test bucket"},
        "cookies": {"type": "boolean", "description": "Accepted cookies"}},
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}`

func mustParse(t testing.TB, raw string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(raw))
	if err != nil {
		t.Fatalf("ParseSchema: %v", err)
	}
	return s
}

func TestParseSchemaAccepts(t *testing.T) {
	for name, raw := range map[string]string{
		"every claim kind": testSchema,
		"no claims":        `{"type":"object","properties":{},"additionalProperties":false}`,
		"unsigned only": `{"type":"object","additionalProperties":false,"properties":{"unsigned":{"type":"object",
			"description":"Unsigned claims of the site visitor.","properties":{},"additionalProperties":false}}}`,
		"nested object": `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"object","description":"a","additionalProperties":false,"properties":{"b":{"type":"object","description":"b","additionalProperties":false,"properties":{"c":{"type":"array","description":"c","items":{"type":"number","description":"n"}}}}}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := mustParse(t, raw)
			out, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ParseSchema(out); err != nil {
				t.Fatalf("the schema's own JSON does not parse again: %v", err)
			}
		})
	}
}

func TestParseSchemaRefuses(t *testing.T) {
	const head = `{"type":"object","additionalProperties":false,"properties":`
	for _, tc := range []struct {
		name, raw, pointer, message string
	}{
		{"not JSON", `{"type":`, "", "not valid JSON"},
		{"trailing data", `{} {}`, "", "not valid JSON"},
		{"not an object", `[]`, "", "draft-07 JSON Schema: got array, want boolean or object"},
		{"boolean schema", `true`, "", "must be a JSON object, not a boolean"},
		{"empty enum", head + `{"p":{"type":"string","enum":[],"description":""}}}`, "/properties/p/enum", "draft-07 JSON Schema: minItems"},
		{"draft-07 meta-schema", `{"type":"object","additionalProperties":false,"properties":{},"minProperties":-1}`, "/minProperties", "draft-07"},
		{"draft-07 type", `{"type":"objet","additionalProperties":false,"properties":{}}`, "/type", "draft-07"},
		{"other $schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false,"properties":{}}`, "/$schema", "draft-07"},
		{"missing type", `{"additionalProperties":false,"properties":{}}`, "", `needs "type"`},
		{"type not object", `{"type":"string","additionalProperties":false,"properties":{}}`, "/type", `must be "object"`},
		{"missing properties", `{"type":"object","additionalProperties":false}`, "", `needs "properties"`},
		{"missing additionalProperties", `{"type":"object","properties":{}}`, "", `needs "additionalProperties" set to false`},
		{"additionalProperties true", `{"type":"object","properties":{},"additionalProperties":true}`, "/additionalProperties", "must be false"},
		{"extra root keyword", `{"type":"object","properties":{},"additionalProperties":false,"required":["a"]}`, "/required", `"required" is not allowed`},
		{"ref", `{"type":"object","properties":{"a":{"$ref":"http://example.com/x"}},"additionalProperties":false}`, "/properties/a/$ref", `"$ref" is not allowed in a claim`},
		{"claim not object", head + `{"a":true}}`, "/properties/a", "JSON object, not a boolean"},
		{"claim without type", head + `{"a":{"description":"x"}}}`, "/properties/a", `needs a "type"`},
		{"claim of unknown type", head + `{"a":{"type":"integer","description":"x"}}}`, "/properties/a/type", "must be one of boolean, string, number, array, object"},
		{"claim without description", head + `{"a":{"type":"boolean"}}}`, "/properties/a", `needs a "description"`},
		{"description not string", head + `{"a":{"type":"boolean","description":1}}}`, "/properties/a/description", "draft-07 JSON Schema: got number, want string"},
		{"enum on boolean", head + `{"a":{"type":"boolean","description":"x","enum":[true]}}}`, "/properties/a/enum", `"enum" is not allowed in a boolean claim`},
		{"enum of numbers", head + `{"a":{"type":"string","description":"x","enum":["a",1]}}}`, "/properties/a/enum/1", "must be a string, not a number"},
		{"array without items", head + `{"a":{"type":"array","description":"x"}}}`, "/properties/a", `needs "items"`},
		{"array of arrays", head + `{"a":{"type":"array","description":"x","items":{"type":"array","description":"y","items":{"type":"string","description":"z"}}}}}`, "/properties/a/items/type", "must be one of boolean, string, number"},
		{"object open", head + `{"a":{"type":"object","description":"x","properties":{},"additionalProperties":true}}}`, "/properties/a/additionalProperties", "must be false"},
		{"object member bad", head + `{"a":{"type":"object","description":"x","additionalProperties":false,"properties":{"b~/c":{"type":"date","description":"y"}}}}}`, "/properties/a/properties/b~0~1c/type", "must be one of"},
		{"unsigned not object", head + `{"unsigned":[]}}`, "/properties/unsigned", "draft-07 JSON Schema: got array"},
		{"unsigned boolean", head + `{"unsigned":false}}`, "/properties/unsigned", "must be a JSON object, not a boolean"},
		{"unsigned other description", head + `{"unsigned":{"type":"object","description":"mine","properties":{},"additionalProperties":false}}}`, "/properties/unsigned/description", `must be "Unsigned claims of the site visitor."`},
		{"unsigned open", head + `{"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","properties":{}}}}`, "/properties/unsigned", `needs "additionalProperties" set to false`},
		{"unsigned claim bad", head + `{"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","properties":{"x":{"type":"boolean"}},"additionalProperties":false}}}`, "/properties/unsigned/properties/x", `needs a "description"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSchema([]byte(tc.raw))
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SchemaError", err)
			}
			if se.Pointer != tc.pointer || !strings.Contains(se.Message, tc.message) {
				t.Fatalf("got %q at %q, want %q at %q", se.Message, se.Pointer, tc.message, tc.pointer)
			}
			if !strings.HasPrefix(err.Error(), map[bool]string{true: "(root): ", false: tc.pointer + ": "}[tc.pointer == ""]) {
				t.Fatalf("Error() = %q does not start with the pointer", err.Error())
			}
		})
	}
}

func TestTemplateConditions(t *testing.T) {
	s := mustParse(t, testSchema)
	got := s.TemplateConditions()
	want := []TemplateCondition{
		{"Reserved word", `visitor.claims["in"]`},
		{"Visitor is in the beta program", "visitor.claims.isBeta"},
		{"Dashed name", `visitor.claims["my-flag"]`},
		{"Organization on trial", "visitor.claims.org.trial"},
		{"Subscription plan: free", `visitor.claims.plan == "free"`},
		{"Subscription plan: pro", `visitor.claims.plan == "pro"`},
		{"Roles: admin", `"admin" in visitor.claims.roles`},
		{"Roles: dev", `"dev" in visitor.claims.roles`},
		{"Test bucket: a", `visitor.claims.unsigned.bucket == "a"`},
		{"Test bucket: b", `visitor.claims.unsigned.bucket == "b"`},
		{"Accepted cookies", "visitor.claims.unsigned.cookies"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d templates %v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("template %d = %+v, want %+v", i, got[i], want[i])
		}
		if err := s.CheckCondition(got[i].Condition); err != nil {
			t.Errorf("template %q does not check: %v", got[i].Condition, err)
		}
	}
	empty := mustParse(t, `{"type":"object","properties":{},"additionalProperties":false}`)
	if got := empty.TemplateConditions(); got == nil || len(got) != 0 {
		t.Fatalf("no claims: got %#v, want an empty list", got)
	}
}

func TestTemplateConditionsOfOddNames(t *testing.T) {
	names := []string{`quote"d`, "é", "a b", "9lives", "_ok", `back\slash`, "tab\t", "not"}
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": "boolean", "description": n}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "additionalProperties": false, "properties": props})
	s := mustParse(t, string(raw))
	tcs := s.TemplateConditions()
	if len(tcs) != len(names) {
		t.Fatalf("got %d templates, want %d", len(tcs), len(names))
	}
	for _, tc := range tcs {
		if err := s.CheckCondition(tc.Condition); err != nil {
			t.Errorf("template %q does not check: %v", tc.Condition, err)
		}
		ok, err := s.mustCompile(t, tc.Condition).Evaluate(map[string]any{tc.Description: true})
		if err != nil || !ok {
			t.Errorf("template %q with its claim true = %v, %v", tc.Condition, ok, err)
		}
	}
}

func (s *Schema) mustCompile(t testing.TB, src string) *Condition {
	t.Helper()
	c, err := s.CompileCondition(src)
	if err != nil {
		t.Fatalf("CompileCondition(%q): %v", src, err)
	}
	return c
}

func TestEmptySchema(t *testing.T) {
	s := EmptySchema()
	if err := s.CheckCondition("true"); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckCondition("visitor.claims.isBeta"); err == nil {
		t.Fatal("a claim checked against the empty schema")
	}
	if got := s.TemplateConditions(); len(got) != 0 {
		t.Fatalf("templates: %v", got)
	}
}
