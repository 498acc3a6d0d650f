package apiref

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v2high "github.com/pb33f/libopenapi/datamodel/high/v2"
	v3high "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// Card is the reference of one operation: what a reader needs to call it.
type Card struct {
	Method      string // upper case
	Path        string
	OperationID string
	Summary     string
	Description string
	Deprecated  bool
	// Servers are the base URLs the operation is served at.
	Servers     []string
	Parameters  []Parameter
	RequestBody *Body
	Responses   []Response
}

// Parameter is a path, query, header or cookie parameter.
type Parameter struct {
	Name, In    string
	Required    bool
	Description string
	Schema      *Schema
	Example     string
}

// Body is a request body.
type Body struct {
	Description string
	Required    bool
	Contents    []Media
}

// Response is the answer of one status (or "default").
type Response struct {
	Status      string
	Description string
	Contents    []Media
}

// Media is a body in one media type: its schema and an example, given by
// the specification or made from the schema.
type Media struct {
	Type    string
	Schema  *Schema
	Example string
}

// Schema is the shape of a value, as far as a card shows it.
type Schema struct {
	// Name is the name of the component it refers to, if any.
	Name        string
	Type        string // "object", "array of string", "string (date-time)"…
	Description string
	Enum        []string
	Properties  []Property
	Items       *Schema
}

// Property is a member of an object schema.
type Property struct {
	Name     string
	Required bool
	Schema   *Schema
}

// Operation names an operation of a specification.
type Operation struct {
	Path, Method string
}

// pathMethods are the HTTP methods of path items, in the order cards
// list them.
func pathMethods() []string {
	return []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}
}

// Operations lists the operations of the specification, in document order.
func (s *Spec) Operations() []Operation {
	var out []Operation
	switch {
	case s.v3 != nil && s.v3.Paths != nil && s.v3.Paths.PathItems != nil:
		for p, item := range s.v3.Paths.PathItems.FromOldest() {
			for _, m := range pathMethods() {
				if v3Op(item, m) != nil {
					out = append(out, Operation{Path: p, Method: strings.ToUpper(m)})
				}
			}
		}
	case s.v2 != nil && s.v2.Paths != nil && s.v2.Paths.PathItems != nil:
		for p, item := range s.v2.Paths.PathItems.FromOldest() {
			for _, m := range pathMethods() {
				if v2Op(item, m) != nil {
					out = append(out, Operation{Path: p, Method: strings.ToUpper(m)})
				}
			}
		}
	}
	return out
}

// Title returns the title of the specification's info object.
func (s *Spec) Title() string {
	switch {
	case s.v3 != nil && s.v3.Info != nil:
		return s.v3.Info.Title
	case s.v2 != nil && s.v2.Info != nil:
		return s.v2.Info.Title
	}
	return ""
}

// Card returns the card of the operation at path with method (any case);
// ok is false when the specification has no such operation.
func (s *Spec) Card(path, method string) (*Card, bool) {
	m := strings.ToLower(method)
	switch {
	case s.v3 != nil && s.v3.Paths != nil && s.v3.Paths.PathItems != nil:
		item := s.v3.Paths.PathItems.GetOrZero(path)
		if item == nil || v3Op(item, m) == nil {
			return nil, false
		}
		return v3Card(s.v3, path, m, item), true
	case s.v2 != nil && s.v2.Paths != nil && s.v2.Paths.PathItems != nil:
		item := s.v2.Paths.PathItems.GetOrZero(path)
		if item == nil || v2Op(item, m) == nil {
			return nil, false
		}
		return v2Card(s.v2, path, m, item), true
	}
	return nil, false
}

// v3Op returns the operation of a path item for a lower-case method.
func v3Op(item *v3high.PathItem, m string) *v3high.Operation {
	return item.GetOperations().GetOrZero(m)
}

// v2Op returns the operation of a Swagger path item for a lower-case
// method.
func v2Op(item *v2high.PathItem, m string) *v2high.Operation {
	return item.GetOperations().GetOrZero(m)
}

