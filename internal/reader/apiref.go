package reader

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// APIReference is an OpenAPI document read for people: operations
// grouped by tag, and the named schemas they use.
type APIReference struct {
	Title       string
	Version     string
	Description string
	Tags        []APITag
	Schemas     []APISchema
}

// APITag is a group of operations.
type APITag struct {
	Name        string
	ID          string
	Description string
	Operations  []APIOperation
}

// APIOperation is one method on one path.
type APIOperation struct {
	ID          string
	Anchor      string
	Method      string
	Path        string
	Summary     string
	Description string
	Deprecated  bool
	Parameters  []APIField
	RequestBody *APIBody
	Responses   []APIBody
}

// Paragraphs splits the operation's description at its blank lines, the
// paragraphs of its Markdown.
func (o APIOperation) Paragraphs() []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(o.Description, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// APIBody is a request body or a response: its status (responses
// only), description, media type and schema.
type APIBody struct {
	Status      string
	Description string
	ContentType string
	Required    bool
	Schema      *APIType
}

// APIField is a parameter or a property of an object.
type APIField struct {
	Name        string
	In          string
	Required    bool
	Description string
	Type        APIType
}

// APIType describes a schema: a name linking to a named schema (Ref),
// or a text such as "string", "array of Space" or "one of a, b", with
// the properties of an object given in place.
type APIType struct {
	Text string
	// Ref is the anchor of the named schema, when Text names one.
	Ref    string
	Fields []APIField
}

// APISchema is a named schema of the document's components.
type APISchema struct {
	Name        string
	ID          string
	Description string
	Type        APIType
}

// maxSchemaDepth bounds how deep object properties are shown in place.
const maxSchemaDepth = 3

// ReadAPIReference reads an OpenAPI 3 document (JSON) for rendering.
func ReadAPIReference(spec []byte) (*APIReference, error) {
	var doc struct {
		Info struct {
			Title       string `json:"title"`
			Version     string `json:"version"`
			Description string `json:"description"`
		} `json:"info"`
		Tags []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tags"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	ref := &APIReference{Title: doc.Info.Title, Version: doc.Info.Version, Description: doc.Info.Description}
	tags := map[string]*APITag{}
	var order []string
	tagOf := func(name string) *APITag {
		if t, ok := tags[name]; ok {
			return t
		}
		t := &APITag{Name: name, ID: "tag-" + slug(name)}
		tags[name] = t
		order = append(order, name)
		return t
	}
	for _, t := range doc.Tags {
		tagOf(t.Name).Description = t.Description
	}
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, m := range []string{"get", "put", "post", "patch", "delete", "head", "options"} {
			raw, ok := doc.Paths[p][m]
			if !ok {
				continue
			}
			var op map[string]any
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("reading %s %s: %w", m, p, err)
			}
			o := readOperation(m, p, op)
			tagName := pathGroup(p)
			if list, _ := op["tags"].([]any); len(list) > 0 {
				if s, ok := list[0].(string); ok && s != "" {
					tagName = s
				}
			}
			t := tagOf(tagName)
			t.Operations = append(t.Operations, o)
		}
	}
	for _, name := range order {
		if t := tags[name]; len(t.Operations) > 0 {
			ref.Tags = append(ref.Tags, *t)
		}
	}
	names := make([]string, 0, len(doc.Components.Schemas))
	for n := range doc.Components.Schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := doc.Components.Schemas[n]
		desc, _ := s["description"].(string)
		ref.Schemas = append(ref.Schemas, APISchema{Name: n, ID: schemaAnchor(n), Description: desc, Type: readType(s, 0)})
	}
	return ref, nil
}

// pathGroup names the group of an operation without tags: the first
// segment of its path after a version prefix (/v1/orgs/… is "orgs").
func pathGroup(p string) string {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	if len(segs) > 0 && len(segs[0]) > 1 && segs[0][0] == 'v' && strings.Trim(segs[0][1:], "0123456789") == "" {
		segs = segs[1:]
	}
	if len(segs) == 0 || strings.HasPrefix(segs[0], "{") {
		return "General"
	}
	return segs[0]
}

