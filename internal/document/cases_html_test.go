package document

import (
	"strings"
	"testing"
)

// htmlCases are the HTML forms GitBook writes, in normalized form.
func htmlCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"cards table", `<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Quickstart</strong></td><td>Get going fast.</td><td><a href="getting-started/quickstart.md">quickstart.md</a></td><td><a href="../.gitbook/assets/cover.png">cover.png</a></td></tr><tr><td><strong>API</strong></td><td>Reference.</td><td><a href="https://api.example.com">https://api.example.com</a></td><td></td></tr></tbody></table>`},
		{"cards table large with dark cover", `<table data-view="cards" data-card-size="large"><thead><tr><th>Name</th><th data-hidden data-card-cover data-type="image">Cover</th><th data-hidden data-card-cover-dark data-type="files">Dark</th></tr></thead><tbody><tr><td>One</td><td><a href="../.gitbook/assets/light.png">light.png</a></td><td><a href="../.gitbook/assets/dark.png">dark.png</a></td></tr></tbody></table>`},
		{"html table blocks in cells", `<table data-full-width="true" data-header-hidden><thead><tr><th width="200">Step</th><th align="center">Details</th></tr></thead><tbody><tr><td>Install</td><td><ul><li>Download</li><li>Run <code>setup</code></li></ul></td></tr><tr><td>Code</td><td><p>Run:</p><pre class="language-bash"><code class="lang-bash">npm install&#xa;&#xa;npm start&#xa;</code></pre></td></tr><tr><td>Image</td><td><img src="../.gitbook/assets/a.png" alt="A"></td></tr><tr><td>Text</td><td><p>One</p><ol start="3"><li><p>Three</p><p>More</p></li></ol></td></tr></tbody></table>`},
		{"html table figure in cell", `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><div align="center"><figure><img src="x.png" alt="" width="120"><figcaption><p>Cap</p></figcaption></figure></div></td></tr></tbody></table>`},
		{"pre code highlighted", "<pre class=\"language-js\" data-title=\"app.js\" data-overflow=\"wrap\" data-line-numbers data-full-width=\"false\"><code class=\"lang-js\">const a = 1;\n<strong>const b = <em>2</em>;\n</strong><strong>\n</strong>console.log(a + b);\n</code></pre>"},
		{"pre code formatted", "<pre><code>plain <em>and</em> <s>gone</s>\n</code></pre>"},
		{"button action", `<button type="button" class="button primary" data-action="search" data-query="install">Search</button> the docs.`},
		{"button secondary link", `<a href="https://x.io" class="button secondary">Visit</a>`},
		{"aligned paragraph", `<p align="center">Centred <strong>text</strong> with a <a href="https://x.io">link</a></p>`},
		{"aligned heading", `<h2 align="right">Right <a href="#r" id="r"></a></h2>`},
		{"paragraph in cell aligned", `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><p align="center">x</p><h3>Title <a href="#t" id="t"></a></h3></td></tr></tbody></table>`},
		{"data mention html", `Read [guide.md](guide.md "mention").`},
	}
}

