package reader

import (
	"strings"

	"quire/internal/apiref"
	"quire/internal/document"
)

// maxCardSchemaDepth bounds how deep a card shows nested properties.
const maxCardSchemaDepth = 3

// openAPI writes an OpenAPI block as a card from the caller's resolver,
// or as a link to its spec: an operation's full reference when the
// resolver has it, a note when it has none.
func (w *bodyWriter) openAPI(n *document.Node) {
	var card *OpenAPICard
	if w.res.OpenAPI != nil {
		card = w.res.OpenAPI(*n)
	}
	if card == nil {
		card = &OpenAPICard{Method: strings.ToUpper(dataString(n, "method")), Path: dataString(n, "path")}
		if n.Type == document.TypeOpenAPIWebhook {
			card.Path = dataString(n, "name")
		}
		if n.Type == document.TypeOpenAPISchemas {
			card.Summary = "Schemas"
		}
		if ref, ok := document.RefOf(n.Data["ref"]); ok {
			switch ref.Kind {
			case document.RefURL:
				card.URL = ref.URL
			default:
				card.URL = w.res.link(ref).URL
			}
		}
	}
	if op := card.Operation; op != nil {
		w.operation(op, card.URL)
		return
	}
	class := "openapi-card"
	if card.Missing != "" {
		class += " openapi-missing"
	}
	w.raw(`<div class="` + class + `">`)
	w.methodPath(card.Method, card.Path)
	w.summary(card.Summary, card.Description)
	if card.Missing != "" {
		w.raw(`<p class="openapi-note">`)
		w.text(card.Missing)
		w.raw("</p>")
	}
	w.referenceLink(card.URL)
	w.raw("</div>\n")
}

// methodPath writes an operation's method badge and path.
func (w *bodyWriter) methodPath(method, path string) {
	if method != "" {
		m := strings.ToUpper(method)
		w.raw(`<span class="method method-` + methodClass(m) + `">`)
		w.text(m)
		w.raw("</span> ")
	}
	if path != "" {
		w.raw(`<code class="openapi-path">`)
		w.text(path)
		w.raw("</code>")
	}
}

// summary writes an operation's summary and description, when set.
func (w *bodyWriter) summary(summary, description string) {
	if summary != "" {
		w.raw(`<p class="openapi-summary">`)
		w.text(summary)
		w.raw("</p>")
	}
	if description != "" {
		w.raw("<p>")
		w.text(description)
		w.raw("</p>")
	}
}

// referenceLink writes the link to an OpenAPI reference, when safe.
func (w *bodyWriter) referenceLink(u string) {
	if u = SafeURL(u); u != "" {
		w.raw(`<p><a`)
		w.attr("href", u)
		w.raw(">OpenAPI reference</a></p>")
	}
}

// operation writes an operation's reference card: method and path,
// summary and description, servers, parameters, request body and
// responses with their schemas and examples.
func (w *bodyWriter) operation(c *apiref.Card, url string) {
	w.raw(`<div class="openapi-card openapi-operation"`)
	if c.OperationID != "" {
		w.attr("data-operation", c.OperationID)
	}
	w.raw(`><div class="openapi-head">`)
	w.methodPath(c.Method, c.Path)
	if c.Deprecated {
		w.raw(` <span class="deprecated">Deprecated</span>`)
	}
	w.raw("</div>")
	w.summary(c.Summary, c.Description)
	for _, s := range c.Servers {
		w.raw(`<p class="openapi-server"><code>`)
		w.text(strings.TrimSuffix(s, "/") + c.Path)
		w.raw("</code></p>")
	}
	if len(c.Parameters) > 0 {
		w.raw(`<h4 class="openapi-heading">Parameters</h4><ul class="schema-list">`)
		for _, p := range c.Parameters {
			desc := p.Description
			if desc == "" && p.Schema != nil {
				desc = p.Schema.Description
			}
			w.field(p.Name, p.In, p.Required, p.Schema, desc, 0)
		}
		w.raw("</ul>")
	}
	if b := c.RequestBody; b != nil {
		w.raw(`<h4 class="openapi-heading">Request body`)
		if b.Required {
			w.raw(` <span class="required">required</span>`)
		}
		w.raw("</h4>")
		if b.Description != "" {
			w.raw("<p>")
			w.text(b.Description)
			w.raw("</p>")
		}
		w.media(b.Contents)
	}
	if len(c.Responses) > 0 {
		w.raw(`<h4 class="openapi-heading">Responses</h4>`)
		for _, r := range c.Responses {
			w.raw(`<div class="openapi-response"><p><code class="openapi-status">`)
			w.text(r.Status)
			w.raw("</code>")
			if r.Description != "" {
				w.raw(" ")
				w.text(r.Description)
			}
			w.raw("</p>")
			w.media(r.Contents)
			w.raw("</div>")
		}
	}
	w.referenceLink(url)
	w.raw("</div>\n")
}

