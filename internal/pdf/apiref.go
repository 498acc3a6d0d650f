package pdf

import (
	"context"
	"strings"

	"quire/internal/apiref"
	"quire/internal/document"
)

// OperationResolver returns the card of an operation of an OpenAPI
// specification of the organization, by the specification's slug; ok is
// false when there is no such specification, version or operation.
type OperationResolver func(ctx context.Context, spec, path, method string) (card *apiref.Card, ok bool)

// methodColors are the colors of the HTTP methods on a card.
var methodColors = map[string]rgb{
	"GET": 0x2da44e, "POST": 0x1a5fb4, "PUT": 0xd9822b, "PATCH": 0x8250df, "DELETE": 0xcf222e,
}

// operation sets an openapi-operation block as the reference card of its
// operation, from the specification's latest version; a block whose
// operation cannot be found is set as a line naming it.
func (r *renderer) operation(n document.Node) {
	path, _ := n.Data["path"].(string)
	method, _ := n.Data["method"].(string)
	spec := ""
	if ref, ok := n.Data["ref"].(map[string]any); ok {
		spec, _ = ref["spec"].(string)
	} else if ref, ok := n.Data["ref"].(document.Ref); ok {
		spec = ref.Spec
	}
	var (
		card *apiref.Card
		ok   bool
	)
	if r.operations != nil && spec != "" {
		card, ok = r.operations(r.ctx, spec, path, method)
	}
	if !ok {
		r.paragraph(r.plainUnits(strings.ToUpper(method)+" "+path+" (operation of the OpenAPI specification "+spec+", not found)",
			style{face: FaceItalic, size: bodySize, color: colorMuted}), 0)
		r.y += 4
		return
	}
	r.card(card)
}

// card sets an operation's reference card: method and path, summary and
// description, servers, parameters, request body and responses with
// their schemas and examples.
func (r *renderer) card(c *apiref.Card) {
	color, ok := methodColors[c.Method]
	if !ok {
		color = colorMuted
	}
	r.bar(color, func() {
		r.paragraph(r.units([]run{
			{text: c.Method + " ", st: style{face: FaceBold, size: bodySize + 2, color: color}},
			{text: c.Path, st: style{face: FaceMono, size: bodySize + 1, color: colorText}},
		}), 0)
		if c.Summary != "" {
			r.paragraph(r.plainUnits(c.Summary, style{face: FaceBold, size: bodySize, color: colorText}), 0)
		}
		if c.Deprecated {
			r.paragraph(r.plainUnits("Deprecated", style{face: FaceItalic, size: bodySize, color: 0xcf222e}), 0)
		}
		if c.Description != "" {
			r.paragraph(r.plainUnits(c.Description, style{face: FaceRegular, size: bodySize, color: colorText}), 0)
		}
		for _, s := range c.Servers {
			r.paragraph(r.plainUnits(s+c.Path, style{face: FaceMono, size: 9, color: colorMuted}), 0)
		}
		if len(c.Parameters) > 0 {
			r.cardHeading("Parameters")
			for _, p := range c.Parameters {
				r.field(p.Name, p.In, p.Required, p.Schema, p.Description)
			}
		}
		if b := c.RequestBody; b != nil {
			label := "Request body"
			if b.Required {
				label += " (required)"
			}
			r.cardHeading(label)
			if b.Description != "" {
				r.paragraph(r.plainUnits(b.Description, style{face: FaceRegular, size: bodySize, color: colorText}), 0)
			}
			r.media(b.Contents)
		}
		if len(c.Responses) > 0 {
			r.cardHeading("Responses")
			for _, resp := range c.Responses {
				r.paragraph(r.units([]run{
					{text: resp.Status + "  ", st: style{face: FaceBold, size: bodySize, color: colorText}},
					{text: resp.Description, st: style{face: FaceRegular, size: bodySize, color: colorText}},
				}), 0)
				r.indented(indentStep/2, func() { r.media(resp.Contents) })
			}
		}
	})
	r.y += 6
}

// cardHeading sets the title of a section of a card.
func (r *renderer) cardHeading(s string) {
	r.y += 4
	r.paragraph(r.plainUnits(s, style{face: FaceBold, size: bodySize + 1, color: colorText}), 0)
	r.y += 2
}

// field sets one parameter or property: its name, where it goes, whether
// it is required, its type and description.
func (r *renderer) field(name, in string, required bool, s *apiref.Schema, desc string) {
	runs := []run{{text: name, st: style{face: FaceMono, size: 9.5, color: colorCode}}}
	var notes []string
	if s != nil && s.Type != "" {
		t := s.Type
		if s.Name != "" && !strings.Contains(t, s.Name) {
			t = s.Name + " (" + t + ")"
		}
		notes = append(notes, t)
	}
	if in != "" {
		notes = append(notes, "in "+in)
	}
	if required {
		notes = append(notes, "required")
	}
	if len(notes) > 0 {
		runs = append(runs, run{text: "  " + strings.Join(notes, ", "), st: style{face: FaceRegular, size: 9.5, color: colorMuted}})
	}
	if s != nil && len(s.Enum) > 0 {
		runs = append(runs, run{text: "  one of " + strings.Join(s.Enum, ", "), st: style{face: FaceRegular, size: 9.5, color: colorMuted}})
	}
	if desc == "" && s != nil {
		desc = s.Description
	}
	if desc != "" {
		runs = append(runs, run{text: " — " + desc, st: style{face: FaceRegular, size: 9.5, color: colorText}})
	}
	r.paragraph(r.units(runs), 0)
}

// media sets the bodies of a request or response: per media type, the
// properties of its schema and an example.
func (r *renderer) media(contents []apiref.Media) {
	for _, m := range contents {
		label := m.Type
		if m.Schema != nil && m.Schema.Type != "" {
			t := m.Schema.Type
			if m.Schema.Name != "" && !strings.Contains(t, m.Schema.Name) {
				t = m.Schema.Name + " (" + t + ")"
			}
			label += ": " + t
		}
		r.paragraph(r.plainUnits(label, style{face: FaceItalic, size: 9.5, color: colorMuted}), 0)
		if s := m.Schema; s != nil {
			props := s.Properties
			if len(props) == 0 && s.Items != nil {
				props = s.Items.Properties
			}
			r.indented(indentStep/2, func() {
				for _, p := range props {
					r.field(p.Name, "", p.Required, p.Schema, "")
				}
			})
		}
		if m.Example != "" {
			lines := strings.Split(strings.TrimRight(m.Example, "\n"), "\n")
			nodes := make([]document.Node, 0, len(lines))
			for _, l := range lines {
				nodes = append(nodes, document.Block(document.TypeCodeLine, nil, document.Text(document.PlainLeaf(l))))
			}
			r.code(document.Block(document.TypeCode, map[string]any{"title": "Example"}, nodes...))
		}
	}
}
