package document

import "strings"

// PlainText returns the text content of the document, one line per block,
// for indexing and search. Captions, table cells, expandable titles,
// formulas and image alt texts are included.
func (d *Document) PlainText() string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	for _, n := range d.Nodes {
		writePlainBlock(&b, n)
	}
	return strings.TrimRight(b.String(), "\n")
}

func writePlainBlock(b *strings.Builder, n Node) {
	switch {
	case n.Object == ObjectBlock && isTextBlock(n.Type):
		writePlainInlines(b, n.Nodes)
		b.WriteByte('\n')
		return
	case n.Object == ObjectBlock && n.Type == TypeTable:
		t := readTable(n)
		for _, c := range t.cols {
			b.WriteString(c.title)
			b.WriteByte('\n')
		}
		for _, row := range t.rows {
			for _, cell := range row {
				for _, c := range cell.blocks {
					writePlainBlock(b, c)
				}
			}
		}
		return
	}
	for _, k := range []string{"title", "alt", "formula", "caption", "label"} {
		if s, ok := n.Data[k].(string); ok && s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, c := range n.Nodes {
		writePlainBlock(b, c)
	}
	for _, f := range n.Fragments {
		for _, c := range f.Nodes {
			writePlainBlock(b, c)
		}
	}
}

func writePlainInlines(b *strings.Builder, nodes []Node) {
	for _, c := range nodes {
		switch c.Object {
		case ObjectText:
			for _, l := range c.Leaves {
				b.WriteString(l.Text)
			}
		case ObjectInline:
			switch c.Type {
			case InlineEmoji:
				code, _ := c.Data["code"].(string)
				b.WriteString(EmojiFromCode(code))
			case InlineMath:
				s, _ := c.Data["formula"].(string)
				b.WriteString(s)
			case InlineButton:
				s, _ := c.Data["label"].(string)
				b.WriteString(s)
			case InlineExpression:
				s, _ := c.Data["expression"].(string)
				b.WriteString(s)
			default:
				writePlainInlines(b, c.Nodes)
			}
		}
	}
}