// field writes a parameter or property: its name, type, where it goes,
// whether it is required, its description, allowed values and nested
// properties.
func (w *bodyWriter) field(name, in string, required bool, s *apiref.Schema, desc string, depth int) {
	w.raw("<li><code>")
	w.text(name)
	w.raw("</code>")
	if t := schemaLabel(s); t != "" {
		w.raw(` <span class="schema-type">`)
		w.text(t)
		w.raw("</span>")
	}
	if in != "" {
		w.raw(` <span class="openapi-in">in `)
		w.text(in)
		w.raw("</span>")
	}
	if required {
		w.raw(` <span class="required">required</span>`)
	}
	if desc != "" {
		w.raw(" — ")
		w.text(desc)
	}
	if s != nil && len(s.Enum) > 0 {
		w.raw(` <span class="openapi-enum">one of `)
		w.text(strings.Join(s.Enum, ", "))
		w.raw("</span>")
	}
	w.properties(s, depth+1)
	w.raw("</li>")
}

// properties writes the properties of an object schema (or of the items
// of an array of objects) as a nested list.
func (w *bodyWriter) properties(s *apiref.Schema, depth int) {
	if s == nil || depth > maxCardSchemaDepth {
		return
	}
	props := s.Properties
	if len(props) == 0 && s.Items != nil {
		props = s.Items.Properties
	}
	if len(props) == 0 {
		return
	}
	w.raw(`<ul class="schema-list">`)
	for _, p := range props {
		desc := ""
		if p.Schema != nil {
			desc = p.Schema.Description
		}
		w.field(p.Name, "", p.Required, p.Schema, desc, depth)
	}
	w.raw("</ul>")
}

// media writes the bodies of a request or response: per media type, its
// schema's properties and an example.
func (w *bodyWriter) media(contents []apiref.Media) {
	for _, m := range contents {
		w.raw(`<p class="openapi-media">`)
		w.text(m.Type)
		if t := schemaLabel(m.Schema); t != "" {
			w.raw(`: <span class="schema-type">`)
			w.text(t)
			w.raw("</span>")
		}
		w.raw("</p>")
		w.properties(m.Schema, 1)
		if m.Example != "" {
			w.raw(`<pre class="openapi-example"><code>`)
			w.text(strings.TrimRight(m.Example, "\n"))
			w.raw("</code></pre>")
		}
	}
}

// schemaLabel names a schema's type, with the component it refers to.
func schemaLabel(s *apiref.Schema) string {
	if s == nil {
		return ""
	}
	t := s.Type
	if s.Name != "" && !strings.Contains(t, s.Name) {
		if t == "" {
			return s.Name
		}
		t = s.Name + " (" + t + ")"
	}
	return t
}

// methodClass returns a class-safe HTTP method name.
func methodClass(m string) string {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return strings.ToLower(m)
	}
	return "other"
}
