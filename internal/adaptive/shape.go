package adaptive

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// read checks the document against the published shape of a visitor
// schema and records its claims.
func (s *Schema) read(doc any) error {
	var root pointer
	obj, ok := doc.(map[string]any)
	if !ok {
		return schemaErrorf(root, "the visitor schema must be a JSON object, not %s", jsonKind(doc))
	}
	if err := onlyKeys(obj, root, "a visitor schema", "$schema", "type", "properties", "additionalProperties"); err != nil {
		return err
	}
	if v, ok := obj["$schema"]; ok && v != Draft07 {
		return schemaErrorf(root.with("$schema"), "must be %q, or left out", Draft07)
	}
	if err := mustEqual(obj, root, "type", "object", "a visitor schema"); err != nil {
		return err
	}
	if err := mustEqual(obj, root, "additionalProperties", false, "a visitor schema (visitors bring only the claims it declares)"); err != nil {
		return err
	}
	props, err := objectAt(obj, root, "properties", "a visitor schema")
	if err != nil {
		return err
	}
	at := root.with("properties")
	s.claims = map[string]*claim{}
	for _, name := range sortedKeys(props) {
		if name == "unsigned" {
			s.unsigned, err = readUnsigned(props[name], at.with(name))
		} else {
			s.claims[name], err = readClaim(props[name], at.with(name), true)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readUnsigned reads the "unsigned" object: the claims a visitor sets
// without a signature.
func readUnsigned(v any, at pointer) (map[string]*claim, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, schemaErrorf(at, "the unsigned claims must be a JSON object, not %s", jsonKind(v))
	}
	what := "the unsigned claims"
	if err := onlyKeys(obj, at, what, "type", "description", "properties", "additionalProperties"); err != nil {
		return nil, err
	}
	if err := mustEqual(obj, at, "type", "object", what); err != nil {
		return nil, err
	}
	if err := mustEqual(obj, at, "description", UnsignedDescription, what); err != nil {
		return nil, err
	}
	if err := mustEqual(obj, at, "additionalProperties", false, what); err != nil {
		return nil, err
	}
	return readMembers(obj, at, what, true)
}

// readMembers reads the "properties" of an object schema as claims.
func readMembers(obj map[string]any, at pointer, what string, nested bool) (map[string]*claim, error) {
	props, err := objectAt(obj, at, "properties", what)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*claim, len(props))
	for _, name := range sortedKeys(props) {
		c, err := readClaim(props[name], at.with("properties").with(name), nested)
		if err != nil {
			return nil, err
		}
		out[name] = c
	}
	return out, nil
}

// readClaim reads one claim schema. Arrays and objects are allowed only
// where composite is true (not as the items of an array).
func readClaim(v any, at pointer, composite bool) (*claim, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, schemaErrorf(at, "a claim must be described by a JSON object, not %s", jsonKind(v))
	}
	if err := onlyKeys(obj, at, "a claim", "type", "description", "enum", "items", "properties", "additionalProperties"); err != nil {
		return nil, err
	}
	kinds := []string{"boolean", "string", "number"}
	if composite {
		kinds = append(kinds, "array", "object")
	}
	t, ok := obj["type"].(string)
	switch {
	case obj["type"] == nil:
		return nil, schemaErrorf(at, `a claim needs a "type": one of %s`, strings.Join(kinds, ", "))
	case !ok || !slices.Contains(kinds, t):
		return nil, schemaErrorf(at.with("type"), "must be one of %s", strings.Join(kinds, ", "))
	}
	c := &claim{kind: claimKind(t)}
	what := "a " + t + " claim"
	desc, ok := obj["description"].(string)
	if !ok {
		if _, present := obj["description"]; present {
			return nil, schemaErrorf(at.with("description"), "must be a string")
		}
		return nil, schemaErrorf(at, `%s needs a "description" telling what the claim is`, what)
	}
	c.description = desc
	var err error
	switch c.kind {
	case kindBoolean, kindNumber:
		err = onlyKeys(obj, at, what, "type", "description")
	case kindString:
		if err = onlyKeys(obj, at, what, "type", "description", "enum"); err == nil {
			c.enum, c.hasEnum, err = readEnum(obj, at)
		}
	case kindArray:
		if err = onlyKeys(obj, at, what, "type", "description", "items"); err != nil {
			break
		}
		if _, ok := obj["items"]; !ok {
			return nil, schemaErrorf(at, `an array claim needs "items": the boolean, string or number claim its values are`)
		}
		c.items, err = readClaim(obj["items"], at.with("items"), false)
	case kindObject:
		if err = onlyKeys(obj, at, what, "type", "description", "properties", "additionalProperties"); err != nil {
			break
		}
		if err = mustEqual(obj, at, "additionalProperties", false, what); err != nil {
			break
		}
		c.properties, err = readMembers(obj, at, what, true)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// readEnum reads the optional enum of a string claim.
func readEnum(obj map[string]any, at pointer) ([]string, bool, error) {
	v, ok := obj["enum"]
	if !ok {
		return nil, false, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false, schemaErrorf(at.with("enum"), "must be an array of strings")
	}
	out := make([]string, 0, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, false, schemaErrorf(at.with("enum").with(fmt.Sprint(i)), "must be a string, not %s", jsonKind(item))
		}
		out = append(out, s)
	}
	return out, true, nil
}

// onlyKeys refuses a member other than the allowed ones.
func onlyKeys(obj map[string]any, at pointer, what string, allowed ...string) error {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			return schemaErrorf(at.with(k), "%q is not allowed in %s, which holds only %s", k, what, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// mustEqual requires a member with exactly the given value.
func mustEqual(obj map[string]any, at pointer, key string, want any, what string) error {
	v, ok := obj[key]
	if !ok {
		return schemaErrorf(at, "%s needs %q set to %s", what, key, render(want))
	}
	if v != want {
		return schemaErrorf(at.with(key), "must be %s in %s", render(want), what)
	}
	return nil
}

// objectAt returns a required member that must be an object.
func objectAt(obj map[string]any, at pointer, key, what string) (map[string]any, error) {
	v, ok := obj[key]
	if !ok {
		return nil, schemaErrorf(at, "%s needs %q, an object of claims (it may be empty)", what, key)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, schemaErrorf(at.with(key), "must be an object of claims, not %s", jsonKind(v))
	}
	return m, nil
}

// render writes a wanted value as it appears in JSON.
func render(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return "a number"
	}
}

// sortedKeys returns the members of an object in byte order, so that the
// first problem reported does not change from one call to the next.
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
