package importer

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// cleanOffice turns the clipboard markup of office documents into plain
// HTML the converter reads well: Word's comments, namespaced elements
// (<o:p>) and list paragraphs (mso-list) become nothing and real lists;
// Google Docs' wrapping <b style="font-weight:normal"> is dropped and its
// spans styled bold, italic or struck through become <strong>, <em> and
// <del>; paragraphs inside table cells become lines of the cell; empty
// paragraphs go.
func cleanOffice(root *html.Node) {
	for _, n := range findAll(root, func(n *html.Node) bool {
		return n.Type == html.CommentNode || n.Type == html.ElementNode && (strings.Contains(n.Data, ":") || n.Data == "xml")
	}) {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	for _, n := range findAll(root, func(n *html.Node) bool { return n.Type == html.ElementNode }) {
		if n.Parent == nil {
			continue
		}
		st := styleOf(n)
		switch {
		case n.DataAtom == atom.P && strings.EqualFold(attr(n, "class"), "MsoTitle"):
			n.Data, n.DataAtom = "h1", atom.H1
		case (n.DataAtom == atom.B || n.DataAtom == atom.Strong) && (st["font-weight"] == "normal" || st["font-weight"] == "400"):
			unwrap(n)
		case n.DataAtom == atom.Span:
			styleSpan(n, st)
		}
	}
	wordLists(root)
	nestLists(root)
	for _, table := range findAll(root, isAtom(atom.Table)) {
		headRow(table)
	}
	for _, cell := range findAll(root, func(n *html.Node) bool { return n.DataAtom == atom.Td || n.DataAtom == atom.Th }) {
		cellLines(cell)
	}
	for _, p := range findAll(root, isAtom(atom.P)) {
		if p.Parent != nil && blank(p) {
			p.Parent.RemoveChild(p)
		}
	}
}

// styleOf reads an element's style attribute as lower-case properties.
func styleOf(n *html.Node) map[string]string {
	out := map[string]string{}
	for _, decl := range strings.Split(attr(n, "style"), ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.ToLower(v))
		v = strings.TrimSpace(strings.TrimSuffix(v, "!important"))
		out[strings.TrimSpace(strings.ToLower(k))] = v
	}
	return out
}

// styleSpan makes a span's bold, italic and strikethrough styles
// elements, and drops Word's list bullets (mso-list:Ignore), which
// wordLists has read by then.
func styleSpan(n *html.Node, st map[string]string) {
	if strings.EqualFold(st["mso-list"], "ignore") {
		return
	}
	if w := st["font-weight"]; w == "bold" || w == "bolder" || heavy(w) {
		if !within(n, atom.B, atom.Strong, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Th) {
			wrapChildren(n, atom.Strong)
		}
	}
	if st["font-style"] == "italic" && !within(n, atom.I, atom.Em) {
		wrapChildren(n, atom.Em)
	}
	if strings.Contains(st["text-decoration"], "line-through") || strings.Contains(st["text-decoration-line"], "line-through") {
		wrapChildren(n, atom.Del)
	}
}

// heavy reports whether a numeric font weight is bold.
func heavy(w string) bool {
	v, err := strconv.Atoi(w)
	return err == nil && v >= 600
}

// within reports whether an ancestor of n is one of the kinds.
func within(n *html.Node, kinds ...atom.Atom) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		for _, k := range kinds {
			if p.DataAtom == k {
				return true
			}
		}
	}
	return false
}

// wrapChildren moves n's children into a new element of kind, n's only
// child.
func wrapChildren(n *html.Node, kind atom.Atom) {
	w := &html.Node{Type: html.ElementNode, DataAtom: kind, Data: kind.String()}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		w.AppendChild(c)
		c = next
	}
	n.AppendChild(w)
}

// blank reports whether n holds no text but spaces, and no image.
func blank(n *html.Node) bool {
	if find(n, func(c *html.Node) bool { return c.DataAtom == atom.Img }) != nil {
		return false
	}
	return strings.TrimSpace(strings.ReplaceAll(textOf(n), "\u00a0", " ")) == ""
}

// msoLevel reads the level of a Word list paragraph's style
// ("mso-list:l0 level2 lfo1").
var msoLevel = regexp.MustCompile(`level(\d+)`)

// msoList reads the list a Word list paragraph belongs to ("l0").
var msoList = regexp.MustCompile(`\bl\d+\b`)

// orderedMarker tells a numbered list's marker (1. a) iv.) from a bullet.
var orderedMarker = regexp.MustCompile(`^\(?([0-9]+|[a-zA-Z]|[ivxlcdmIVXLCDM]+)[.)]$`)

// wordItem is a Word list paragraph read: its level (1 for the top) and
// whether its marker is a number.
type wordItem struct {
	p       *html.Node
	list    string
	level   int
	ordered bool
}

