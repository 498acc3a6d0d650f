package reader

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// renderFixture renders the fixture page and parses it back.
func renderFixture(t *testing.T, p *Page) (*html.Node, string) {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.RenderPage(&buf, p); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return doc, buf.String()
}

// findAll returns the elements under n for which match holds.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return strings.Contains(" "+v+" ", " "+class+" ")
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func byTag(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

func byClass(c string) func(*html.Node) bool {
	return func(n *html.Node) bool { return hasClass(n, c) }
}

func TestPageLandmarks(t *testing.T) {
	doc, _ := renderFixture(t, fixturePage(t))
	for _, a := range []atom.Atom{atom.Header, atom.Main, atom.Aside, atom.Footer} {
		if got := len(findAll(doc, byTag(a))); got != 1 {
			t.Errorf("%d <%s> elements, want 1", got, a)
		}
	}
	navs := findAll(doc, byTag(atom.Nav))
	labels := map[string]bool{}
	for _, n := range navs {
		l, ok := attr(n, "aria-label")
		if !ok {
			if _, ok := attr(n, "aria-labelledby"); !ok {
				t.Errorf("a <nav> has no label: %s", textOf(n))
			}
		}
		labels[l] = true
	}
	for _, want := range []string{"Pages", "Sections", "Site links", "Previous and next pages"} {
		if !labels[want] {
			t.Errorf("no nav labelled %q", want)
		}
	}
	if h1 := findAll(doc, byTag(atom.H1)); len(h1) != 1 || textOf(h1[0]) != "Every block" {
		t.Errorf("h1 = %v", h1)
	}
	// Headings never skip a level going down.
	last := 1
	for _, h := range findAll(doc, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return true
		}
		return false
	}) {
		level := int(h.Data[1] - '0')
		if level > last+1 {
			t.Errorf("heading %q is h%d after h%d", textOf(h), level, last)
		}
		last = level
	}
	// Every control has a name.
	for _, b := range findAll(doc, byTag(atom.Button)) {
		if _, ok := attr(b, "aria-label"); !ok && strings.TrimSpace(textOf(b)) == "" {
			t.Errorf("a button has no name: %v", b.Attr)
		}
	}
	for _, in := range findAll(doc, byTag(atom.Input)) {
		id, _ := attr(in, "id")
		_, labelled := attr(in, "aria-label")
		if !labelled && (id == "" || len(findAll(doc, func(n *html.Node) bool {
			f, _ := attr(n, "for")
			return n.DataAtom == atom.Label && f == id
		})) == 0) {
			t.Errorf("an input has no label: %v", in.Attr)
		}
	}
}

func TestPageShell(t *testing.T) {
	doc, out := renderFixture(t, fixturePage(t))
	sidebar := findAll(doc, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "sidebar" })
	if len(sidebar) != 1 {
		t.Fatal("no sidebar")
	}
	tree := textOf(sidebar[0])
	for _, want := range []string{"Overview", "Getting started", "Quickstart", "Docker"} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree lacks %q", want)
		}
	}
	if strings.Contains(out, "Secret draft") {
		t.Error("a hidden page is in the tree")
	}
	current := findAll(sidebar[0], func(n *html.Node) bool { v, _ := attr(n, "aria-current"); return v == "page" })
	if len(current) != 1 || textOf(current[0]) != "Overview" {
		t.Errorf("current page in the tree: %d", len(current))
	}
	if sel := findAll(doc, byTag(atom.Select)); len(sel) != 1 || len(findAll(sel[0], byTag(atom.Option))) != 2 {
		t.Error("no site-space switcher with two options")
	}
	toggle := findAll(doc, byClass("nav-toggle"))
	if len(toggle) != 1 {
		t.Fatal("no sidebar toggle")
	}
	if v, _ := attr(toggle[0], "aria-controls"); v != "sidebar" {
		t.Errorf("sidebar toggle controls %q", v)
	}
	if len(findAll(doc, byClass("theme-toggle"))) != 1 {
		t.Error("no theme toggle")
	}
	forms := findAll(doc, func(n *html.Node) bool { r, _ := attr(n, "role"); return r == "search" })
	if len(forms) != 1 {
		t.Fatal("no search form")
	}
	if a, _ := attr(forms[0], "action"); a != "/search" {
		t.Errorf("search action %q", a)
	}
	for _, want := range []string{"--primary:#0b7a75", "--primary:#4fd1c5", "Version 2 is out.", "Community", "Sign up"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	outline := findAll(doc, byTag(atom.Aside))[0]
	links := findAll(outline, byTag(atom.A))
	var hrefs []string
	for _, l := range links {
		h, _ := attr(l, "href")
		hrefs = append(hrefs, h)
		id := strings.TrimPrefix(h, "#")
		if len(findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })) != 1 {
			t.Errorf("outline link %s has no single target", h)
		}
	}
	if len(hrefs) < 3 || hrefs[0] != "#overview" {
		t.Errorf("outline = %v", hrefs)
	}
	pag := findAll(doc, byClass("pagination"))
	if len(pag) != 1 || !strings.Contains(textOf(pag[0]), "Welcome") || !strings.Contains(textOf(pag[0]), "Quickstart") {
		t.Error("no previous and next links")
	}
}

