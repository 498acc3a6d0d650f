package reader

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// htmlPolicy is the allowlist raw HTML of a document is filtered
// through: text-level and block elements of documentation (pictures,
// definition lists, details, tables, keys, marks), addresses as SafeURL
// allows them, a few presentational attributes and styles. Scripts,
// styles sheets, frames, forms, media players and event handlers are
// dropped. The reader's own inline markup (links, marks, inline images,
// footnote references, icons, math) passes unchanged, since inline
// content holding raw HTML is filtered with it.
func htmlPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowURLSchemes("http", "https", "mailto", "tel")
	p.AllowRelativeURLs(true)
	p.AllowElements("a", "abbr", "b", "bdi", "bdo", "blockquote", "br", "caption", "center", "cite", "code",
		"col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure",
		"h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p",
		"picture", "pre", "q", "rp", "rt", "ruby", "s", "samp", "small", "source", "span", "strike",
		"strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr",
		"u", "ul", "var", "wbr")
	p.AllowAttrs("title", "lang", "dir", "aria-label").Globally()
	p.AllowAttrs("aria-hidden").Matching(regexp.MustCompile(`^(true|false)$`)).Globally()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[A-Za-z0-9_ -]*$`)).Globally()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]*$`)).Globally()
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^(img|math|note)$`)).OnElements("span", "div")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`(?i)^(left|center|right|justify)$`)).
		OnElements("p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "img", "table", "tr", "td", "th", "caption")
	p.AllowStyles("color", "background-color", "text-align", "font-weight", "font-style", "text-decoration",
		"vertical-align", "width", "max-width", "height").Globally()
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("name").Matching(regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]*$`)).OnElements("a")
	p.AllowAttrs("rel").Matching(regexp.MustCompile(`^(noopener|noreferrer|nofollow| )+$`)).OnElements("a")
	p.AllowAttrs("cite").OnElements("blockquote", "q", "del", "ins")
	dimension := regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(px|%)?$`)
	p.AllowAttrs("src", "alt").OnElements("img")
	p.AllowAttrs("width", "height").Matching(dimension).OnElements("img", "source", "col", "td", "th", "table")
	p.AllowAttrs("loading").Matching(regexp.MustCompile(`^(lazy|eager)$`)).OnElements("img")
	// srcset addresses are checked one by one before the policy runs
	// (resolveSrcset): the policy does not read the list.
	p.AllowAttrs("srcset", "sizes").OnElements("img", "source")
	p.AllowAttrs("media", "type").OnElements("source")
	p.AllowAttrs("colspan", "rowspan").Matching(regexp.MustCompile(`^[0-9]{1,3}$`)).OnElements("td", "th")
	p.AllowAttrs("scope").Matching(regexp.MustCompile(`^(row|col|rowgroup|colgroup)$`)).OnElements("th")
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^-?[0-9]{1,9}$`)).OnElements("ol")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^[1aAiI]$`)).OnElements("ol")
	p.AllowAttrs("reversed").Matching(regexp.MustCompile(`^$|^reversed$`)).OnElements("ol")
	p.AllowAttrs("value").Matching(regexp.MustCompile(`^-?[0-9]{1,9}$`)).OnElements("li")
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^$|^open$`)).OnElements("details")
	p.AllowAttrs("datetime").OnElements("time", "del", "ins")
	return p
}

// reservedID reports whether an id is one of the page's own parts,
// which raw HTML may not take.
func reservedID(id string) bool {
	switch id {
	case "content", "sidebar", "search-input", "search-results", "outline-title", "variant-select":
		return true
	}
	return strings.HasPrefix(id, "fn-") || strings.HasPrefix(id, "fnref-") || strings.HasPrefix(id, "tabs-")
}

// isComment reports whether raw source is one HTML comment.
func isComment(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<!--") && strings.HasSuffix(s, "-->")
}

// hasRawHTML reports whether inline content holds raw HTML other than
// comments, outside nested blocks.
func hasRawHTML(nodes []document.Node) bool {
	for i := range nodes {
		n := &nodes[i]
		if n.Object != document.ObjectInline {
			continue
		}
		if n.Type == document.InlineRaw {
			if s := strings.TrimSpace(dataString(n, "markdown")); s != "" && !isComment(s) {
				return true
			}
			continue
		}
		if hasRawHTML(n.Nodes) {
			return true
		}
	}
	return false
}

