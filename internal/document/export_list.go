package document

import (
	"strconv"
	"strings"
)

// indentItem renders a list item: the marker on the first line, and the
// following lines indented to the content column.
func indentItem(marker, content string) string {
	pad := strings.Repeat(" ", len(marker))
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		switch {
		case i == 0:
			lines[i] = strings.TrimRight(marker+l, " ")
		case l != "":
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// listFamily returns "bullet" or "ordered" for list types and "" for
// other blocks.
func listFamily(typ string) string {
	switch typ {
	case TypeListUnordered, TypeListTasks:
		return "bullet"
	case TypeListOrdered:
		return "ordered"
	}
	return ""
}

// list renders a list; alt selects the alternative markers "-" and ")".
func (w *mdWriter) list(n Node, alt bool) string {
	start := 1
	if v, ok := numberValue(n.Data["start"]); ok && v >= 0 && v < 1e9 {
		start = int(v)
	}
	var b strings.Builder
	for i, item := range n.Nodes {
		if i > 0 {
			b.WriteByte('\n')
		}
		bullet, delim := "* ", ". "
		if alt {
			bullet, delim = "- ", ") "
		}
		marker := bullet
		switch n.Type {
		case TypeListOrdered:
			marker = strconv.Itoa(start+i) + delim
		case TypeListTasks:
			if checked, _ := item.Data["checked"].(bool); checked {
				marker = bullet + "[x] "
			} else {
				marker = bullet + "[ ] "
			}
		}
		content := w.itemBlocks(item.Nodes)
		if checked, ok := item.Data["checked"].(bool); ok && n.Type == TypeListOrdered {
			// A task in an ordered list: the checkbox starts the content.
			box := "[ ] "
			if checked {
				box = "[x] "
			}
			b.WriteString(indentItem(marker, box+content))
			continue
		}
		if n.Type == TypeListTasks {
			// The checkbox belongs to the item's content, which starts
			// after "* ".
			b.WriteString(indentItem(marker[:2], marker[2:]+content))
			continue
		}
		b.WriteString(indentItem(marker, content))
	}
	return b.String()
}

// itemBlocks renders a list item's blocks like blocks, except that a
// nested list follows a paragraph without a blank line.
func (w *mdWriter) itemBlocks(nodes []Node) string {
	var b strings.Builder
	prevPara := false
	for _, n := range nodes {
		s := w.block(n)
		if s == "" {
			continue
		}
		isList := n.Type == TypeListOrdered || n.Type == TypeListUnordered || n.Type == TypeListTasks
		switch {
		case b.Len() == 0:
		case prevPara && isList:
			b.WriteByte('\n')
		default:
			b.WriteString("\n\n")
		}
		b.WriteString(s)
		prevPara = n.Type == TypeParagraph
	}
	return b.String()
}