func TestPageBlocks(t *testing.T) {
	doc, out := renderFixture(t, fixturePage(t))
	body := findAll(doc, byClass("body"))[0]
	checks := []struct {
		name string
		find func(*html.Node) bool
		min  int
	}{
		{"hints of four styles", byClass("hint"), 4},
		{"tabs", byClass("tabs"), 1},
		{"code blocks", byClass("code-block"), 4},
		{"copy buttons", func(n *html.Node) bool { _, ok := attr(n, "data-copy"); return ok }, 4},
		{"highlighted tokens", func(n *html.Node) bool {
			return n.DataAtom == atom.Span && n.Parent != nil && n.Parent.DataAtom == atom.Code && len(n.Attr) > 0
		}, 10},
		{"stepper", byClass("stepper"), 1},
		{"figures", byTag(atom.Figure), 2},
		{"details", byTag(atom.Details), 1},
		{"table", byTag(atom.Table), 2},
		{"cards", byClass("card"), 2},
		{"columns", byClass("column"), 2},
		{"embed", byClass("embed"), 2},
		{"task checkboxes", func(n *html.Node) bool { t, _ := attr(n, "type"); return t == "checkbox" }, 4},
		{"blockquote", byTag(atom.Blockquote), 1},
		{"math", func(n *html.Node) bool { r, _ := attr(n, "role"); return r == "math" }, 2},
		{"file", byClass("file"), 2},
		{"content-ref", byClass("content-ref"), 1},
		{"openapi cards", byClass("openapi-card"), 2},
		{"updates", byClass("update"), 1},
		{"footnotes", func(n *html.Node) bool { id, _ := attr(n, "id"); return strings.HasPrefix(id, "fn-") }, 2},
		{"mention", byClass("mention"), 1},
		{"button", byClass("button"), 1},
		{"kbd", byTag(atom.Kbd), 2},
		{"strikethrough", byTag(atom.S), 1},
		{"superscript", byTag(atom.Sup), 1},
		{"subscript", byTag(atom.Sub), 1},
		{"color mark", byClass("text-red"), 1},
		{"expression", byClass("expression"), 1},
		{"drawing", byClass("drawing"), 1},
		{"divider", byTag(atom.Hr), 1},
	}
	for _, c := range checks {
		if got := len(findAll(body, c.find)); got < c.min {
			t.Errorf("%s: %d, want at least %d", c.name, got, c.min)
		}
	}
	if !strings.Contains(textOf(body), "Included note.") {
		t.Error("reusable content not included")
	}
	if !strings.Contains(textOf(body), "Beta text.") {
		t.Error("conditional block hidden without a condition resolver")
	}
	if strings.Contains(out, "do not edit") {
		t.Error("an HTML comment is shown")
	}
	// Tabs follow the ARIA tab pattern.
	tabs := findAll(body, func(n *html.Node) bool { r, _ := attr(n, "role"); return r == "tab" })
	panels := findAll(body, func(n *html.Node) bool { r, _ := attr(n, "role"); return r == "tabpanel" })
	if len(tabs) != 2 || len(panels) != 2 {
		t.Fatalf("%d tabs and %d panels", len(tabs), len(panels))
	}
	for i, tab := range tabs {
		ctl, _ := attr(tab, "aria-controls")
		pid, _ := attr(panels[i], "id")
		lb, _ := attr(panels[i], "aria-labelledby")
		tid, _ := attr(tab, "id")
		if ctl != pid || lb != tid {
			t.Errorf("tab %d and its panel do not point at each other", i)
		}
		sel, _ := attr(tab, "aria-selected")
		_, hidden := attr(panels[i], "hidden")
		if (sel == "true") == hidden {
			t.Errorf("tab %d selected=%s but panel hidden=%v", i, sel, hidden)
		}
	}
	// Images and files go through the caller's resolvers.
	for _, img := range findAll(body, byTag(atom.Img)) {
		if src, _ := attr(img, "src"); !strings.HasPrefix(src, "/files/") {
			t.Errorf("image src %q not resolved", src)
		}
	}
	// Headings carry anchors to themselves.
	for _, h := range findAll(body, byTag(atom.H2)) {
		id, _ := attr(h, "id")
		a := findAll(h, byClass("anchor"))
		if id == "" || len(a) != 1 {
			t.Errorf("heading %q without id or anchor", textOf(h))
			continue
		}
		if href, _ := attr(a[0], "href"); href != "#"+id {
			t.Errorf("anchor %q for id %q", href, id)
		}
	}
}

