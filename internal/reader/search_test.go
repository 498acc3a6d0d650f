package reader

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestRenderSearch checks the results page: each result links to its
// address with its title, section and snippet, the marked words in
// <mark>, every text escaped; javascript: addresses are refused.
func TestRenderSearch(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = r.RenderSearch(&buf, &SearchPage{Site: Site{Title: "Docs", HomeURL: "/docs/"},
		Search: Search{Action: "/docs/~search", Query: "git <sync>"},
		Results: []SearchResult{
			{URL: "/docs/github", Title: []TextPart{{Text: "GitHub", Mark: true}, {Text: " & Co"}},
				Snippet: []TextPart{{Text: "Run "}, {Text: "git", Mark: true}, {Text: ` <img src=x onerror="alert(1)">`}}},
			{URL: "javascript:alert(1)", Title: []TextPart{{Text: "Setup"}}, Section: "<b>Git</b> Sync"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`<h1>Search results</h1>`,
		`2 pages match “git &lt;sync&gt;”.`,
		`<a href="/docs/github"><span class="search-hit-title"><mark>GitHub</mark> &amp; Co</span></a>`,
		`<p class="search-hit-snippet">Run <mark>git</mark> &lt;img src=x onerror=&#34;alert(1)&#34;&gt;</p>`,
		`<span class="search-hit-section">&lt;b&gt;Git&lt;/b&gt; Sync</span>`,
		`<title>Search: git &lt;sync&gt; | Docs</title>`,
		`<meta name="robots" content="noindex">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("results page lacks %s", want)
		}
	}
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Img || n.DataAtom == atom.B })); n != 0 {
		t.Errorf("%d elements made of result text", n)
	}
	for _, a := range findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.A }) {
		if href, _ := attr(a, "href"); strings.HasPrefix(href, "javascript:") {
			t.Errorf("link to %s", href)
		}
	}
}
