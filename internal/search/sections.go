package search

import (
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// Page is what Sections needs of a page.
type Page struct {
	ID          string
	Title       string
	Description string
	Path        string
	// Doc is the page's document; nil when it has none.
	Doc *document.Document
}

// Sections splits a page into the sections the index holds: the first,
// titled with the page's title, holds its description and the blocks
// before the first heading; each heading starts another, titled with the
// heading, whose path ends with the heading's anchor.
func Sections(p Page) []quire.SearchSection {
	first := quire.SearchSection{PageID: p.ID, PageTitle: p.Title, PagePath: p.Path, Title: p.Title}
	var body []document.Node
	out := []quire.SearchSection{}
	cur := first
	flush := func() {
		text := (&document.Document{Nodes: body}).PlainText()
		if cur.Seq == 0 && p.Description != "" {
			text = strings.TrimSpace(p.Description + "\n" + text)
		}
		cur.Body = text
		cur.IndexTitle, cur.IndexBody = IndexText(cur.Title), IndexText(text)
		out = append(out, cur)
		body = nil
	}
	if p.Doc != nil {
		seen := map[string]int{}
		for _, n := range p.Doc.Nodes {
			if !isHeading(n) {
				body = append(body, n)
				continue
			}
			flush()
			title := strings.TrimSpace((&document.Document{Nodes: []document.Node{n}}).PlainText())
			anchor := headingAnchor(n, title, seen)
			cur = quire.SearchSection{PageID: p.ID, Seq: len(out), PageTitle: p.Title,
				PagePath: p.Path + "#" + anchor, Anchor: anchor, Title: title}
		}
	}
	flush()
	return out
}

// isHeading reports whether n is a heading block.
func isHeading(n document.Node) bool {
	if n.Object != document.ObjectBlock {
		return false
	}
	switch n.Type {
	case document.TypeHeading1, document.TypeHeading2, document.TypeHeading3:
		return true
	}
	return false
}

// headingAnchor is a heading's custom anchor, or the slug of its text,
// numbered when an earlier heading of the page has the same.
func headingAnchor(n document.Node, title string, seen map[string]int) string {
	a, _ := n.Data["id"].(string)
	if a == "" {
		a = content.Slugify(title)
	}
	if a == "" {
		a = "section"
	}
	seen[a]++
	if k := seen[a]; k > 1 {
		a += "-" + itoa(k-1)
	}
	return a
}

// itoa writes a small positive number.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
