package app

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"quire/internal/quire"
)

// TestConfigSchemaFields draws the fields of a schema in the order it
// declares its properties: text, numbers, a checkbox, selects, and what
// a field cannot hold (an object, an array, an action) as JSON; values
// from the configuration, else the defaults.
func TestConfigSchemaFields(t *testing.T) {
	t.Parallel()
	s := parseConfigSchema(json.RawMessage(`{"properties": {
		"name": {"type": "string", "title": "Name", "description": "Who it is."},
		"size": {"type": "integer", "default": 3},
		"ratio": {"type": "number", "enum": [0.5, 1]},
		"on": {"type": "boolean", "default": true},
		"mode": {"type": "string", "enum": ["a", "b"], "default": "b"},
		"nested": {"type": "object", "properties": {"deep": {"type": "object"}}},
		"tags": {"type": "array", "items": {"type": "string"}},
		"go": {"type": "button", "callback_url": "/go"}},
		"required": ["name", "mode"]}`))
	fields := s.fields(map[string]any{"name": "Ada", "tags": []any{"x"}, "mode": "c", "kept": 1.0})
	var got []string
	for _, f := range fields {
		got = append(got, f.Name+"="+f.Kind+":"+f.Value)
	}
	want := []string{"config.name=text:Ada", "config.size=integer:3", "config.ratio=select:", "config.on=checkbox:true",
		"config.mode=select:c", "config.nested=json:", "config.tags=json:[\n  \"x\"\n]", "config.go=json:"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields:\n%q\nwant\n%q", got, want)
	}
	if f := fields[0]; f.Label != "Name" || f.Help != "Who it is." || !f.Required {
		t.Errorf("name: %+v", f)
	}
	if opts := fields[2].Options; len(opts) != 3 || opts[0].Label != "Not set" || opts[1].Value != "0.5" {
		t.Errorf("an optional choice: %+v", opts)
	}
	if opts := fields[4].Options; len(opts) != 3 || opts[2].Label != "c (not one of the choices)" || !opts[2].Selected {
		t.Errorf("a stored value among none of the choices: %+v", opts)
	}
	if !fields[3].Checked {
		t.Error("a boolean's default is not checked")
	}
	if kept := s.kept(map[string]any{"kept": 1, "name": "x"}); !reflect.DeepEqual(kept, []string{"kept"}) {
		t.Errorf("kept: %v", kept)
	}
}

// TestConfigSchemaRead reads a posted form into a configuration of the
// schema's types, empty fields left out, undeclared members kept; a value
// not of its type is refused naming its field.
func TestConfigSchemaRead(t *testing.T) {
	t.Parallel()
	s := parseConfigSchema(json.RawMessage(`{"properties": {
		"name": {"type": "string"}, "size": {"type": "integer"}, "ratio": {"type": "number", "enum": [0.5, 1]},
		"on": {"type": "boolean"}, "off": {"type": "boolean"}, "tags": {"type": "array"}, "note": {"type": "string"}}}`))
	form := url.Values{"config.name": {" Ada "}, "config.size": {"12"}, "config.ratio": {"0.5"}, "config.on": {"false", "true"},
		"config.off": {"false"}, "config.tags": {`["a"]`}, "config.note": {""}}
	got, err := s.read(form, map[string]any{"kept": "yes", "name": "old"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "Ada", "size": int64(12), "ratio": 0.5, "on": true, "off": false, "tags": []any{"a"}, "kept": "yes"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	for field, text := range map[string]string{"size": "1.5", "ratio": "half", "tags": "[oops"} {
		f := url.Values{"config." + field: {text}}
		_, err := s.read(f, nil)
		name, msg, ok := s.refusal(err, nil)
		if !ok || name != "config."+field || !strings.HasPrefix(msg, field+": must be") {
			t.Errorf("%s=%q: %v (%s, %q)", field, text, err, name, msg)
		}
	}
	// A required property left out is placed on its field; other errors
	// of the configuration on the form.
	req := parseConfigSchema(json.RawMessage(`{"properties": {"a": {"type": "string"}, "b": {"type": "string", "title": "Bee"}}, "required": ["a", "b"]}`))
	name, msg, ok := req.refusal(quire.Invalid("configuration", "missing properties 'b'"), map[string]any{"a": "x"})
	if !ok || name != "config.b" || msg != "Bee is required." {
		t.Errorf("missing b: %s %q", name, msg)
	}
	if _, _, ok := req.refusal(quire.Invalid("title", "must not be empty"), nil); ok {
		t.Error("an error of another field is taken for the configuration's")
	}
}

// TestConfigSchemaWhole draws a configuration without properties (one an
// integration renders with its component) as one JSON object.
func TestConfigSchemaWhole(t *testing.T) {
	t.Parallel()
	if parseConfigSchema(nil) != nil || parseConfigSchema(json.RawMessage("null")) != nil {
		t.Error("no schema is something to configure")
	}
	s := parseConfigSchema(json.RawMessage(`{"componentId": "settings"}`))
	fields := s.fields(map[string]any{"a": 1.0})
	if len(fields) != 1 || fields[0].Name != "configuration" || fields[0].Value != "{\n  \"a\": 1\n}" {
		t.Fatalf("fields: %+v", fields)
	}
	got, err := s.read(url.Values{"configuration": {`{"b": true}`}}, map[string]any{"a": 1.0})
	if err != nil || !reflect.DeepEqual(got, map[string]any{"b": true}) {
		t.Errorf("read %v %v", got, err)
	}
	for _, bad := range []string{"[1]", "null", "{"} {
		if _, err := s.read(url.Values{"configuration": {bad}}, nil); err == nil {
			t.Errorf("%s read as a configuration", bad)
		}
	}
}