func TestPageEscapesAndSanitizes(t *testing.T) {
	p := fixturePage(t)
	p.Title = `<img src=x onerror=alert(1)>`
	p.Site.Title = `"><script>alert(2)</script>`
	p.Site.PrimaryColor = "red;}body{display:none"
	p.Tree = append(p.Tree, TreeItem{Title: "evil", URL: "javascript:alert(3)"})
	p.Previous = &Link{Title: "prev", URL: " JaVaScRiPt:alert(4)"}
	p.Document = document.New(
		document.Paragraph("<script>alert(5)</script>"),
		document.Block(document.TypeParagraph, nil, document.Inline(document.InlineLink,
			map[string]any{"ref": map[string]any{"kind": "url", "url": "java\tscript:alert(6)"}}, document.Text(document.PlainLeaf("bad link")))),
		document.Block(document.TypeRaw, map[string]any{"markdown": "<iframe src=\"https://evil.example\"></iframe>"}),
		document.Block("future-block", nil, document.Text(document.PlainLeaf("<b>unknown</b>"))),
		document.Block(document.TypeEmbed, map[string]any{"url": "data:text/html,<script>alert(7)</script>"}),
	)
	p.Resolvers = Resolvers{}
	doc, out := renderFixture(t, p)
	if n := len(findAll(doc, byTag(atom.Script))); n != 2 {
		t.Errorf("%d <script> elements, want the page's own 2", n)
	}
	if len(findAll(doc, byTag(atom.Iframe))) != 0 {
		t.Error("a raw block became an iframe")
	}
	for _, a := range findAll(doc, func(n *html.Node) bool { _, ok := attr(n, "href"); return ok }) {
		h, _ := attr(a, "href")
		if l := strings.ToLower(strings.Join(strings.Fields(h), "")); strings.HasPrefix(l, "javascript:") || strings.HasPrefix(l, "data:") || strings.Contains(l, "script:") {
			t.Errorf("unsafe href %q", h)
		}
	}
	if strings.Contains(out, "evil.example") {
		t.Error("the raw iframe's address is in the page")
	}
	for _, want := range []string{"&lt;script&gt;alert(5)&lt;/script&gt;", "&lt;b&gt;unknown&lt;/b&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks escaped %q", want)
		}
	}
	if strings.Contains(out, "red;}body") {
		t.Error("an invalid primary color reached the stylesheet")
	}
	if h1 := findAll(doc, byTag(atom.H1)); textOf(h1[0]) != p.Title {
		t.Errorf("title text %q", textOf(h1[0]))
	}
}

func TestSafeURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?b#c": "https://example.com/a?b#c",
		"/docs/page":                "/docs/page",
		"page.md#x":                 "page.md#x",
		"#anchor":                   "#anchor",
		"mailto:a@example.com":      "mailto:a@example.com",
		"javascript:alert(1)":       "",
		" JavaScript:alert(1)":      "",
		"java\nscript:alert(1)":     "",
		"data:text/html,x":          "",
		"vbscript:x":                "",
		"./a:b":                     "./a:b",
		"":                          "",
	} {
		if got := SafeURL(in); got != want {
			t.Errorf("SafeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOpenAPICardResolver(t *testing.T) {
	block := document.Block(document.TypeOpenAPIOp, map[string]any{"method": "get", "path": "/pets",
		"ref": map[string]any{"kind": "openapi", "spec": "petstore"}})
	p := &Page{Title: "API", Document: document.New(block), Resolvers: Resolvers{
		OpenAPI: func(n document.Node) *OpenAPICard {
			return &OpenAPICard{Method: "GET", Path: "/pets", Summary: "List pets", URL: "/api#list-pets"}
		},
	}}
	doc, _ := renderFixture(t, p)
	card := findAll(doc, byClass("openapi-card"))
	if len(card) != 1 || !strings.Contains(textOf(card[0]), "List pets") {
		t.Fatalf("card = %v", card)
	}
	p.Resolvers = Resolvers{}
	doc, _ = renderFixture(t, p)
	card = findAll(doc, byClass("openapi-card"))
	if len(card) != 1 || !strings.Contains(textOf(card[0]), "/pets") || len(findAll(card[0], byTag(atom.A))) != 0 {
		t.Errorf("without a resolver the card should show method and path, and no link to an unresolved spec")
	}
}

func TestConditionResolver(t *testing.T) {
	p := &Page{Title: "If", Document: document.New(
		document.Block(document.TypeIf, map[string]any{"expression": "visitor.beta"}, document.Paragraph("beta only")),
		document.Block(document.TypeIf, map[string]any{"expression": "visitor.alpha"}, document.Paragraph("alpha only")),
	), Resolvers: Resolvers{Condition: func(e string) bool { return e == "visitor.beta" }}}
	_, out := renderFixture(t, p)
	if !strings.Contains(out, "beta only") || strings.Contains(out, "alpha only") {
		t.Error("conditions not applied")
	}
}

func TestServePage(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	r.ServePage(rec, httptest.NewRequest(http.MethodGet, "/docs", nil), fixturePage(t), slog.Default())
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors") {
		t.Errorf("CSP = %q", csp)
	}
	if !strings.Contains(rec.Body.String(), "<h1>Every block</h1>") {
		t.Error("no page in the answer")
	}
}