// inlineHTML returns inline content holding raw HTML, filtered as one
// piece, and whether it holds block elements (a <p> cannot hold it).
func (w *bodyWriter) inlineHTML(nodes []document.Node) (string, bool) {
	saved := w.b
	w.b = &strings.Builder{}
	w.inHTML++
	w.inlines(nodes)
	w.inHTML--
	src := w.b.String()
	w.b = saved
	return w.cleanHTML(src)
}

// rawInline writes a piece of inline HTML (a tag, or a run of markup)
// while inline content is gathered to be filtered; a comment is nothing,
// and source that is no HTML is text.
func (w *bodyWriter) rawInline(src string) {
	s := strings.TrimSpace(src)
	switch {
	case s == "" || isComment(s):
	case w.inHTML == 0 || w.policy == nil:
		// Only reached by pieces hasRawHTML does not see; nothing shows
		// HTML source.
		if !strings.HasPrefix(s, "<") {
			w.text(src)
		}
	case strings.HasPrefix(s, "<"):
		w.raw(w.prepareHTML(src))
	default:
		w.text(src)
	}
}

// paragraph writes a paragraph; one holding block elements of raw HTML
// (a definition list, details) is a <div> instead.
func (w *bodyWriter) paragraph(n *document.Node) {
	if w.inHTML > 0 || w.policy == nil || !hasRawHTML(n.Nodes) {
		w.raw("<p")
		w.alignClass(n)
		w.raw(">")
		w.inlines(n.Nodes)
		w.raw("</p>\n")
		return
	}
	body, block := w.inlineHTML(n.Nodes)
	if block {
		w.raw(`<div class="html-block">`)
		w.raw(body)
		w.raw("</div>\n")
		return
	}
	w.raw("<p")
	w.alignClass(n)
	w.raw(">")
	w.raw(body)
	w.raw("</p>\n")
}

// rawBlock writes a block the document does not model: HTML filtered
// through the policy, a Liquid tag ({% prompt %}…{% endprompt %}) as the
// Markdown it holds, other source as text. Comments are nothing.
func (w *bodyWriter) rawBlock(src string) {
	s := strings.TrimSpace(src)
	switch {
	case s == "" || isComment(s):
	case strings.HasPrefix(s, "{%"):
		w.liquidBlock(s)
	case strings.HasPrefix(s, "<"):
		if w.policy == nil {
			return
		}
		body, _ := w.cleanHTML(w.prepareHTML(s))
		if strings.TrimSpace(body) != "" {
			w.raw(`<div class="html-block">`)
			w.raw(body)
			w.raw("</div>\n")
		}
	default:
		if w.definitionList(s) {
			return
		}
		w.raw(`<p class="raw-text">`)
		w.text(s)
		w.raw("</p>\n")
	}
}

// definitionList writes Markdown that is a definition list (a term, then
// ": definition" lines) as a <dl>, filtered as raw HTML is, reporting
// whether src was one.
func (w *bodyWriter) definitionList(src string) bool {
	if w.policy == nil || !strings.Contains(src, "\n:") {
		return false
	}
	md := goldmark.New(goldmark.WithExtensions(extension.DefinitionList))
	var b strings.Builder
	if err := md.Convert([]byte(src), &b); err != nil || !strings.HasPrefix(b.String(), "<dl>") {
		return false
	}
	body, _ := w.cleanHTML(w.prepareHTML(b.String()))
	w.raw(`<div class="html-block">`)
	w.raw(body)
	w.raw("</div>\n")
	return true
}

// liquidTag matches a Liquid tag of GitBook Markdown.
var liquidTag = regexp.MustCompile(`\{%-?\s*([A-Za-z][\w-]*)[^%]*?-?%\}`)

// liquidBlock writes a Liquid block the document does not model as the
// Markdown between its tags; a prompt is set apart in a box.
func (w *bodyWriter) liquidBlock(s string) {
	name := ""
	if m := liquidTag.FindStringSubmatch(s); m != nil {
		name = m[1]
	}
	inner := strings.TrimSpace(liquidTag.ReplaceAllString(s, "\n"))
	if inner == "" || w.depth > 4 {
		return
	}
	doc, err := document.FromMarkdown(inner)
	if err != nil || doc == nil {
		w.raw(`<p class="raw-text">`)
		w.text(inner)
		w.raw("</p>\n")
		return
	}
	if name == "prompt" {
		w.raw(`<div class="prompt" role="note" aria-label="Prompt">`)
	}
	w.depth++
	w.blocks(doc.Nodes)
	w.depth--
	if name == "prompt" {
		w.raw("</div>\n")
	}
}

