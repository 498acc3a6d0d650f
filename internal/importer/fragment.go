package importer

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FragmentMarkdown converts a fragment of HTML, such as what a browser
// puts on the clipboard when a part of a web page or of an office
// document is copied, to Markdown with the importer's converter. Scripts,
// styles and forms are dropped, office markup (Word's mso- styles and
// list paragraphs, Google Docs' styled spans) is first made plain HTML,
// links keep only absolute web and mail targets and images only web
// sources. The Markdown is CommonMark with GFM tables; the caller reads
// it in the dialect.
func FragmentMarkdown(ctx context.Context, fragment []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(fragment))
	if err != nil {
		return "", err
	}
	root := find(doc, isAtom(atom.Body))
	if root == nil {
		root = doc
	}
	removeUnsafe(root)
	cleanOffice(root)
	for _, n := range findAll(root, func(n *html.Node) bool { return n.DataAtom == atom.A || n.DataAtom == atom.Img }) {
		if n.DataAtom == atom.A {
			fragmentLink(n)
		} else {
			fragmentImage(n)
		}
	}
	body, err := newConverter().ConvertNode(root)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	// The converter parts two adjacent lists with a comment; a blank
	// line between them is enough once the page reads them as blocks.
	return strings.TrimSpace(strings.ReplaceAll(string(body), "<!--THE END-->", "")), nil
}

// absoluteTarget reports whether s is an absolute address with one of
// the schemes.
func absoluteTarget(s string, schemes ...string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return false
	}
	for _, sc := range schemes {
		if strings.EqualFold(u.Scheme, sc) && (u.Host != "" || sc == "mailto" || sc == "tel") {
			return true
		}
	}
	return false
}

// fragmentLink keeps a link to an absolute web or mail address; any
// other link (relative, scripted, an anchor of the copied page) becomes
// its text.
func fragmentLink(a *html.Node) {
	if absoluteTarget(attr(a, "href"), "http", "https", "mailto", "tel") {
		setAttr(a, "href", strings.TrimSpace(attr(a, "href")))
		return
	}
	unwrap(a)
}

// fragmentImage keeps an image with a web source; others (data URLs,
// local files of an office document) are dropped.
func fragmentImage(img *html.Node) {
	src := strings.TrimSpace(attr(img, "src"))
	for _, k := range []string{"srcset", "data-src", "sizes", "loading", "width", "height", "style"} {
		delAttr(img, k)
	}
	if !absoluteTarget(src, "http", "https") {
		if img.Parent != nil {
			img.Parent.RemoveChild(img)
		}
		return
	}
	setAttr(img, "src", src)
}

// unwrap replaces n by its children.
func unwrap(n *html.Node) {
	p := n.Parent
	if p == nil {
		return
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		p.InsertBefore(c, n)
		c = next
	}
	p.RemoveChild(n)
}
