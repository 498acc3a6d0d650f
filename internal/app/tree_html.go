package app

import (
	"html/template"
	"net/url"
	"strings"
)

// treeHTML draws the sidebar tree of the shell, written directly rather
// than through a template, since an organization of a thousand spaces
// draws a thousand links on every page and the template engine's
// reflection made that most of a page's time.
func treeHTML(sh *Shell) template.HTML {
	var b strings.Builder
	b.Grow(len(sh.Tree) * 96)
	writeTree(&b, sh, sh.Tree)
	return template.HTML(b.String()) // every piece below is escaped
}

// writeTree writes a level of the tree and, inside collections, the
// levels below.
func writeTree(b *strings.Builder, sh *Shell, nodes []*TreeNode) {
	for _, n := range nodes {
		b.WriteString("<li>")
		if n.Space {
			b.WriteString(`<a href="/app/s/`)
			b.WriteString(template.HTMLEscapeString(url.PathEscape(n.ID)))
			b.WriteByte('"')
			if n.ID == sh.SpaceID {
				b.WriteString(` aria-current="page"`)
			}
			writeDrag(b, n)
			b.WriteByte('>')
			if n.Emoji != "" {
				b.WriteString(`<span aria-hidden="true">`)
				b.WriteString(template.HTMLEscapeString(n.Emoji))
				b.WriteString(`</span> `)
			}
			b.WriteString(template.HTMLEscapeString(n.Title))
			b.WriteString("</a>")
		} else {
			b.WriteString(`<a href="/app/c/`)
			b.WriteString(template.HTMLEscapeString(url.PathEscape(n.ID)))
			b.WriteString(`" class="app-tree-collection"`)
			writeDrag(b, n)
			if n.Level >= create {
				b.WriteString(` data-drop="`)
				b.WriteString(template.HTMLEscapeString(n.ID))
				b.WriteByte('"')
			}
			b.WriteByte('>')
			b.WriteString(template.HTMLEscapeString(n.Title))
			b.WriteString("</a>")
			if len(n.Children) > 0 {
				b.WriteString("<ul>")
				writeTree(b, sh, n.Children)
				b.WriteString("</ul>")
			}
		}
		b.WriteString("</li>")
	}
}

// writeDrag marks a node its viewer may move as draggable, with the
// address of its move form.
func writeDrag(b *strings.Builder, n *TreeNode) {
	if n.Level < admin {
		return
	}
	move := collectionPath(n.ID) + "/move"
	if n.Space {
		move = spaceAppPath(n.ID, "move")
	}
	b.WriteString(` draggable="true" data-move="`)
	b.WriteString(template.HTMLEscapeString(move))
	b.WriteString(`"`)
}
