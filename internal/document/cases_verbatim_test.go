package document

import (
	"strings"
	"testing"
)

// TestHTMLKeptVerbatim checks that HTML the export would write in another
// form (tables written by hand, tables inside other HTML, a <picture> of
// its own, line breaks and emoji spans in Markdown text) is kept as
// written, whole, and written back byte for byte.
func TestHTMLKeptVerbatim(t *testing.T) {
	cases := []struct{ name, md string }{
		{"table in one-line details", `<details><summary>Limits</summary><table><tr><td>A</td></tr></table></details>`},
		{"table with colgroup in details", "<details>\n\n<summary>S</summary>\n\n<table><colgroup><col width=\"120\"><col></colgroup><thead><tr><th>Limit</th></tr></thead><tbody><tr><td>10</td></tr></tbody></table>\n\n</details>"},
		{"table without thead", `<table><tr><th>H</th></tr><tr><td>A</td></tr></table>`},
		{"table with Markdown in cells", "<table>\n  <tr>\n    <td>A **b**</td>\n  </tr>\n</table>"},
		{"table in a list", "* item\n\n  <table><thead><tr><th>H</th></tr></thead><tbody><tr><td>A</td></tr></tbody></table>"},
		{"table in a hint", "{% hint style=\"info\" %}\n<table><thead><tr><th>H</th></tr></thead><tbody><tr><td>A</td></tr></tbody></table>\n{% endhint %}"},
		{"table in a div", `<div align="center"><table><tr><td>A</td></tr></table></div>`},
		{"cards without thead", `<table data-view="cards"><tbody><tr><td>A</td></tr></tbody></table>`},
		{"picture alone", `<picture><source srcset="d.png" media="(prefers-color-scheme: dark)"><img src="l.png" alt="O"></picture>`},
		{"br in text", `one<br>two`},
		{"emoji span in text", `A <span data-gb-custom-inline data-tag="emoji" data-code="2705">✅</span> check`},
		{"span with data attributes", `A <span data-x="1">text</span> here.`},
		{"author's img in text", `Text <img src="a.png" alt="x"> more`},
		{"img with a width in text", `An <img src="a.png" width="20"> icon`},
		{"definition list", "<dl>\n<dt>Term</dt>\n<dd>Definition.</dd>\n</dl>"},
		{"cards target names", `<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td>A</td><td><a href="a/README.md">README.md</a></td></tr><tr><td>B</td><td><a href="../b/">b</a></td></tr></tbody></table>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustFromMarkdown(t, tc.md)
			got := mustToMarkdown(t, doc)
			if got != tc.md+"\n" {
				t.Fatalf("written back\n%s\nwant\n%s", got, tc.md)
			}
		})
	}
}

// TestImageAltAndCaption checks where an image's text goes: its alt text
// in the image's data as "alt", a figure's <figcaption> in its "caption"
// fragment, as the published schema has them.
func TestImageAltAndCaption(t *testing.T) {
	doc := mustFromMarkdown(t, `<figure><img src="a.png" alt="A diagram"><figcaption><p>The <em>flow</em></p></figcaption></figure>`)
	img := doc.Nodes[0].Nodes[0]
	if img.Type != TypeImage || img.Data["alt"] != "A diagram" {
		t.Fatalf("image %s data %v", img.Type, img.Data)
	}
	if _, ok := img.Data["caption"]; ok {
		t.Fatalf("caption in data: %v", img.Data)
	}
	if len(img.Fragments) != 1 || img.Fragments[0].Fragment != "caption" || strings.TrimSpace(New(img.Fragments[0].Nodes...).PlainText()) != "The flow" {
		t.Fatalf("caption fragments %+v", img.Fragments)
	}
	md := mustFromMarkdown(t, `![Only alt](a.png)`).Nodes[0].Nodes[0]
	if md.Data["alt"] != "Only alt" || len(md.Fragments) != 0 {
		t.Fatalf("markdown image data %v fragments %v", md.Data, md.Fragments)
	}
}

func TestGitBookInlineImageConverted(t *testing.T) {
	src := `Some <img src="a.svg" alt="logo" data-size="line"> text`
	doc := mustFromMarkdown(t, src)
	if n := doc.Nodes[0].Nodes[1]; n.Type != InlineImage || n.Data["alt"] != "logo" {
		t.Fatalf("inline %s %v", n.Type, n.Data)
	}
	if got := mustToMarkdown(t, doc); got != src+"\n" {
		t.Fatalf("written back %q", got)
	}
}
