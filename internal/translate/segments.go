package translate

import (
	"fmt"
	"html"
	"strings"
	"unicode"

	"quire/internal/document"
)

// Segments gathers the text of pages and documents to translate and
// writes the translations back where the text came from.
type Segments struct {
	texts []string
	sets  []func(string)
	words int
}

// Texts returns the segments to send, in the order Apply expects their
// translations.
func (s *Segments) Texts() []string { return s.texts }

// Words counts the words of the source text gathered.
func (s *Segments) Words() int { return s.words }

// Apply writes translations back, one per segment of Texts.
func (s *Segments) Apply(out []string) error {
	if len(out) != len(s.sets) {
		return fmt.Errorf("translate: %d translations for %d segments", len(out), len(s.sets))
	}
	for i, t := range out {
		s.sets[i](t)
	}
	return nil
}

// add records one segment.
func (s *Segments) add(text string, words int, set func(string)) {
	s.texts = append(s.texts, text)
	s.sets = append(s.sets, set)
	s.words += words
}

// Plain adds a string of plain text, such as a page title; set receives
// its translation, as plain text again.
func (s *Segments) Plain(text string, set func(string)) {
	if strings.TrimSpace(text) == "" {
		return
	}
	lead, trail := spaces(text)
	s.add(html.EscapeString(text), len(strings.Fields(text)), func(t string) {
		t = strings.TrimSpace(html.UnescapeString(stripTags(t)))
		if t != "" {
			set(lead + t + trail)
		}
	})
}

// Document adds the text of a document; its translations are written
// into d's nodes by Apply.
func (s *Segments) Document(d *document.Document) {
	s.blocks(d.Nodes)
}

// Block types whose content is never translated: code, formulas, markup
// kept as written, and blocks that show content from elsewhere.
func skippedBlock(typ string) bool {
	switch typ {
	case document.TypeCode, document.TypeMath, document.TypeRaw, document.TypeSwagger, document.TypeOpenAPIOp,
		document.TypeOpenAPISchemas, document.TypeOpenAPIWebhook, document.TypeEmbed, document.TypeIntegration,
		document.TypeReusableContent, document.TypeContentRef, document.TypeDrawing:
		return true
	}
	return false
}

// translatedData are the data members of a block that hold text: tab,
// hint, step and update titles, captions and image alt text.
func translatedData() []string { return []string{"title", "caption", "alt", "label"} }

// blocks adds the text of blocks, in place.
func (s *Segments) blocks(nodes []document.Node) {
	for i := range nodes {
		s.block(&nodes[i])
	}
}

// block adds the text of one block and of what it holds.
func (s *Segments) block(n *document.Node) {
	if n.Object != document.ObjectBlock && n.Object != document.ObjectFragment {
		return
	}
	if n.Object == document.ObjectBlock && skippedBlock(n.Type) {
		return
	}
	for _, k := range translatedData() {
		if v, ok := n.Data[k].(string); ok {
			data := n.Data
			s.Plain(v, func(t string) { data[k] = t })
		}
	}
	if n.Type == document.TypeTable {
		s.tableTitles(n.Data)
	}
	if hasInlines(n.Nodes) {
		s.inlines(n.Nodes)
	} else {
		s.blocks(n.Nodes)
	}
	for i := range n.Fragments {
		s.block(&n.Fragments[i])
	}
}

// tableTitles adds the titles of a table's columns.
func (s *Segments) tableTitles(data map[string]any) {
	defs, _ := data["definition"].(map[string]any)
	for _, v := range defs {
		def, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if title, ok := def["title"].(string); ok {
			s.Plain(title, func(t string) { def["title"] = t })
		}
	}
}

// hasInlines reports whether nodes are the inline content of a text
// block.
func hasInlines(nodes []document.Node) bool {
	for _, c := range nodes {
		if c.Object == document.ObjectText || c.Object == document.ObjectInline {
			return true
		}
	}
	return false
}

// run is the inline content of one text block being written as markup.
type run struct {
	b      strings.Builder
	leaves []*document.Leaf
	kept   int
	words  int
	// inner are blocks met inside inlines (annotation bodies), added as
	// segments of their own after this one.
	inner []*document.Node
}

// inlines adds the inline content of a text block as one segment.
func (s *Segments) inlines(nodes []document.Node) {
	r := &run{}
	r.walk(nodes)
	switch len(r.leaves) {
	case 0:
	case 1:
		leaf := r.leaves[0]
		s.Plain(leaf.Text, func(t string) { leaf.Text = t })
	default:
		leaves := r.leaves
		s.add(r.b.String(), r.words, func(t string) { applyMarkup(t, leaves) })
	}
	for _, b := range r.inner {
		s.block(b)
	}
}