func TestHTMLNormalization(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"p centred image", `<p align="center"><img src="../.gitbook/assets/x.png" alt="" width="300"></p>`,
			`<div align="center"><figure><img src="../.gitbook/assets/x.png" alt="" width="300"><figcaption></figcaption></figure></div>`},
		{"center image", `<center><img src="x.png" alt="X"></center>`,
			`<div align="center"><figure><img src="x.png" alt="X"><figcaption></figcaption></figure></div>`},
		// A table the export would write otherwise is kept as written.
		{"multi-line table", "<table>\n  <thead>\n    <tr><th>A</th><th>B</th></tr>\n  </thead>\n  <tbody>\n    <tr><td>1</td><td>2</td></tr>\n  </tbody>\n</table>",
			"<table>\n  <thead>\n    <tr><th>A</th><th>B</th></tr>\n  </thead>\n  <tbody>\n    <tr><td>1</td><td>2</td></tr>\n  </tbody>\n</table>"},
		{"pre without trailing line end", "<pre class=\"language-go\"><code class=\"lang-go\"><strong>x := 1</strong></code></pre>",
			"<pre class=\"language-go\"><code class=\"lang-go\"><strong>x := 1\n</strong></code></pre>"},
		{"pre mark highlight", "<pre><code><mark>a</mark>\nb\n</code></pre>", "<pre><code><strong>a\n</strong>b\n</code></pre>"},
		{"image paragraph in cell", `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><p><img src="a.png" alt="A"></p><p>Text</p></td></tr></tbody></table>`,
			`<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><p><img src="a.png" alt="A"></p><p>Text</p></td></tr></tbody></table>`},
		{"plain p", `<p>Para with <em>html</em></p>`, `Para with _html_`},
		{"p left", `<p align="left">L</p>`, `<p align="left">L</p>`},
		{"several elements", "<p align=\"center\">One</p>\n<p align=\"center\">Two</p>\n<h3 align=\"center\">Three</h3>",
			"<p align=\"center\">One</p>\n\n<p align=\"center\">Two</p>\n\n<h3 align=\"center\">Three</h3>"},
		{"several elements with other html", "<p align=\"center\">One</p>\n<div>x</div>", "<p align=\"center\">One</p>\n<div>x</div>"},
		{"p image", `<p><img src="a.png" alt="A"></p>`, `![A](a.png)`},
		{"figure", `<figure><img src="a.png" alt="A" title="T"><figcaption><p>Cap</p></figcaption></figure>`,
			`<figure><img src="a.png" alt="A" title="T"><figcaption><p>Cap</p></figcaption></figure>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustFromMarkdown(t, tc.in)
			got := mustToMarkdown(t, doc)
			if got != tc.want+"\n" {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			again := mustFromMarkdown(t, got)
			if a, b := canonicalJSON(t, doc), canonicalJSON(t, again); a != b {
				t.Fatalf("document changed\n%s", diffLines(b, a))
			}
		})
	}
}

func TestHTMLTableShape(t *testing.T) {
	doc := mustFromMarkdown(t, htmlCases()[0].md)
	tb := doc.Nodes[0]
	view := tb.Data["view"].(map[string]any)
	if view["type"] != "cards" || view["targetDefinition"] != "c3" || view["coverDefinition"] != "c4" || view["cardSize"] != "medium" {
		t.Fatalf("view %v", view)
	}
	if cols := view["columns"].([]any); len(cols) != 2 {
		t.Fatalf("visible columns %v", cols)
	}
	recs := tb.Data["records"].(map[string]any)
	v := recs["r1"].(map[string]any)["values"].(map[string]any)
	if r := v["c3"].(Ref); r.Kind != RefURL || r.URL != "getting-started/quickstart.md" {
		t.Fatalf("target %+v", r)
	}
	if f := v["c4"].([]any); len(f) != 1 || f[0] != "../.gitbook/assets/cover.png" {
		t.Fatalf("cover %v", f)
	}
	if _, err := Parse([]byte(canonicalJSON(t, doc))); err != nil {
		t.Fatal(err)
	}
	code := mustFromMarkdown(t, htmlCases()[4].md).Nodes[0]
	if code.Type != TypeCode || code.Data["title"] != "app.js" || code.Data["lineNumbers"] != true || code.Data["fullWidth"] != false || len(code.Nodes) != 4 {
		t.Fatalf("code %+v", code)
	}
	if h, _ := code.Nodes[1].Data["highlighted"].(bool); !h {
		t.Fatal("line 2 not highlighted")
	}
	if h, _ := code.Nodes[2].Data["highlighted"].(bool); !h {
		t.Fatal("empty line 3 not highlighted")
	}
	if h, _ := code.Nodes[3].Data["highlighted"].(bool); h {
		t.Fatal("line 4 highlighted")
	}
}

// useResolver maps relative page paths to page ids and asset paths to
// file ids, and records the uses it was asked about.
type useResolver struct{ uses map[TargetUse]int }

func (r useResolver) RefForTarget(target string, use TargetUse) (Ref, bool) {
	r.uses[use]++
	switch {
	case strings.HasSuffix(target, ".md"):
		return Ref{Kind: RefPage, Page: "page:" + target}, true
	case strings.Contains(target, ".gitbook/assets/"):
		return Ref{Kind: RefFile, File: "file:" + target[strings.LastIndex(target, "/")+1:]}, true
	}
	return Ref{}, false
}

func (r useResolver) TargetForRef(ref Ref, use TargetUse) (string, bool) {
	switch ref.Kind {
	case RefPage:
		return strings.TrimPrefix(ref.Page, "page:"), true
	case RefFile:
		if name, ok := strings.CutPrefix(ref.File, "file:"); ok {
			return "../.gitbook/assets/" + name, true
		}
	}
	return "", false
}

// TestResolverSeesEveryTarget checks that the targets of cards, images,
// mentions, buttons, files, embeds and OpenAPI blocks go through the
// resolver with their use, and come back the same.
func TestResolverSeesEveryTarget(t *testing.T) {
	src := strings.Join([]string{
		htmlCases()[0].md,
		`<figure><img src="../.gitbook/assets/a.png" alt=""><figcaption><p>Cap</p></figcaption></figure>`,
		`See <img src="../.gitbook/assets/i.png" alt="" data-size="line"> and [guide.md](guide.md "mention").`,
		`<a href="start.md" class="button primary">Start</a>`,
		"{% file src=\"../.gitbook/assets/r.pdf\" %}\nReport\n{% endfile %}",
		`{% embed url="https://www.youtube.com/watch?v=x" %}`,
		"{% openapi src=\"../.gitbook/assets/spec.yaml\" path=\"/a\" method=\"get\" %}\n[spec.yaml](../.gitbook/assets/spec.yaml)\n{% endopenapi %}",
	}, "\n\n") + "\n"
	r := useResolver{uses: map[TargetUse]int{}}
	doc := mustFromMarkdown(t, src, WithLinkResolver(r))
	for _, u := range []TargetUse{UseContentRef, UseImage, UseMention, UseLink, UseFile, UseEmbed, UseOpenAPI} {
		if r.uses[u] == 0 {
			t.Errorf("use %d never asked", u)
		}
	}
	j := canonicalJSON(t, doc)
	for _, want := range []string{`"page": "page:getting-started/quickstart.md"`, `"file:cover.png"`, `"file": "file:a.png"`,
		`"page": "page:guide.md"`, `"page": "page:start.md"`, `"file": "file:r.pdf"`, `"file": "file:spec.yaml"`} {
		if !strings.Contains(j, want) {
			t.Errorf("document lacks %s", want)
		}
	}
	if got := mustToMarkdown(t, doc, WithLinkResolver(r)); got != src {
		t.Fatalf("round trip:\n%s", diffLines(got, src))
	}
}

// TestCardsFromAPIDocument writes a cards table shaped as GitBook's API
// returns it: random ids, a page target, a files cover and an image
// record with its own settings.
func TestCardsFromAPIDocument(t *testing.T) {
	src := `{"object":"document","data":{},"nodes":[{"object":"block","type":"table","isVoid":true,"data":{
		"view":{"type":"cards","columns":["t1"],"cardSize":"large","targetDefinition":"zz","coverDefinition":"cv","coverDefinitionDark":"dk"},
		"definition":{"t1":{"id":"t1","title":"Title","type":"text","textAlignment":"left"},
			"zz":{"id":"zz","title":"Target","type":"content-ref"},
			"cv":{"id":"cv","title":"Cover","type":"files"},
			"dk":{"id":"dk","title":"Dark","type":"image"}},
		"records":{"b":{"orderIndex":"b","values":{"t1":"f1","zz":{"kind":"page","page":"p1"},"cv":["file1"],"dk":{"ref":{"kind":"url","url":"https://x.io/d.png"},"objectFit":"cover"}}}}},
		"fragments":[{"object":"fragment","fragment":"f1","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"One","marks":[]}]}]}]}]}]}`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := mustToMarkdown(t, doc)
	want := `<table data-view="cards" data-card-size="large"><thead><tr><th>Title</th><th data-hidden data-card-cover data-type="files">Cover</th><th data-hidden data-card-cover-dark data-type="image">Dark</th><th data-hidden data-card-target data-type="content-ref">Target</th></tr></thead><tbody><tr><td>One</td><td><a href="file1">file1</a></td><td><a href="https://x.io/d.png">d.png</a></td><td><a href="p1">p1</a></td></tr></tbody></table>` + "\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	back := mustFromMarkdown(t, got)
	view := back.Nodes[0].Data["view"].(map[string]any)
	if view["targetDefinition"] != "c4" || view["coverDefinition"] != "c2" || view["coverDefinitionDark"] != "c3" || view["cardSize"] != "large" {
		t.Fatalf("view read back as %v", view)
	}
}
