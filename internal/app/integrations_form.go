package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// Kinds of the fields a configuration form draws.
const (
	fieldText     = "text"
	fieldNumber   = "number"
	fieldInteger  = "integer"
	fieldCheckbox = "checkbox"
	fieldSelect   = "select"
	// fieldJSON is the fallback of what the form cannot draw as a field
	// (an array, an object, an action): its value typed as JSON.
	fieldJSON = "json"
)

// configFieldPrefix starts the name of each form field holding a
// property of the configuration, keeping them apart from the form's
// other fields.
const configFieldPrefix = "config."

// wholeConfigField is the name of the one JSON field of a configuration
// whose schema declares no properties to draw.
const wholeConfigField = "configuration"

// configSchema is an integration's configuration schema (one of the
// manifest's configurations) as a form draws it: its properties in the
// order the manifest declares them, and those required. Whole is set
// when the schema has no properties to draw (a configuration the
// integration renders with its own component): the form is then one
// JSON field for the whole configuration.
type configSchema struct {
	props    []schemaProp
	required map[string]bool
	whole    bool
}

// schemaProp is one property of a configuration schema.
type schemaProp struct {
	name, title, help string
	// kind is the field that draws it (fieldText, ...); typ the JSON
	// type the schema gives it.
	kind, typ string
	enum      []any
	def       any
	hasDef    bool
}

// formField is one field of a configuration form, as its template
// draws it.
type formField struct {
	ID, Name, Label, Help string
	Kind                  string
	Required              bool
	// Value is the text shown in it; Checked the state of a checkbox.
	Value   string
	Checked bool
	Options []formOption
	// Error is the message of a refused form about this field.
	Error string
}

// formOption is a choice of a select.
type formOption struct {
	Value, Label string
	Selected     bool
}

// parseConfigSchema reads a configuration schema declared by a
// manifest; nil when none is declared, so there is nothing to
// configure. A schema the form cannot read as properties (one rendered
// by a component) is drawn as one JSON field.
func parseConfigSchema(raw json.RawMessage) *configSchema {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var decl struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	s := &configSchema{required: map[string]bool{}}
	if err := json.Unmarshal(raw, &decl); err != nil || len(decl.Properties) == 0 || string(decl.Properties) == "null" {
		s.whole = true
		return s
	}
	props, err := orderedObject(decl.Properties)
	if err != nil {
		s.whole = true
		return s
	}
	for _, r := range decl.Required {
		s.required[r] = true
	}
	for _, kv := range props {
		var p map[string]any
		if err := json.Unmarshal(kv.value, &p); err != nil {
			p = map[string]any{}
		}
		s.props = append(s.props, newSchemaProp(kv.key, p))
	}
	return s
}

// keyValue is a member of a JSON object.
type keyValue struct {
	key   string
	value json.RawMessage
}

// orderedObject returns the members of a JSON object in their order.
func orderedObject(raw json.RawMessage) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []keyValue
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyValue{key: key, value: v})
	}
	return out, nil
}

// newSchemaProp reads a property's declaration: the field it takes from
// its type and enum, its label, help and default.
func newSchemaProp(name string, p map[string]any) schemaProp {
	sp := schemaProp{name: name, title: name}
	if t, ok := p["title"].(string); ok && strings.TrimSpace(t) != "" {
		sp.title = t
	}
	if d, ok := p["description"].(string); ok {
		sp.help = d
	}
	sp.def, sp.hasDef = p["default"]
	sp.typ, _ = p["type"].(string)
	enum, _ := p["enum"].([]any)
	switch sp.typ {
	case "string", "number", "integer":
		sp.kind = map[string]string{"string": fieldText, "number": fieldNumber, "integer": fieldInteger}[sp.typ]
		if len(enum) > 0 && primitives(enum) {
			sp.kind, sp.enum = fieldSelect, enum
		}
	case "boolean":
		sp.kind = fieldCheckbox
	default:
		// Arrays, objects, actions (type button) and anything else:
		// typed as JSON rather than left out.
		sp.kind = fieldJSON
	}
	return sp
}

// primitives reports whether an enum lists strings and numbers alone,
// which a select offers.
func primitives(vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case string, float64:
		default:
			return false
		}
	}
	return true
}

// configFieldName is the form field of a property.
func configFieldName(prop string) string { return configFieldPrefix + prop }

// fields returns the form's fields showing a configuration: each
// property's value, or its default when the configuration has none.
func (s *configSchema) fields(cfg map[string]any) []formField {
	if s.whole {
		return []formField{s.wholeField(jsonText(cfg))}
	}
	out := make([]formField, 0, len(s.props))
	for i, p := range s.props {
		f := s.field(i, p)
		v, ok := cfg[p.name]
		if !ok && p.hasDef {
			v, ok = p.def, true
		}
		if ok {
			f.Value, f.Checked = valueText(p, v), v == true
		}
		setSelected(&f)
		out = append(out, f)
	}
	return out
}

// typed returns the form's fields as typed into a refused form.
func (s *configSchema) typed(form url.Values) []formField {
	if s.whole {
		return []formField{s.wholeField(form.Get(wholeConfigField))}
	}
	out := make([]formField, 0, len(s.props))
	for i, p := range s.props {
		f := s.field(i, p)
		vs := form[f.Name]
		if len(vs) > 0 {
			f.Value = vs[len(vs)-1]
		}
		f.Checked = f.Value == "true"
		setSelected(&f)
		out = append(out, f)
	}
	return out
}