// prepareHTML rewrites a piece of raw HTML before it is filtered: images
// and links naming files of the repository (.gitbook/assets/x.png, from
// the page's folder or above) lead to the site's files, as image blocks
// do; ids of the page's own parts are dropped; comments go.
func (w *bodyWriter) prepareHTML(src string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(src))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.CommentToken:
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			attrs := t.Attr[:0]
			for _, a := range t.Attr {
				switch {
				case a.Key == "id" || a.Key == "name":
					if reservedID(a.Val) {
						continue
					}
				case a.Key == "src" && (t.DataAtom == atom.Img || t.DataAtom == atom.Source):
					a.Val = w.resolveHTMLImage(a.Val)
				case a.Key == "srcset":
					v, ok := w.resolveSrcset(a.Val)
					if !ok {
						continue
					}
					a.Val = v
				case a.Key == "href" && t.DataAtom == atom.A:
					a.Val = w.resolveHTMLFile(a.Val)
				}
				attrs = append(attrs, a)
			}
			t.Attr = attrs
			b.WriteString(t.String())
		default:
			b.Write(z.Raw())
		}
	}
}

// repositoryPath reports whether an address names a path relative to the
// page, as repositories write them, rather than a URL or a site path.
func repositoryPath(u string) bool {
	return u != "" && !document.HasScheme(u) && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "#") &&
		!strings.HasPrefix(u, "?")
}

// repositoryFile is a repository path as a file reference, unescaped.
func repositoryFile(u string) document.Ref {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if p, err := url.PathUnescape(u); err == nil {
		u = p
	}
	return document.Ref{Kind: document.RefFile, File: u}
}

// resolveHTMLImage resolves an image address of raw HTML: a repository
// path is the site's file, when the resolvers know it.
func (w *bodyWriter) resolveHTMLImage(u string) string {
	u = strings.TrimSpace(u)
	if !repositoryPath(u) {
		return u
	}
	if r := w.res.image(repositoryFile(u)); r != "" {
		return r
	}
	return u
}

// resolveHTMLFile resolves a link of raw HTML to a file of the repository
// (under .gitbook/assets/) or to a page (a .md file), its fragment kept;
// other links are kept.
func (w *bodyWriter) resolveHTMLFile(u string) string {
	u = strings.TrimSpace(u)
	if !repositoryPath(u) {
		return u
	}
	if page := repositoryFile(u).File; strings.HasSuffix(strings.ToLower(page), ".md") {
		r := w.res.path(page).URL
		if r == "" {
			return u
		}
		if i := strings.IndexByte(u, '#'); i >= 0 {
			if j := strings.IndexByte(r, '#'); j >= 0 {
				r = r[:j]
			}
			r += u[i:]
		}
		return r
	}
	if !strings.Contains(u, ".gitbook/assets/") {
		return u
	}
	if r := w.res.file(repositoryFile(u)).URL; r != "" {
		return r
	}
	return u
}

// resolveSrcset resolves every address of a srcset list; ok is false when
// one is unsafe.
func (w *bodyWriter) resolveSrcset(v string) (string, bool) {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		f := strings.Fields(p)
		if len(f) == 0 {
			continue
		}
		u := SafeURL(w.resolveHTMLImage(f[0]))
		if u == "" {
			return "", false
		}
		f[0] = u
		parts[i] = strings.Join(f, " ")
	}
	return strings.Join(parts, ", "), true
}

// blockElement reports whether a paragraph cannot hold elements of a kind.
func blockElement(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Div,
		atom.Dl, atom.Fieldset, atom.Figure, atom.Footer, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Header, atom.Hr, atom.Main, atom.Nav, atom.Ol, atom.P, atom.Pre, atom.Section,
		atom.Summary, atom.Table, atom.Ul, atom.Dd, atom.Dt, atom.Li:
		return true
	}
	return false
}

// cleanHTML balances a piece of HTML (every element closed, stray end
// tags gone) and filters it through the policy; it reports whether the
// piece holds block elements.
func (w *bodyWriter) cleanHTML(src string) (string, bool) {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(src), ctx)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	block := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && blockElement(n.DataAtom) {
			block = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
		if err := html.Render(&b, n); err != nil {
			return "", false
		}
	}
	return w.policy.Sanitize(b.String()), block
}