// readWordItem reads a Word list paragraph, dropping its marker span;
// ok is false for any other node.
func readWordItem(n *html.Node) (wordItem, bool) {
	if n.DataAtom != atom.P {
		return wordItem{}, false
	}
	list := styleOf(n)["mso-list"]
	if list == "" || list == "ignore" {
		return wordItem{}, false
	}
	it := wordItem{p: n, level: 1, list: msoList.FindString(list)}
	if m := msoLevel.FindStringSubmatch(list); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil && v >= 1 && v <= 9 {
			it.level = v
		}
	}
	if marker := find(n, func(c *html.Node) bool {
		return c.DataAtom == atom.Span && strings.EqualFold(styleOf(c)["mso-list"], "ignore")
	}); marker != nil {
		text := strings.TrimSpace(strings.ReplaceAll(textOf(marker), "\u00a0", " "))
		it.ordered = orderedMarker.MatchString(text)
		marker.Parent.RemoveChild(marker)
	}
	return it, true
}

// wordLists turns each run of Word list paragraphs, siblings with only
// spaces between them, into nested <ul> and <ol> lists.
func wordLists(root *html.Node) {
	for _, parent := range findAll(root, func(n *html.Node) bool { return n.Type == html.ElementNode || n.Type == html.DocumentNode }) {
		var run []wordItem
		for c := parent.FirstChild; c != nil; {
			next := c.NextSibling
			if it, ok := readWordItem(c); ok {
				if len(run) > 0 && it.list != run[0].list {
					buildList(run)
					run = nil
				}
				run = append(run, it)
			} else if c.Type != html.TextNode || strings.TrimSpace(c.Data) != "" {
				buildList(run)
				run = nil
			}
			c = next
		}
		buildList(run)
	}
}

// buildList replaces a run of Word list paragraphs by lists nested by
// level, in the place of the first.
func buildList(run []wordItem) {
	if len(run) == 0 {
		return
	}
	first := run[0].p
	parent := first.Parent
	newList := func(ordered bool) *html.Node {
		k := atom.Ul
		if ordered {
			k = atom.Ol
		}
		return &html.Node{Type: html.ElementNode, DataAtom: k, Data: k.String()}
	}
	top := newList(run[0].ordered)
	parent.InsertBefore(top, first)
	// stack holds the open list of each level and its last item.
	type open struct{ list, item *html.Node }
	stack := []open{{list: top}}
	for _, it := range run {
		for len(stack) > 1 && len(stack) > it.level {
			stack = stack[:len(stack)-1]
		}
		for len(stack) < it.level {
			host := stack[len(stack)-1].item
			if host == nil {
				host = &html.Node{Type: html.ElementNode, DataAtom: atom.Li, Data: "li"}
				stack[len(stack)-1].list.AppendChild(host)
			}
			l := newList(it.ordered)
			host.AppendChild(l)
			stack = append(stack, open{list: l})
		}
		li := &html.Node{Type: html.ElementNode, DataAtom: atom.Li, Data: "li"}
		it.p.Parent.RemoveChild(it.p)
		for c := it.p.FirstChild; c != nil; {
			next := c.NextSibling
			it.p.RemoveChild(c)
			li.AppendChild(c)
			c = next
		}
		stack[len(stack)-1].list.AppendChild(li)
		stack[len(stack)-1].item = li
	}
}

// nestLists moves a list that sits directly in another list (as Google
// Docs writes nested lists) into the item before it.
func nestLists(root *html.Node) {
	for _, l := range findAll(root, func(n *html.Node) bool { return n.DataAtom == atom.Ul || n.DataAtom == atom.Ol }) {
		p := l.Parent
		if p == nil || (p.DataAtom != atom.Ul && p.DataAtom != atom.Ol) {
			continue
		}
		prev := l.PrevSibling
		for prev != nil && prev.Type != html.ElementNode {
			prev = prev.PrevSibling
		}
		if prev == nil || prev.DataAtom != atom.Li {
			continue
		}
		p.RemoveChild(l)
		prev.AppendChild(l)
	}
}

// cellLines makes the paragraphs of a table cell lines of it: a pipe
// table's cell holds one line, whose breaks are <br>.
func cellLines(cell *html.Node) {
	ps := findAll(cell, func(n *html.Node) bool { return n.DataAtom == atom.P && n.Parent == cell })
	for i, p := range ps {
		if blank(p) {
			cell.RemoveChild(p)
			continue
		}
		if i > 0 {
			cell.InsertBefore(&html.Node{Type: html.ElementNode, DataAtom: atom.Br, Data: "br"}, p)
		}
		unwrap(p)
	}
}

// headRow makes the first row of a table without header cells (as office
// documents write tables) its header: a pipe table has one, and an empty
// one would stand above the table.
func headRow(table *html.Node) {
	if find(table, isAtom(atom.Th)) != nil {
		return
	}
	tr := find(table, isAtom(atom.Tr))
	if tr == nil {
		return
	}
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Td {
			c.Data, c.DataAtom = "th", atom.Th
		}
	}
}