// v3Card builds the card of an OpenAPI 3 operation.
func v3Card(doc *v3high.Document, path, m string, item *v3high.PathItem) *Card {
	op := v3Op(item, m)
	c := &Card{Method: strings.ToUpper(m), Path: path, OperationID: op.OperationId, Summary: op.Summary,
		Description: op.Description, Deprecated: op.Deprecated != nil && *op.Deprecated}
	servers := op.Servers
	if len(servers) == 0 {
		servers = item.Servers
	}
	if len(servers) == 0 {
		servers = doc.Servers
	}
	for _, sv := range servers {
		c.Servers = append(c.Servers, sv.URL)
	}
	// Operation parameters override the path item's of the same name
	// and location.
	params := slices.Clone(op.Parameters)
	for _, p := range item.Parameters {
		if !slices.ContainsFunc(params, func(q *v3high.Parameter) bool { return q.Name == p.Name && q.In == p.In }) {
			params = append(params, p)
		}
	}
	for _, p := range params {
		c.Parameters = append(c.Parameters, Parameter{Name: p.Name, In: p.In, Required: p.Required != nil && *p.Required,
			Description: p.Description, Schema: schemaOf(p.Schema, 0), Example: nodeText(p.Example)})
	}
	if rb := op.RequestBody; rb != nil {
		c.RequestBody = &Body{Description: rb.Description, Required: rb.Required != nil && *rb.Required, Contents: v3Media(rb.Content)}
	}
	if op.Responses != nil {
		if op.Responses.Codes != nil {
			for code, r := range op.Responses.Codes.FromOldest() {
				c.Responses = append(c.Responses, Response{Status: code, Description: r.Description, Contents: v3Media(r.Content)})
			}
		}
		if r := op.Responses.Default; r != nil {
			c.Responses = append(c.Responses, Response{Status: "default", Description: r.Description, Contents: v3Media(r.Content)})
		}
	}
	return c
}

// v3Media lists the media types of a content map.
func v3Media(content *orderedmap.Map[string, *v3high.MediaType]) []Media {
	if content == nil {
		return nil
	}
	var out []Media
	for typ, mt := range content.FromOldest() {
		md := Media{Type: typ, Schema: schemaOf(mt.Schema, 0)}
		switch {
		case mt.Example != nil:
			md.Example = nodeText(mt.Example)
		case mt.Examples != nil && mt.Examples.Len() > 0:
			if ex := mt.Examples.First().Value(); ex != nil {
				md.Example = nodeText(ex.Value)
			}
		}
		if md.Example == "" && mt.Schema != nil {
			md.Example = exampleText(mt.Schema)
		}
		out = append(out, md)
	}
	return out
}

// v2Card builds the card of a Swagger 2.0 operation: its body parameter
// becomes the request body, in the operation's (or document's) consumed
// media types.
func v2Card(doc *v2high.Swagger, path, m string, item *v2high.PathItem) *Card {
	op := v2Op(item, m)
	c := &Card{Method: strings.ToUpper(m), Path: path, OperationID: op.OperationId, Summary: op.Summary,
		Description: op.Description, Deprecated: op.Deprecated}
	if doc.Host != "" {
		schemes := doc.Schemes
		if len(schemes) == 0 {
			schemes = []string{"https"}
		}
		for _, sc := range schemes {
			c.Servers = append(c.Servers, sc+"://"+doc.Host+doc.BasePath)
		}
	}
	consumes, produces := op.Consumes, op.Produces
	if len(consumes) == 0 {
		consumes = doc.Consumes
	}
	if len(consumes) == 0 {
		consumes = []string{"application/json"}
	}
	if len(produces) == 0 {
		produces = doc.Produces
	}
	if len(produces) == 0 {
		produces = []string{"application/json"}
	}
	params := slices.Clone(op.Parameters)
	for _, p := range item.Parameters {
		if !slices.ContainsFunc(params, func(q *v2high.Parameter) bool { return q.Name == p.Name && q.In == p.In }) {
			params = append(params, p)
		}
	}
	for _, p := range params {
		required := p.Required != nil && *p.Required
		if p.In == "body" {
			b := &Body{Description: p.Description, Required: required}
			for _, typ := range consumes {
				b.Contents = append(b.Contents, Media{Type: typ, Schema: schemaOf(p.Schema, 0), Example: exampleText(p.Schema)})
			}
			c.RequestBody = b
			continue
		}
		sc := &Schema{Type: p.Type}
		if p.Format != "" {
			sc.Type += " (" + p.Format + ")"
		}
		if p.Type == "array" && p.Items != nil {
			sc.Type = "array of " + p.Items.Type
		}
		for _, e := range p.Enum {
			sc.Enum = append(sc.Enum, nodeText(e))
		}
		c.Parameters = append(c.Parameters, Parameter{Name: p.Name, In: p.In, Required: required, Description: p.Description, Schema: sc})
	}
	if op.Responses != nil {
		add := func(code string, r *v2high.Response) {
			resp := Response{Status: code, Description: r.Description}
			if r.Schema != nil {
				for _, typ := range produces {
					md := Media{Type: typ, Schema: schemaOf(r.Schema, 0)}
					if r.Examples != nil && r.Examples.Values != nil {
						md.Example = nodeText(r.Examples.Values.GetOrZero(typ))
					}
					if md.Example == "" {
						md.Example = exampleText(r.Schema)
					}
					resp.Contents = append(resp.Contents, md)
				}
			}
			c.Responses = append(c.Responses, resp)
		}
		if op.Responses.Codes != nil {
			for code, r := range op.Responses.Codes.FromOldest() {
				add(code, r)
			}
		}
		if op.Responses.Default != nil {
			add("default", op.Responses.Default)
		}
	}
	return c
}