// wholeField is the one JSON field of a configuration without
// properties to draw.
func (s *configSchema) wholeField(value string) formField {
	return formField{ID: "config-whole", Name: wholeConfigField, Label: "Configuration (JSON)", Kind: fieldJSON, Value: value,
		Help: "The integration draws this configuration itself, which the app cannot; type it as a JSON object."}
}

// field returns the empty field of the i-th property.
func (s *configSchema) field(i int, p schemaProp) formField {
	f := formField{ID: "config-" + strconv.Itoa(i), Name: configFieldName(p.name), Label: p.title, Help: p.help, Kind: p.kind,
		Required: s.required[p.name]}
	if p.kind == fieldJSON {
		note := "Type its value as JSON; leave it empty to leave it out."
		if f.Help != "" {
			note = f.Help + " " + note
		}
		f.Help = note
	}
	if p.kind == fieldSelect {
		// An empty choice leaves the property out: offered when it may be
		// left out, or when nothing is chosen yet.
		if !f.Required || !p.hasDef {
			label := "Not set"
			if f.Required {
				label = "Choose one"
			}
			f.Options = append(f.Options, formOption{Label: label})
		}
		for _, v := range p.enum {
			t := valueText(p, v)
			f.Options = append(f.Options, formOption{Value: t, Label: t})
		}
	}
	return f
}

// setSelected marks the select's option holding the field's value; a
// value among none of the choices (set through the API) is offered as
// it is, rather than replaced unseen by the first choice.
func setSelected(f *formField) {
	found := false
	for i := range f.Options {
		f.Options[i].Selected = f.Options[i].Value == f.Value
		found = found || f.Options[i].Selected
	}
	if f.Kind == fieldSelect && !found && f.Value != "" {
		f.Options = append(f.Options, formOption{Value: f.Value, Label: f.Value + " (not one of the choices)", Selected: true})
	}
}

// valueText is a value as its field shows it.
func valueText(p schemaProp, v any) string {
	switch p.kind {
	case fieldJSON:
		return jsonText(v)
	case fieldCheckbox:
		if v == true {
			return "true"
		}
		return "false"
	}
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return jsonText(v)
}

// jsonText is a value as indented JSON.
func jsonText(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// read turns a posted form into the configuration it says: each field
// converted to its property's type, empty ones left out, and the
// members of was the schema does not declare (set through the API)
// kept. A value that is not of its type is refused naming the field;
// what the schema requires of the values is the service's to check.
func (s *configSchema) read(form url.Values, was map[string]any) (map[string]any, error) {
	if s.whole {
		text := strings.TrimSpace(form.Get(wholeConfigField))
		out := map[string]any{}
		if text == "" {
			return out, nil
		}
		if err := json.Unmarshal([]byte(text), &out); err != nil || out == nil {
			return nil, quire.Invalid(wholeConfigField, "must be a JSON object")
		}
		return out, nil
	}
	out := map[string]any{}
	for k, v := range was {
		if !s.declares(k) {
			out[k] = v
		}
	}
	for _, p := range s.props {
		vs, sent := form[configFieldName(p.name)]
		if !sent {
			continue
		}
		v, ok, err := p.value(vs[len(vs)-1])
		if err != nil {
			return nil, err
		}
		if ok {
			out[p.name] = v
		}
	}
	return out, nil
}

// declares reports whether the schema declares a property.
func (s *configSchema) declares(name string) bool {
	for _, p := range s.props {
		if p.name == name {
			return true
		}
	}
	return false
}

// kept names the members of a configuration the schema does not
// declare, which the form keeps as they are.
func (s *configSchema) kept(cfg map[string]any) []string {
	if s == nil || s.whole {
		return nil
	}
	var out []string
	for k := range cfg {
		if !s.declares(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// value converts a property's typed text; ok is false for an empty
// field, left out of the configuration.
func (p schemaProp) value(text string) (any, bool, error) {
	field := wholeConfigField + "." + p.name
	if p.kind == fieldCheckbox {
		return text == "true", true, nil
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false, nil
	}
	switch {
	case p.kind == fieldJSON:
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, false, quire.Invalid(field, "must be valid JSON")
		}
		return v, true, nil
	case p.typ == "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, false, quire.Invalid(field, "must be a whole number")
		}
		return n, true, nil
	case p.typ == "number":
		n, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, false, quire.Invalid(field, "must be a number")
		}
		return n, true, nil
	}
	return text, true, nil
}

// refusal places a refused configuration's error on the form: the
// property it names (for a required property left out, the first such
// property of the configuration sent) and the message, the property
// named by its label. ok is false for an error not about the
// configuration's values.
func (s *configSchema) refusal(err error, sent map[string]any) (field, msg string, ok bool) {
	f, m, ok := formError(err)
	if !ok || (f != wholeConfigField && !strings.HasPrefix(f, wholeConfigField+".")) {
		return "", "", false
	}
	if s.whole {
		return wholeConfigField, "Configuration: " + m + ".", true
	}
	if name, deeper := strings.CutPrefix(f, wholeConfigField+"."); deeper {
		top, _, _ := strings.Cut(name, ".")
		for _, p := range s.props {
			if p.name == top {
				return configFieldName(p.name), fmt.Sprintf("%s: %s.", p.title, m), true
			}
		}
	}
	if strings.HasPrefix(m, "missing propert") {
		for _, p := range s.props {
			if _, there := sent[p.name]; s.required[p.name] && !there {
				return configFieldName(p.name), p.title + " is required.", true
			}
		}
	}
	return wholeConfigField, "Configuration: " + m + ".", true
}
