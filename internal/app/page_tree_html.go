package app

import (
	"html/template"
	"net/http"
	"strings"

	"quire/internal/quire"
	"quire/internal/reader"
)

// pageTreeHTML draws a space's page tree with the reader's tree markup,
// written directly rather than through a template: a space of thousands
// of pages lists hundreds on every page of it.
func pageTreeHTML(nodes []pageNode) template.HTML {
	return pageTreeEditHTML(nodes, "")
}

// pageTreeEditHTML draws the page tree of content the reader may edit:
// each document page gets a link to its actions, which pagetree.js turns
// into a menu, and can be dragged. edit is the base of the page
// operations' addresses (pageOpsBase); "" draws the tree read-only.
func pageTreeEditHTML(nodes []pageNode, edit string) template.HTML {
	var b strings.Builder
	writePageTree(&b, nodes, edit)
	return template.HTML(b.String()) // every piece below is escaped
}

// writePageTree writes a level of the page tree and the levels below it
// that are drawn; a branch whose pages are not drawn gets an empty list
// its toggle fills from the branch's address.
func writePageTree(b *strings.Builder, nodes []pageNode, edit string) {
	esc := template.HTMLEscapeString
	for _, n := range nodes {
		if n.Group {
			b.WriteString(`<li class="tree-group"><h3 class="tree-group-title">`)
			b.WriteString(esc(n.Title))
			writeHiddenTag(b, n.Hidden)
			b.WriteString("</h3>")
		} else {
			editable := edit != "" && n.PageID != "" && !n.Link
			if editable {
				b.WriteString(`<li data-page="`)
				b.WriteString(esc(n.PageID))
				b.WriteString(`"><div class="tree-row" draggable="true">`)
			} else {
				b.WriteString(`<li><div class="tree-row">`)
			}
			if n.URL != "" {
				b.WriteString(`<a href="`)
				b.WriteString(esc(reader.SafeURL(n.URL)))
				b.WriteByte('"')
				if n.Active {
					b.WriteString(` aria-current="page"`)
				}
				b.WriteByte('>')
				if n.Emoji != "" {
					b.WriteString(`<span aria-hidden="true">`)
					b.WriteString(esc(n.Emoji))
					b.WriteString(`</span> `)
				}
				b.WriteString(esc(n.Title))
				writeHiddenTag(b, n.Hidden)
				b.WriteString("</a>")
			} else {
				b.WriteString("<span>")
				b.WriteString(esc(n.Title))
				b.WriteString("</span>")
			}
			if n.ID != "" {
				b.WriteString(`<button type="button" class="tree-toggle" aria-controls="`)
				b.WriteString(esc(n.ID))
				b.WriteString(`" aria-expanded="`)
				if n.Open {
					b.WriteString("true")
				} else {
					b.WriteString("false")
				}
				b.WriteByte('"')
				if n.Branch != "" {
					b.WriteString(` data-branch="`)
					b.WriteString(esc(n.Branch))
					b.WriteByte('"')
				}
				b.WriteString(` aria-label="Pages under `)
				b.WriteString(esc(n.Title))
				b.WriteString(`"><span aria-hidden="true"></span></button>`)
			}
			if editable {
				writePageActions(b, edit, n)
			}
			b.WriteString("</div>")
		}
		if len(n.Children) > 0 || n.Branch != "" {
			b.WriteString("<ul")
			if n.ID != "" {
				b.WriteString(` id="`)
				b.WriteString(esc(n.ID))
				b.WriteByte('"')
			}
			if !n.Open {
				b.WriteString(" hidden")
			}
			b.WriteByte('>')
			writePageTree(b, n.Children, edit)
			b.WriteString("</ul>")
		}
		b.WriteString("</li>")
	}
}

// writePageActions writes the link to a page's actions, which
// pagetree.js turns into the disclosure button of a menu of them.
func writePageActions(b *strings.Builder, edit string, n pageNode) {
	esc := template.HTMLEscapeString
	b.WriteString(`<a class="tree-actions" href="`)
	b.WriteString(esc(edit + "/" + n.PageID))
	b.WriteString(`" data-title="`)
	b.WriteString(esc(n.Title))
	b.WriteString(`" aria-label="Page actions for `)
	b.WriteString(esc(n.Title))
	b.WriteString(`"><span aria-hidden="true">⋯</span></a>`)
}

// writeHiddenTag marks a hidden page, in words for a screen reader too.
func writeHiddenTag(b *strings.Builder, hidden bool) {
	if hidden {
		b.WriteString(`<span class="visually-hidden">,</span> <span class="page-tag">Hidden</span>`)
	}
}

// spaceBranch answers the pages directly below a page of a space's
// content (?page=), as items of its sidebar's tree: the current content,
// a revision's (?revision=) or a change request's (?change=, by number).
func (a *App) spaceBranch(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	m := currentMode(sp.ID)
	switch {
	case q.Has("change"):
		n := q.Get("change")
		if !isNumber(n) {
			return quire.NotFound("change request")
		}
		m = changeMode(sp.ID, n)
	case q.Has("revision"):
		rev := q.Get("revision")
		if rev == "" {
			return quire.NotFound("revision")
		}
		m = revisionMode(sp.ID, rev)
	}
	items, err := a.svc.SpaceBranch(r.Context(), m.ref, q.Get("page"), m.addresses(sp.ID))
	if err != nil {
		return err
	}
	var b strings.Builder
	writePageTree(&b, pageNodes(items, m.branchBase(sp.ID)), a.treeEditBase(r, sp, m, nil))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, err = w.Write([]byte(b.String()))
	return err
}
