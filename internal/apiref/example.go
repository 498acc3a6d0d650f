package apiref

import (
	"encoding/json"
	"slices"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// nodeText renders an example or enum value: a string as it is, anything
// else as indented JSON.
func nodeText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.MarshalIndent(jsonable(v), "", "  ")
	if err != nil {
		return n.Value
	}
	return string(b)
}

// exampleText makes an example of a schema, as indented JSON: the
// schema's own example where there is one, else a value of each
// property's type.
func exampleText(p *base.SchemaProxy) string {
	v := exampleOf(p, 0)
	if v == nil {
		return ""
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

// exampleOf makes an example value of a schema, down to maxSchemaDepth.
func exampleOf(p *base.SchemaProxy, depth int) any {
	if p == nil || depth > maxSchemaDepth {
		return nil
	}
	s := p.Schema()
	if s == nil {
		return nil
	}
	if s.Example != nil {
		var v any
		if err := s.Example.Decode(&v); err == nil {
			return jsonable(v)
		}
	}
	if len(s.Examples) > 0 && s.Examples[0] != nil {
		var v any
		if err := s.Examples[0].Decode(&v); err == nil {
			return jsonable(v)
		}
	}
	if len(s.Enum) > 0 && s.Enum[0] != nil {
		var v any
		if err := s.Enum[0].Decode(&v); err == nil {
			return jsonable(v)
		}
	}
	if s.Default != nil {
		var v any
		if err := s.Default.Decode(&v); err == nil {
			return jsonable(v)
		}
	}
	switch {
	case len(s.AllOf) > 0:
		obj := map[string]any{}
		for _, part := range s.AllOf {
			if m, ok := exampleOf(part, depth+1).(map[string]any); ok {
				for k, v := range m {
					obj[k] = v
				}
			}
		}
		return obj
	case len(s.OneOf) > 0:
		return exampleOf(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return exampleOf(s.AnyOf[0], depth+1)
	}
	typ := ""
	for _, t := range s.Type {
		if t != "null" {
			typ = t
			break
		}
	}
	if typ == "" && s.Properties != nil && s.Properties.Len() > 0 {
		typ = "object"
	}
	switch typ {
	case "object":
		obj := map[string]any{}
		if s.Properties != nil {
			for name, pp := range s.Properties.FromOldest() {
				obj[name] = exampleOf(pp, depth+1)
			}
		}
		return obj
	case "array":
		if s.Items != nil && s.Items.IsA() {
			if v := exampleOf(s.Items.A, depth+1); v != nil {
				return []any{v}
			}
		}
		return []any{}
	case "integer":
		return 0
	case "number":
		return 0.0
	case "boolean":
		return true
	case "string":
		return stringExample(s.Format)
	}
	return nil
}

// stringFormats are example strings of the common formats.
var stringFormats = map[string]string{
	"date":      "2024-01-31",
	"date-time": "2024-01-31T12:00:00Z",
	"email":     "user@example.com",
	"uri":       "https://example.com",
	"url":       "https://example.com",
	"uuid":      "3fa85f64-5717-4562-b3fc-2c963f66afa6",
	"byte":      "U3dhZ2dlcg==",
}

// stringExample returns an example string of a format.
func stringExample(format string) string {
	if s, ok := stringFormats[format]; ok {
		return s
	}
	if slices.Contains([]string{"password"}, format) {
		return "********"
	}
	return "string"
}
