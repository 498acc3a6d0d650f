package importer

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlPage is one parsed HTML document.
type htmlPage struct {
	doc      *html.Node
	base     *url.URL   // what relative references resolve against
	main     *html.Node // the element holding the page's own content
	title    string
	noIndex  bool // <meta name="robots" content="noindex">
	noFollow bool // <meta name="robots" content="nofollow">
}

// parseHTML parses body fetched from u.
func parseHTML(body []byte, u *url.URL) (*htmlPage, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	p := &htmlPage{doc: doc, base: u}
	if b := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Base && attr(n, "href") != "" }); b != nil {
		if ref, err := u.Parse(attr(b, "href")); err == nil {
			p.base = ref
		}
	}
	for _, m := range findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "name"), "robots")
	}) {
		c := strings.ReplaceAll(attr(m, "content"), ",", " ")
		p.noIndex = p.noIndex || hasWord(c, "noindex") || hasWord(c, "none")
		p.noFollow = p.noFollow || hasWord(c, "nofollow") || hasWord(c, "none")
	}
	p.main = mainContent(doc)
	if h1 := find(p.main, isAtom(atom.H1)); h1 != nil {
		p.title = textOf(h1)
	}
	if p.title == "" {
		if t := find(doc, isAtom(atom.Title)); t != nil {
			p.title = textOf(t)
		}
	}
	return p, nil
}

// links are the targets of the document's <a href> (its navigation
// included), resolved, without those marked rel="nofollow".
func (p *htmlPage) links() []*url.URL {
	var out []*url.URL
	for _, a := range findAll(p.doc, isAtom(atom.A)) {
		href := attr(a, "href")
		if href == "" || hasWord(attr(a, "rel"), "nofollow") {
			continue
		}
		if u, err := p.base.Parse(strings.TrimSpace(href)); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// canonical is the URL of <link rel="canonical">, or nil.
func (p *htmlPage) canonical() *url.URL {
	l := find(p.doc, func(n *html.Node) bool { return n.DataAtom == atom.Link && hasWord(attr(n, "rel"), "canonical") })
	if l == nil {
		return nil
	}
	u, err := p.base.Parse(strings.TrimSpace(attr(l, "href")))
	if err != nil {
		return nil
	}
	return u
}

// mainContent picks the element holding the page's own content: <main>,
// else the element with role="main", else the only <article>, else <body>
// less its navigation, header, footer and asides. Scripts, styles, forms
// and embedded frames are removed from it.
func mainContent(doc *html.Node) *html.Node {
	m := find(doc, isAtom(atom.Main))
	if m == nil {
		m = find(doc, func(n *html.Node) bool { return n.Type == html.ElementNode && attr(n, "role") == "main" })
	}
	if m == nil {
		if arts := findAll(doc, isAtom(atom.Article)); len(arts) == 1 {
			m = arts[0]
		}
	}
	if m == nil {
		m = find(doc, isAtom(atom.Body))
		if m == nil {
			m = doc
		}
		removeAll(m, atom.Nav, atom.Header, atom.Footer, atom.Aside)
	}
	removeUnsafe(m)
	return m
}

// removeUnsafe removes from n what never becomes Markdown: scripts,
// styles, forms, embedded frames and objects.
func removeUnsafe(n *html.Node) {
	removeAll(n, atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe, atom.Object,
		atom.Embed, atom.Form, atom.Button, atom.Input, atom.Select, atom.Textarea, atom.Svg,
		atom.Canvas, atom.Link, atom.Meta, atom.Source)
}

// newConverter is the HTML to Markdown converter of every import: the
// dialect's bullets and rules, tables and strikethrough.
func newConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(
			commonmark.WithBulletListMarker("*"),
			commonmark.WithHorizontalRule("***"),
		),
		table.NewTablePlugin(),
		strikethrough.NewStrikethroughPlugin(),
	))
}

// refs maps the references of a page being written to what they become.
type refs struct {
	// self is the path of the page being written.
	self string
	// page is the repository path of the imported page at u (no
	// fragment), if there is one.
	page func(u *url.URL) (string, bool)
	// image is the repository path of the image at u once imported, if it
	// could be.
	image func(u *url.URL) (string, bool)
	// local, when set, is the host of references inside an archive: those
	// that lead nowhere are kept as written rather than made absolute.
	local string
	// inline, if set, is the repository path of an image given as a data
	// URL once imported; images given so are dropped otherwise.
	inline func(dataURL string) (string, bool)
}

// toMarkdown writes the page as Markdown: "# title", then its main content
// with links to imported pages and images rewritten relative to ref.self
// and every other link made absolute.
func (p *htmlPage) toMarkdown(ctx context.Context, ref refs, title string) ([]byte, error) {
	if h1 := find(p.main, isAtom(atom.H1)); h1 != nil && textOf(h1) == title && h1.Parent != nil {
		h1.Parent.RemoveChild(h1)
	}
	for _, n := range findAll(p.main, func(n *html.Node) bool { return n.DataAtom == atom.A || n.DataAtom == atom.Img }) {
		if n.DataAtom == atom.A {
			p.rewriteLink(n, ref)
		} else {
			p.rewriteImage(n, ref)
		}
	}
	body, err := newConverter().ConvertNode(p.main, converter.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# " + title + "\n\n")
	if body = bytes.TrimSpace(body); len(body) > 0 {
		b.Write(body)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// rewriteLink points an <a> at the imported page it names, or at its
// absolute URL; scripted links lose their target.
func (p *htmlPage) rewriteLink(a *html.Node, ref refs) {
	href := strings.TrimSpace(attr(a, "href"))
	if href == "" {
		return
	}
	u, err := p.base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto" && u.Scheme != "tel") {
		setAttr(a, "href", "")
		return
	}
	if u.Scheme == "http" || u.Scheme == "https" {
		bare := *u
		bare.Fragment, bare.RawFragment = "", ""
		if target, ok := ref.page(&bare); ok {
			href = relPath(ref.self, target)
			if u.Fragment != "" {
				href += "#" + u.EscapedFragment()
			}
			setAttr(a, "href", href)
			return
		}
	}
	if ref.local != "" && u.Host == ref.local {
		return
	}
	setAttr(a, "href", u.String())
}

// rewriteImage points an <img> at its imported file, or at its absolute
// URL, taking lazy-loading and srcset sources when src is missing.
func (p *htmlPage) rewriteImage(img *html.Node, ref refs) {
	src := strings.TrimSpace(attr(img, "src"))
	if src == "" || strings.HasPrefix(src, "data:") && attr(img, "data-src") != "" {
		if ds := strings.TrimSpace(attr(img, "data-src")); ds != "" {
			src = ds
		} else if f := strings.Fields(attr(img, "srcset")); len(f) > 0 {
			src = f[0]
		}
	}
	for _, k := range []string{"srcset", "data-src", "sizes", "loading"} {
		delAttr(img, k)
	}
	if src == "" {
		return
	}
	if strings.HasPrefix(src, "data:") {
		if ref.inline != nil {
			if target, ok := ref.inline(src); ok {
				setAttr(img, "src", relPath(ref.self, target))
				return
			}
		}
		setAttr(img, "src", "")
		return
	}
	u, err := p.base.Parse(src)
	if err != nil {
		setAttr(img, "src", "")
		return
	}
	if u.Scheme == "http" || u.Scheme == "https" {
		if target, ok := ref.image(u); ok {
			setAttr(img, "src", relPath(ref.self, target))
			return
		}
	}
	if ref.local != "" && u.Host == ref.local {
		setAttr(img, "src", src)
		return
	}
	setAttr(img, "src", u.String())
}
