package reader

import (
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// importedMarkdown is Markdown as GitBook repositories hold it: raw HTML
// in paragraphs and blocks, a prompt, comments, and images by repository
// path.
const importedMarkdown = "See <picture><source srcset=\".gitbook/assets/dark.svg\" media=\"(prefers-color-scheme: dark)\">" +
	"<img src=\"../.gitbook/assets/light%20logo.png\" alt=\"Logo\" onerror=\"alert(1)\"></picture> here.\n\n" +
	"Press <span data-gb-custom-block data-tag=\"x\">this</span> <button onclick=\"alert(2)\">Go</button>, " +
	"<u>under</u> and <abbr title=\"HyperText\">HTML</abbr>.<!-- note -->\n\n" +
	"<dl><dt>Term</dt><dd>The <strong>definition</strong>.</dd></dl>\n\n" +
	"<div align=\"center\"><img src=\".gitbook/assets/chart.svg\" width=\"300\"><script>alert(3)</script></div>\n\n" +
	"<!-- a comment block -->\n\n" +
	"{% prompt description=\"Ask\" %}\nExplain **this** page.\n{% endprompt %}\n\n" +
	"Unclosed <span style=\"color:red\">red text.\n\n" +
	"<a href=\"javascript:alert(4)\">bad</a> <a id=\"sidebar\">x</a>\n"

// importedResolvers resolve repository files by name to /files/<name>.
func importedResolvers() Resolvers {
	name := func(ref document.Ref) string { return ref.File[strings.LastIndex(ref.File, "/")+1:] }
	return Resolvers{
		Image: func(ref document.Ref) string {
			if ref.Kind == document.RefURL {
				return ref.URL
			}
			return "/files/" + url.PathEscape(name(ref))
		},
		File: func(ref document.Ref) Target {
			return Target{URL: "/files/" + url.PathEscape(name(ref)), Title: name(ref)}
		},
	}
}

// tagText matches HTML source shown as text.
var tagText = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*[\s>/]|\{%`)

// bodyOf renders a document's body and parses it.
func bodyOf(t *testing.T, doc *document.Document, res Resolvers) (*html.Node, string) {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := r.RenderBody(&b, &Page{Document: doc, Resolvers: res}); err != nil {
		t.Fatal(err)
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(b.String()), ctx)
	if err != nil {
		t.Fatal(err)
	}
	root := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	return root, b.String()
}

// Raw HTML of imported pages is drawn as HTML, filtered: no tag shows as
// text, images lead to the site's files, scripts and handlers are gone.
func TestRawHTMLIsDrawnFiltered(t *testing.T) {
	doc, err := document.FromMarkdown(importedMarkdown)
	if err != nil {
		t.Fatal(err)
	}
	root, out := bodyOf(t, doc, importedResolvers())
	for _, n := range findAll(root, func(*html.Node) bool { return true }) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && tagText.MatchString(c.Data) {
				t.Errorf("source shown as text in <%s>: %q", n.Data, c.Data)
			}
		}
	}
	if n := len(findAll(root, func(n *html.Node) bool { return n.DataAtom == atom.Code || n.DataAtom == atom.Pre })); n != 0 {
		t.Errorf("%d code elements in a page without code: %s", n, out)
	}
	for _, bad := range []string{"alert", "onerror", "onclick", "javascript", "<!--", "a comment block", `id="sidebar"`, "data-tag"} {
		if strings.Contains(out, bad) {
			t.Errorf("the body holds %q: %s", bad, out)
		}
	}
	srcs := map[string]bool{}
	for _, n := range findAll(root, func(n *html.Node) bool { return n.DataAtom == atom.Img || n.DataAtom == atom.Source }) {
		for _, k := range []string{"src", "srcset"} {
			if v, ok := attr(n, k); ok {
				srcs[v] = true
			}
		}
	}
	for _, want := range []string{"/files/dark.svg", "/files/light%20logo.png", "/files/chart.svg"} {
		if !srcs[want] {
			t.Errorf("no image from %s; images: %v", want, srcs)
		}
	}
	if len(findAll(root, byTag(atom.Picture))) != 1 {
		t.Error("the picture is not a <picture>")
	}
	dl := findAll(root, byTag(atom.Dl))
	if len(dl) != 1 || len(findAll(dl[0], byTag(atom.Dt))) != 1 || len(findAll(dl[0], byTag(atom.Dd))) != 1 {
		t.Fatalf("the definition list is not a <dl> of a term and a definition: %s", out)
	}
	if p := dl[0].Parent; p.DataAtom == atom.P {
		t.Error("the definition list sits in a <p>")
	}
	for _, want := range []string{"<u>under</u>", `<abbr title="HyperText">HTML</abbr>`, `<div align="center">`,
		`<span style="color: red">red text.</span>`, "Go"} {
		if !strings.Contains(out, want) {
			t.Errorf("the body lacks %s: %s", want, out)
		}
	}
	prompt := findAll(root, byClass("prompt"))
	if len(prompt) != 1 || len(findAll(prompt[0], byTag(atom.Strong))) != 1 || !strings.Contains(textOf(prompt[0]), "Explain this page.") {
		t.Errorf("the prompt is not drawn as its Markdown: %s", out)
	}
}

// The reader's own inline markup passes the filter unchanged when a
// paragraph also holds raw HTML.
func TestRawHTMLKeepsTheReadersMarkup(t *testing.T) {
	src := "**bold** _it_ `code` [link](https://example.com) <kbd>K</kbd> x<sup>2</sup> " +
		"<mark style=\"color:red;\">red</mark> ![pic](https://example.com/a.png) $$x^2$$ " +
		"<code class=\"expression\">space.vars.v</code> word[^1]\n\n[^1]: A note.\n"
	plain, err := document.FromMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	withRaw, err := document.FromMarkdown("<span>" + strings.Replace(src, "\n\n", "</span>\n\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	wantRoot, _ := bodyOf(t, plain, Resolvers{})
	gotRoot, _ := bodyOf(t, withRaw, Resolvers{})
	p := wantRoot.FirstChild
	span := &html.Node{Type: html.ElementNode, Data: "span", DataAtom: atom.Span}
	for c := p.FirstChild; c != nil; c = p.FirstChild {
		p.RemoveChild(c)
		span.AppendChild(c)
	}
	p.AppendChild(span)
	if got, want := canonical(gotRoot), canonical(wantRoot); got != want {
		t.Errorf("with raw HTML the paragraph is\n%s\nwant\n%s", got, want)
	}
}

// canonical writes a tree with each element's attributes in order of
// name, to compare markup whatever the order of attributes.
func canonical(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(html.EscapeString(n.Data))
		case html.ElementNode:
			attrs := append([]html.Attribute(nil), n.Attr...)
			sort.Slice(attrs, func(i, j int) bool { return attrs[i].Key < attrs[j].Key })
			b.WriteString("<" + n.Data)
			for _, a := range attrs {
				b.WriteString(" " + a.Key + "=" + strconv.Quote(a.Val))
			}
			b.WriteString(">")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode {
			b.WriteString("</" + n.Data + ">")
		}
	}
	walk(n)
	return b.String()
}

// The outline of a page with raw HTML in its headings is their text.
func TestOutlineWithRawHTML(t *testing.T) {
	doc, err := document.FromMarkdown("## Install <span data-x=\"1\">now</span>\n\n" + importedMarkdown)
	if err != nil {
		t.Fatal(err)
	}
	got := Outline(doc, importedResolvers())
	if len(got) != 1 || got[0].Title != "Install now" {
		t.Errorf("outline %+v", got)
	}
}

// Definition lists of Markdown, which the document keeps as written, are
// drawn as a <dl> of terms and definitions.
func TestMarkdownDefinitionListIsDrawn(t *testing.T) {
	doc, err := document.FromMarkdown("Intro.\n\nApple\nPear\n: A *fruit*.\n: Grows on trees.\n\nNext paragraph.\n")
	if err != nil {
		t.Fatal(err)
	}
	root, out := bodyOf(t, doc, importedResolvers())
	dl := findAll(root, byTag(atom.Dl))
	if len(dl) != 1 {
		t.Fatalf("%d <dl> elements, want 1: %s", len(dl), out)
	}
	var terms, defs []string
	for _, n := range findAll(dl[0], byTag(atom.Dt)) {
		terms = append(terms, textOf(n))
	}
	for _, n := range findAll(dl[0], byTag(atom.Dd)) {
		defs = append(defs, textOf(n))
	}
	if strings.Join(terms, "|") != "Apple|Pear" || strings.Join(defs, "|") != "A fruit.|Grows on trees." {
		t.Fatalf("terms %q, definitions %q: %s", terms, defs, out)
	}
	if len(findAll(dl[0], byTag(atom.Em))) != 1 || strings.Contains(out, ": A") {
		t.Fatalf("the definition's Markdown is not drawn: %s", out)
	}
}

// Links of raw HTML to page files of the repository lead to the pages'
// addresses, their anchors kept.
func TestRawHTMLPageLinksResolve(t *testing.T) {
	doc, err := document.FromMarkdown("<div><a href=\"other-page.md\">Other</a> <a href=\"../dir/page.md#usage\">Usage</a> " +
		"<a href=\"README.md\">Home</a> <a href=\"missing.md\">Missing</a> <a href=\"https://x.io/a.md\">Out</a></div>\n\n")
	if err != nil {
		t.Fatal(err)
	}
	res := importedResolvers()
	pages := map[string]string{"other-page.md": "/docs/other", "../dir/page.md": "/docs/dir/page", "README.md": "/docs/"}
	var asked []string
	res.Path = func(p string) Target {
		asked = append(asked, p)
		return Target{URL: pages[p]}
	}
	root, out := bodyOf(t, doc, res)
	var hrefs []string
	for _, a := range findAll(root, byTag(atom.A)) {
		v, _ := attr(a, "href")
		hrefs = append(hrefs, v)
	}
	want := []string{"/docs/other", "/docs/dir/page#usage", "/docs/", "missing.md", "https://x.io/a.md"}
	if strings.Join(hrefs, " ") != strings.Join(want, " ") {
		t.Fatalf("links %q, want %q (asked %q): %s", hrefs, want, asked, out)
	}
}
