package document

import "strings"

// annotation writes an annotation as its text followed by a footnote
// reference; the body is written with the definitions at the end.
func (w *mdWriter) annotation(n Node, ctx inlineCtx) string {
	k := len(w.notes) + 1
	w.notes = append(w.notes, "")
	var body []Node
	for _, f := range n.Fragments {
		body = append(body, f.Nodes...)
	}
	w.notes[k-1] = w.blocks(body)
	return w.inlines(n.Nodes, ctx) + noteRef(k)
}

// footnotes writes the footnote definitions of the annotations written,
// continuation lines indented by four spaces.
func (w *mdWriter) footnotes() string {
	parts := make([]string, len(w.notes))
	for i, body := range w.notes {
		lines := strings.Split(body, "\n")
		for j := 1; j < len(lines); j++ {
			if lines[j] != "" {
				lines[j] = "    " + lines[j]
			}
		}
		parts[i] = strings.TrimRight(noteRef(i+1)+": "+strings.Join(lines, "\n"), " ")
	}
	return strings.Join(parts, "\n\n")
}
