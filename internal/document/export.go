package document

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ToMarkdown converts a document to GitBook Markdown in the exporter's
// typography: "*" bullets, "***" dividers, "\" hard breaks, {% tag %}
// blocks and HTML figures. With WithContext, it stops with the context's
// error once the context is done.
func ToMarkdown(doc *Document, opts ...Option) (string, error) {
	if doc == nil {
		return "", nil
	}
	o := newOptions(opts)
	w := &mdWriter{opts: o, state: newConvState(o)}
	out := w.blocks(doc.Nodes)
	if notes := w.footnotes(); notes != "" {
		if out != "" {
			out += "\n\n"
		}
		out += notes
	}
	if w.state.err != nil {
		return "", w.state.err
	}
	if out == "" {
		return "", nil
	}
	return out + "\n", nil
}

// mdWriter renders document nodes as Markdown.
type mdWriter struct {
	opts  *options
	state *convState
	// notes are the bodies of the annotations written so far, written
	// as footnote definitions at the end.
	notes []string
}

// blocks renders blocks separated by blank lines.
func (w *mdWriter) blocks(nodes []Node) string {
	var b strings.Builder
	alt := false
	for i, n := range nodes {
		if w.state.stopped() {
			return ""
		}
		var s string
		if fam := listFamily(n.Type); fam != "" {
			// Adjacent lists of one family would merge into one list;
			// alternating the marker keeps them apart.
			alt = i > 0 && listFamily(nodes[i-1].Type) == fam && !alt
			s = w.list(n, alt)
		} else {
			s = w.block(n)
		}
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	return b.String()
}

func (w *mdWriter) block(n Node) string {
	if n.Object != ObjectBlock {
		return ""
	}
	switch n.Type {
	case TypeParagraph:
		return w.paragraph(n)
	case TypeHeading1, TypeHeading2, TypeHeading3:
		return w.heading(n)
	case TypeDivider:
		return "***"
	case TypeCode:
		return w.code(n)
	case TypeBlockquote:
		return prefixLines(w.blocks(n.Nodes), "> ", ">")
	case TypeListOrdered, TypeListUnordered, TypeListTasks:
		return w.list(n, false)
	case TypeHint:
		attrs := []string{"style", dataString(n, "style")}
		if icon := dataString(n, "icon"); icon != "" {
			attrs = append(attrs, "icon", icon)
		}
		return wrapTag("hint", attrs, w.blocks(n.Nodes))
	case TypeTabs:
		return wrapTag("tabs", fullWidthAttr(n), w.items(n.Nodes, "tab"))
	case TypeStepper:
		return wrapTag("stepper", nil, w.items(n.Nodes, "step"))
	case TypeColumns:
		return wrapTag("columns", fullWidthAttr(n), w.items(n.Nodes, "column"))
	case TypeTabsItem, TypeStepperStep, TypeColumn, TypeUpdate:
		return w.items([]Node{n}, itemTag(n.Type))
	case TypeUpdates:
		return w.updates(n)
	case TypeRaw:
		return dataString(n, "markdown")
	case TypeSwagger, TypeOpenAPIOp, TypeOpenAPISchemas, TypeOpenAPIWebhook:
		return w.openAPI(n)
	case TypeExpandable:
		return w.expandable(n)
	case TypeMath:
		return "$$\n" + strings.TrimSpace(dataString(n, "formula")) + "\n$$"
	case TypeEmbed:
		return w.embed(n)
	case TypeContentRef:
		return w.contentRef(n)
	case TypeFile:
		return w.file(n)
	case TypeImages:
		return w.images(n, false)
	case TypeImage:
		return w.images(Block(TypeImages, nil, n), false)
	case TypeDrawing:
		return `<img src="` + escapeHTMLAttr(w.target(n, "ref", UseFile)) + `" class="gitbook-drawing">`
	case TypeTable:
		return w.table(n)
	case TypeIf:
		return "{% if " + dataString(n, "expression") + " %}\n" + w.blocks(n.Nodes) + "\n{% endif %}"
	case TypeReusableContent:
		return `{% include "` + w.target(n, "ref", UseLink) + `" %}`
	}
	// Blocks without a Markdown form keep their text.
	var b strings.Builder
	writePlainBlock(&b, n)
	if s := strings.TrimSpace(b.String()); s != "" {
		return w.paragraph(Paragraph(s))
	}
	return ""
}

func itemTag(typ string) string {
	switch typ {
	case TypeTabsItem:
		return "tab"
	case TypeStepperStep:
		return "step"
	case TypeUpdate:
		return "update"
	}
	return "column"
}

// items renders tabs, steps or columns, separated by blank lines.
func (w *mdWriter) items(nodes []Node, tag string) string {
	parts := make([]string, 0, len(nodes))
	for _, n := range nodes {
		var attrs []string
		switch tag {
		case "tab":
			attrs = []string{"title", dataString(n, "title")}
			if icon := dataString(n, "icon"); icon != "" {
				attrs = append(attrs, "icon", icon)
			}
		case "step":
			if icon := dataString(n, "icon"); icon != "" {
				attrs = []string{"icon", icon}
			}
		case "update":
			attrs = updateAttrs(n)
		case "column":
			if l, ok := formatLength(n.Data["width"]); ok {
				attrs = append(attrs, "width", l)
			}
			if v := dataString(n, "verticalAlignment"); v != "" {
				attrs = append(attrs, "valign", v)
			}
		}
		parts = append(parts, wrapTag(tag, attrs, w.blocks(n.Nodes)))
	}
	return strings.Join(parts, "\n\n")
}

func fullWidthAttr(n Node) []string {
	if v, ok := n.Data["fullWidth"].(bool); ok {
		return []string{"fullWidth", strconv.FormatBool(v)}
	}
	return nil
}

// wrapTag renders {% tag attrs %}, the body and {% endtag %} on lines of
// their own.
func wrapTag(tag string, attrs []string, body string) string {
	var b strings.Builder
	b.WriteString(openTag(tag, attrs))
	b.WriteByte('\n')
	if body != "" {
		b.WriteString(body)
		b.WriteByte('\n')
	}
	b.WriteString("{% end" + tag + " %}")
	return b.String()
}

func openTag(tag string, attrs []string) string {
	var b strings.Builder
	b.WriteString("{% " + tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		b.WriteString(" " + attrs[i] + `="` + strings.ReplaceAll(attrs[i+1], `"`, "&quot;") + `"`)
	}
	b.WriteString(" %}")
	return b.String()
}

// prefixLines prefixes every line of s; empty lines get blank instead.
func prefixLines(s, prefix, blank string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = blank
		} else {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func dataString(n Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

// numberValue reads a JSON number of any Go representation.
func numberValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// formatLength writes a schema Length as "50%", "120px" or "120".
func formatLength(v any) (string, bool) {
	if f, ok := numberValue(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64), true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	f, ok := numberValue(m["value"])
	if !ok {
		return "", false
	}
	unit, _ := m["unit"].(string)
	return strconv.FormatFloat(f, 'f', -1, 64) + unit, true
}

// target returns the Markdown target of the reference stored at data[key].
func (w *mdWriter) target(n Node, key string, use TargetUse) string {
	r, ok := refValue(n.Data[key])
	if !ok {
		return ""
	}
	return w.opts.targetForRef(r, use)
}

// refValue reads a reference stored as a Ref or as a JSON object.
func refValue(v any) (Ref, bool) {
	switch x := v.(type) {
	case Ref:
		return x, true
	case *Ref:
		if x != nil {
			return *x, true
		}
	case map[string]any:
		var r Ref
		for k, val := range x {
			if s, ok := val.(string); ok {
				if k == "kind" {
					r.Kind = s
				}
				r.SetField(k, s)
			}
		}
		return r, r.Kind != ""
	}
	return Ref{}, false
}