// maxSchemaDepth bounds how deep a card describes nested schemas.
const maxSchemaDepth = 4

// schemaOf describes a schema, down to maxSchemaDepth levels.
func schemaOf(p *base.SchemaProxy, depth int) *Schema {
	if p == nil {
		return nil
	}
	out := &Schema{}
	if p.IsReference() {
		ref := p.GetReference()
		out.Name = ref[strings.LastIndex(ref, "/")+1:]
	}
	s := p.Schema()
	if s == nil {
		out.Type = "any"
		return out
	}
	out.Description = s.Description
	out.Type = schemaType(s)
	for _, e := range s.Enum {
		out.Enum = append(out.Enum, nodeText(e))
	}
	if depth >= maxSchemaDepth {
		return out
	}
	props := s.Properties
	if props == nil || props.Len() == 0 {
		// allOf parts merge their properties.
		for _, part := range s.AllOf {
			if ps := part.Schema(); ps != nil && ps.Properties != nil {
				for name, pp := range ps.Properties.FromOldest() {
					out.Properties = append(out.Properties, Property{Name: name, Required: slices.Contains(ps.Required, name),
						Schema: schemaOf(pp, depth+1)})
				}
			}
		}
	} else {
		for name, pp := range props.FromOldest() {
			out.Properties = append(out.Properties, Property{Name: name, Required: slices.Contains(s.Required, name),
				Schema: schemaOf(pp, depth+1)})
		}
	}
	if s.Items != nil && s.Items.IsA() && s.Items.A != nil {
		out.Items = schemaOf(s.Items.A, depth+1)
	}
	return out
}

// schemaType names a schema's type for a reader.
func schemaType(s *base.Schema) string {
	types := slices.DeleteFunc(slices.Clone(s.Type), func(t string) bool { return t == "null" })
	t := strings.Join(types, " or ")
	switch {
	case t == "" && (len(s.OneOf) > 0 || len(s.AnyOf) > 0):
		t = "one of"
		var names []string
		for _, p := range append(slices.Clone(s.OneOf), s.AnyOf...) {
			if p.IsReference() {
				ref := p.GetReference()
				names = append(names, ref[strings.LastIndex(ref, "/")+1:])
			} else if ps := p.Schema(); ps != nil {
				names = append(names, schemaType(ps))
			}
		}
		if len(names) > 0 {
			t += " " + strings.Join(names, ", ")
		}
	case t == "" && len(s.AllOf) > 0:
		t = "object"
	case t == "" && s.Properties != nil && s.Properties.Len() > 0:
		t = "object"
	case t == "":
		t = "any"
	}
	if t == "array" && s.Items != nil && s.Items.IsA() && s.Items.A != nil {
		if s.Items.A.IsReference() {
			ref := s.Items.A.GetReference()
			t = "array of " + ref[strings.LastIndex(ref, "/")+1:]
		} else if is := s.Items.A.Schema(); is != nil {
			t = "array of " + schemaType(is)
		}
	}
	if s.Format != "" {
		t += fmt.Sprintf(" (%s)", s.Format)
	}
	if len(s.Type) > len(types) {
		t += ", nullable"
	}
	return t
}
