package importer

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// isAtom matches elements of one kind.
func isAtom(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Type == html.ElementNode && n.DataAtom == a }
}

// find is the first node under n (n included, document order) matching.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

// findAll is every node under n (n included, document order) matching.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// removeAll removes the elements of the given kinds under n.
func removeAll(n *html.Node, kinds ...atom.Atom) {
	drop := findAll(n, func(c *html.Node) bool {
		if c == n || c.Type != html.ElementNode {
			return false
		}
		for _, k := range kinds {
			if c.DataAtom == k {
				return true
			}
		}
		return false
	})
	for _, c := range drop {
		if c.Parent != nil {
			c.Parent.RemoveChild(c)
		}
	}
}

// attr is the value of n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// setAttr sets n's attribute key to val.
func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

// delAttr removes n's attribute key.
func delAttr(n *html.Node, key string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || !strings.EqualFold(a.Key, key) {
			out = append(out, a)
		}
	}
	n.Attr = out
}

// hasWord reports whether the space-separated list s holds w, ignoring
// case.
func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, w) {
			return true
		}
	}
	return false
}

// textOf is the text under n, whitespace collapsed.
func textOf(n *html.Node) string {
	var b strings.Builder
	for _, t := range findAll(n, func(c *html.Node) bool { return c.Type == html.TextNode }) {
		b.WriteString(t.Data)
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