func schemaAnchor(name string) string { return "schema-" + name }

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func readOperation(method, path string, op map[string]any) APIOperation {
	o := APIOperation{ID: str(op, "operationId"), Method: strings.ToUpper(method), Path: path,
		Summary: str(op, "summary"), Description: str(op, "description")}
	o.Deprecated, _ = op["deprecated"].(bool)
	o.Anchor = "op-" + slug(firstNonEmpty(o.ID, method+" "+path))
	if params, ok := op["parameters"].([]any); ok {
		for _, p := range params {
			pm, _ := p.(map[string]any)
			if pm == nil {
				continue
			}
			f := APIField{Name: str(pm, "name"), In: str(pm, "in"), Description: str(pm, "description")}
			f.Required, _ = pm["required"].(bool)
			if s, ok := pm["schema"].(map[string]any); ok {
				f.Type = readType(s, maxSchemaDepth)
			}
			o.Parameters = append(o.Parameters, f)
		}
	}
	if rb, ok := op["requestBody"].(map[string]any); ok {
		b := readBody(rb)
		b.Required, _ = rb["required"].(bool)
		o.RequestBody = &b
	}
	if rs, ok := op["responses"].(map[string]any); ok {
		codes := make([]string, 0, len(rs))
		for c := range rs {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			rm, _ := rs[c].(map[string]any)
			b := readBody(rm)
			b.Status = c
			o.Responses = append(o.Responses, b)
		}
	}
	return o
}

// readBody reads a request body or response: its first media type.
func readBody(m map[string]any) APIBody {
	b := APIBody{Description: str(m, "description")}
	content, _ := m["content"].(map[string]any)
	types := make([]string, 0, len(content))
	for t := range content {
		types = append(types, t)
	}
	slices.Sort(types)
	if len(types) > 0 {
		b.ContentType = types[0]
		if mt, ok := content[types[0]].(map[string]any); ok {
			if s, ok := mt["schema"].(map[string]any); ok {
				t := readType(s, 0)
				b.Schema = &t
			}
		}
	}
	return b
}

// readType describes a schema; depth counts the objects it is inside.
func readType(s map[string]any, depth int) APIType {
	if r := str(s, "$ref"); r != "" {
		name := r[strings.LastIndexByte(r, '/')+1:]
		return APIType{Text: name, Ref: schemaAnchor(name)}
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok && len(list) > 0 {
			var parts []string
			var fields []APIField
			ref := ""
			for _, e := range list {
				em, _ := e.(map[string]any)
				t := readType(em, depth)
				parts = append(parts, t.Text)
				fields = append(fields, t.Fields...)
				if len(list) == 1 {
					ref = t.Ref
				}
			}
			sep := map[string]string{"oneOf": " or ", "anyOf": " or ", "allOf": " and "}[k]
			return APIType{Text: strings.Join(parts, sep), Ref: ref, Fields: fields}
		}
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			if v, ok := e.(string); ok {
				types = append(types, v)
			}
		}
	}
	nullable := slices.Contains(types, "null")
	types = slices.DeleteFunc(types, func(t string) bool { return t == "null" })
	out := APIType{}
	switch {
	case len(types) == 1 && types[0] == "array":
		items, _ := s["items"].(map[string]any)
		it := readType(items, depth)
		out = APIType{Text: "array of " + it.Text, Ref: it.Ref, Fields: it.Fields}
	case len(types) == 1 && types[0] == "object" || len(types) == 0 && s["properties"] != nil:
		out.Text = "object"
		if depth < maxSchemaDepth {
			out.Fields = readFields(s, depth+1)
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok && len(out.Fields) == 0 {
			out.Text = "map of " + readType(ap, depth+1).Text
		}
	case len(types) > 0:
		out.Text = strings.Join(types, " or ")
		if f := str(s, "format"); f != "" {
			out.Text += " (" + f + ")"
		}
	default:
		out.Text = "any"
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		vals := make([]string, 0, len(enum))
		for _, e := range enum {
			vals = append(vals, fmt.Sprint(e))
		}
		out.Text += ", one of " + strings.Join(vals, ", ")
	}
	if nullable {
		out.Text += " or null"
	}
	return out
}

// readFields reads the properties of an object schema in order of name.
func readFields(s map[string]any, depth int) []APIField {
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	if list, ok := s["required"].([]any); ok {
		for _, r := range list {
			if n, ok := r.(string); ok {
				req[n] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	fields := make([]APIField, 0, len(names))
	for _, n := range names {
		pm, _ := props[n].(map[string]any)
		fields = append(fields, APIField{Name: n, Required: req[n], Description: str(pm, "description"), Type: readType(pm, depth)})
	}
	return fields
}
