package document

import (
	"path"
	"strconv"
	"strings"
)

// openAPI writes an OpenAPI or swagger block as its {% openapi… %} tag,
// with the fallback link read on import or the one GitBook writes.
func (w *mdWriter) openAPI(n Node) string {
	var tag string
	var attrs []string
	switch n.Type {
	case TypeSwagger:
		tag = "openapi"
		attrs = []string{"src", w.target(n, "ref", UseOpenAPI), "path", dataString(n, "path"), "method", dataString(n, "method")}
	case TypeOpenAPIOp:
		tag = "openapi-operation"
		attrs = []string{"spec", w.target(n, "ref", UseOpenAPI), "path", dataString(n, "path"), "method", dataString(n, "method")}
	case TypeOpenAPISchemas:
		tag = "openapi-schemas"
		var names []string
		if list, ok := n.Data["schemas"].([]any); ok {
			for _, s := range list {
				if s, ok := s.(string); ok {
					names = append(names, s)
				}
			}
		}
		attrs = []string{"spec", w.target(n, "ref", UseOpenAPI), "schemas", strings.Join(names, ",")}
		if g, ok := n.Data["grouped"].(bool); ok {
			attrs = append(attrs, "grouped", strconv.FormatBool(g))
		}
	case TypeOpenAPIWebhook:
		tag = "openapi-webhook"
		attrs = []string{"spec", w.target(n, "ref", UseOpenAPI), "name", dataString(n, "name"), "method", dataString(n, "method")}
	}
	body, ok := n.Data["body"].(string)
	if !ok {
		body = fallbackBody(w.opts, n)
	}
	return wrapTag(tag, attrs, body)
}

// fallbackBody returns the link GitBook writes inside an OpenAPI block
// for readers without OpenAPI support: the spec's address, named after
// its file. Blocks pointing at a spec by slug have none.
func fallbackBody(o *options, n Node) string {
	if n.Type != TypeSwagger {
		return ""
	}
	r, ok := refValue(n.Data["ref"])
	if !ok {
		return ""
	}
	t := o.targetForRef(r, UseOpenAPI)
	label := t
	if !HasScheme(t) {
		label = path.Base(t)
	}
	return "[" + escapeText(label, ctxParagraph) + "](" + formatTarget(t) + ")"
}

// fallbackBody returns the fallback link ToMarkdown writes for b.
func (c *converter) fallbackBody(b Node) string { return fallbackBody(c.opts, b) }

// updates writes a changelog and its dated entries.
func (w *mdWriter) updates(n Node) string {
	var attrs []string
	if f, ok := n.Data["format"].(string); ok {
		attrs = []string{"format", f}
	}
	return wrapTag("updates", attrs, w.items(n.Nodes, "update"))
}

// updateAttrs returns the attributes of an {% update %} tag.
func updateAttrs(n Node) []string {
	var attrs []string
	if d, ok := n.Data["date"].(string); ok {
		attrs = append(attrs, "date", d)
	}
	if list, ok := n.Data["tags"].([]any); ok {
		var tags []string
		for _, t := range list {
			if s, ok := t.(string); ok {
				tags = append(tags, s)
			}
		}
		attrs = append(attrs, "tags", strings.Join(tags, ","))
	}
	return attrs
}