// walk writes inline nodes as markup: text to translate as <gN>…</gN>,
// anything kept as is as <xN/>.
func (r *run) walk(nodes []document.Node) {
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case document.ObjectText:
			for j := range n.Leaves {
				leaf := &n.Leaves[j]
				if keptLeaf(leaf) {
					r.keep()
					continue
				}
				fmt.Fprintf(&r.b, "<g%d>%s</g%d>", len(r.leaves), html.EscapeString(leaf.Text), len(r.leaves))
				r.words += len(strings.Fields(leaf.Text))
				r.leaves = append(r.leaves, leaf)
			}
		case document.ObjectInline:
			switch n.Type {
			case document.InlineLink:
				r.walk(n.Nodes)
			case document.InlineAnnotation:
				r.walk(n.Nodes)
				for k := range n.Fragments {
					r.inner = append(r.inner, &n.Fragments[k])
				}
			default:
				// Formulas, expressions, mentions, emoji, icons, images,
				// buttons and raw markup stay as they are.
				r.keep()
			}
		}
	}
}

// keep writes a placeholder for content kept as is.
func (r *run) keep() {
	fmt.Fprintf(&r.b, "<x%d/>", r.kept)
	r.kept++
}

// keptLeaf reports whether a leaf stays as written: inline code and key
// names, and runs without a letter (white space, punctuation, numbers).
func keptLeaf(l *document.Leaf) bool {
	if strings.IndexFunc(l.Text, unicode.IsLetter) < 0 {
		return true
	}
	for _, m := range l.Marks {
		if m.Type == document.MarkCode || m.Type == document.MarkKeyboard {
			return true
		}
	}
	return false
}

// tag is one tag of the markup found in a translation.
type tag struct {
	start, end int
	closing    bool
	kind       byte // 'g' or 'x'
	index      int
}

// tags finds the tags of the markup in t: <gN>, </gN>, <xN/>, also with
// a space before the slash, as engines sometimes write them.
func tags(t string) []tag {
	var out []tag
	for i := 0; i < len(t); i++ {
		if t[i] != '<' {
			continue
		}
		j := i + 1
		tg := tag{start: i}
		if j < len(t) && t[j] == '/' {
			tg.closing = true
			j++
		}
		if j >= len(t) || (t[j] != 'g' && t[j] != 'x') {
			continue
		}
		tg.kind = t[j]
		j++
		k := j
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			tg.index = tg.index*10 + int(t[k]-'0')
			k++
		}
		if k == j || k-j > 6 {
			continue
		}
		for k < len(t) && (t[k] == ' ' || t[k] == '/') {
			k++
		}
		if k >= len(t) || t[k] != '>' {
			continue
		}
		tg.end = k + 1
		out = append(out, tg)
		i = k
	}
	return out
}

// stripTags removes the tags of the markup from t.
func stripTags(t string) string {
	var b strings.Builder
	pos := 0
	for _, tg := range tags(t) {
		b.WriteString(t[pos:tg.start])
		pos = tg.end
	}
	b.WriteString(t[pos:])
	return b.String()
}

// applyMarkup writes a translated segment into its leaves. Text outside
// every <gN> goes to the leaf before it (or the first one); a leaf whose
// tag the engine dropped keeps its text.
func applyMarkup(t string, leaves []*document.Leaf) {
	texts := make([]strings.Builder, len(leaves))
	seen := make([]bool, len(leaves))
	cur, last, pos := -1, 0, 0
	put := func(s string) {
		i := cur
		if i < 0 {
			i = last
		}
		texts[i].WriteString(s)
	}
	for _, tg := range tags(t) {
		put(t[pos:tg.start])
		pos = tg.end
		if tg.kind != 'g' || tg.index >= len(leaves) {
			continue
		}
		if tg.closing {
			if cur == tg.index {
				cur = -1
			}
			continue
		}
		cur, last, seen[tg.index] = tg.index, tg.index, true
	}
	put(t[pos:])
	for i, leaf := range leaves {
		got := strings.TrimSpace(html.UnescapeString(texts[i].String()))
		if !seen[i] || got == "" {
			continue
		}
		lead, trail := spaces(leaf.Text)
		leaf.Text = lead + got + trail
	}
}

// spaces returns the white space a text starts and ends with, which a
// translation keeps so that runs stay apart.
func spaces(s string) (lead, trail string) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	lead = s[:len(s)-len(t)]
	u := strings.TrimRightFunc(t, unicode.IsSpace)
	return lead, t[len(u):]
}
