package reader

import (
	"strconv"
	"strings"

	"github.com/microcosm-cc/bluemonday"

	"quire/internal/document"
)

// bodyWriter writes a document as HTML. Every string from the document
// goes through text or attr; addresses go through SafeURL.
type bodyWriter struct {
	b   *strings.Builder
	res *Resolvers
	hl  *highlighter
	// policy filters raw HTML; nil writes none (outlines).
	policy *bluemonday.Policy
	// inHTML counts the inline contents being gathered to be filtered
	// as one piece of HTML.
	inHTML int
	// ids are the heading anchors given so far, to keep them unique.
	ids map[string]int
	// seq numbers tabs and other controls for their ids.
	seq int
	// notes are the footnote bodies in order of reference.
	notes [][]document.Node
	// depth bounds nesting of reusable content.
	depth int
	// outline collects the headings of the top-level blocks; nested
	// counts the block lists the writer is inside.
	outline []Heading
	nested  int
	// lastLevel is the HTML level of the last heading (1, the title,
	// at the start).
	lastLevel int
	// shift moves heading levels up when the document's highest heading
	// kind is below heading-1.
	shift int
	// noCode skips highlighting, when only the outline is wanted.
	noCode bool
	// idPrefix starts every id the writer gives (see RenderBlocks).
	idPrefix string
}

func newBodyWriter(res *Resolvers, hl *highlighter, policy *bluemonday.Policy) *bodyWriter {
	return &bodyWriter{b: &strings.Builder{}, res: res, hl: hl, policy: policy, ids: map[string]int{}, lastLevel: 1}
}

// raw writes trusted markup.
func (w *bodyWriter) raw(s string) { w.b.WriteString(s) }

// text writes s escaped for element content and attribute values.
func (w *bodyWriter) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '&':
			rep = "&amp;"
		case '"':
			rep = "&#34;"
		case '\'':
			rep = "&#39;"
		case 0:
			rep = "\uFFFD"
		default:
			continue
		}
		w.b.WriteString(s[last:i])
		w.b.WriteString(rep)
		last = i + 1
	}
	w.b.WriteString(s[last:])
}

// attr writes ` name="value"` with value escaped.
func (w *bodyWriter) attr(name, value string) {
	w.b.WriteByte(' ')
	w.b.WriteString(name)
	w.b.WriteString(`="`)
	w.text(value)
	w.b.WriteByte('"')
}

// nextID returns a fresh id with the given prefix.
func (w *bodyWriter) nextID(prefix string) string {
	w.seq++
	return w.idPrefix + prefix + strconv.Itoa(w.seq)
}

// blocks writes a list of blocks.
func (w *bodyWriter) blocks(nodes []document.Node) {
	w.nested++
	for i := range nodes {
		w.block(&nodes[i])
	}
	w.nested--
}

// keyedBlocks writes top-level blocks as blocks does, each inside an
// element naming its key.
func (w *bodyWriter) keyedBlocks(nodes []document.Node) {
	w.nested++
	for i := range nodes {
		w.raw(`<div class="block"`)
		w.attr("data-block", nodes[i].Key)
		w.raw(">")
		w.block(&nodes[i])
		w.raw("</div>\n")
	}
	w.nested--
}

func dataString(n *document.Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

func dataBool(n *document.Node, key string) bool {
	v, _ := n.Data[key].(bool)
	return v
}

// fragment returns the nodes of the named fragment of n.
func fragment(n *document.Node, name string) []document.Node {
	for _, f := range n.Fragments {
		if f.Fragment == name {
			return f.Nodes
		}
	}
	return nil
}

// block writes one block.
func (w *bodyWriter) block(n *document.Node) {
	if n.Object != document.ObjectBlock {
		if n.Object == document.ObjectText || n.Object == document.ObjectInline {
			w.inlines([]document.Node{*n})
		}
		return
	}
	switch n.Type {
	case document.TypeParagraph:
		w.paragraph(n)
	case document.TypeHeading1, document.TypeHeading2, document.TypeHeading3:
		w.heading(n)
	case document.TypeListOrdered, document.TypeListUnordered, document.TypeListTasks:
		w.list(n)
	case document.TypeListItem:
		w.raw("<div>")
		w.blocks(n.Nodes)
		w.raw("</div>")
	case document.TypeDivider:
		w.raw("<hr>\n")
	case document.TypeBlockquote:
		w.raw("<blockquote>")
		w.blocks(n.Nodes)
		w.raw("</blockquote>\n")
	case document.TypeHint:
		w.hint(n)
	case document.TypeIf:
		if w.res.Condition == nil || w.res.Condition(dataString(n, "expression")) {
			w.blocks(n.Nodes)
		}
	case document.TypeImages:
		w.images(n)
	case document.TypeImage:
		w.images(&document.Node{Object: document.ObjectBlock, Type: document.TypeImages, Nodes: []document.Node{*n}})
	case document.TypeDrawing:
		if ref, ok := document.RefOf(n.Data["ref"]); ok {
			if src := SafeURL(w.res.image(ref)); src != "" {
				w.raw(`<figure class="drawing"><img loading="lazy" alt="Drawing"`)
				w.attr("src", src)
				w.raw("></figure>\n")
			}
		}
	case document.TypeFile:
		w.file(n)
	case document.TypeEmbed:
		w.embed(n)
	case document.TypeCode:
		w.code(n)
	case document.TypeCodeLine:
		w.raw("<pre><code>")
		w.plainInlines(n.Nodes)
		w.raw("</code></pre>\n")
	case document.TypeMath:
		w.math(dataString(n, "formula"), true)
	case document.TypeExpandable:
		w.expandable(n)
	case document.TypeTabs:
		w.tabs(n)
	case document.TypeTable:
		w.table(n)
	case document.TypeSwagger, document.TypeOpenAPIOp, document.TypeOpenAPISchemas, document.TypeOpenAPIWebhook:
		w.openAPI(n)
	case document.TypeContentRef:
		w.contentRef(n)
	case document.TypeReusableContent:
		w.reusable(n)
	case document.TypeStepper:
		w.stepper(n)
	case document.TypeColumns:
		w.columns(n)
	case document.TypeUpdates:
		w.raw(`<div class="updates">`)
		w.blocks(n.Nodes)
		w.raw("</div>\n")
	case document.TypeUpdate:
		w.update(n)
	case document.TypeTabsItem, document.TypeStepperStep, document.TypeColumn:
		w.raw("<div>")
		w.blocks(n.Nodes)
		w.raw("</div>\n")
	case document.TypeRaw:
		w.rawBlock(dataString(n, "markdown"))
	default:
		// Blocks this renderer does not know (integrations, newer
		// types) show their text, escaped.
		if s := strings.TrimSpace(plainText(n.Nodes)); s != "" {
			w.raw(`<div class="unknown-block">`)
			w.text(s)
			w.raw("</div>\n")
		}
	}
}

// alignClass writes a class for an aligned paragraph or heading.
func (w *bodyWriter) alignClass(n *document.Node) {
	switch dataString(n, "align") {
	case "center":
		w.raw(` class="align-center"`)
	case "right":
		w.raw(` class="align-right"`)
	}
}
