package document

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileMarkdown are seeds nested past MaxDepth or shaped to make a
// parser rescan its input.
func hostileMarkdown() []string {
	return []string{
		strings.Repeat("- ", 200) + "x",
		strings.Repeat("> ", 200) + "x",
		strings.Repeat("1. ", 100) + "x",
		strings.Repeat("{% hint style=\"info\" %}\n", 100) + "x\n" + strings.Repeat("{% endhint %}\n", 100),
		strings.Repeat("{% tabs %}\n{% tab title=\"t\" %}\n", 40) + "x\n" + strings.Repeat("{% endtab %}\n{% endtabs %}\n", 40),
		strings.Repeat("<details>\n<summary>s</summary>\n\n", 80) + "x\n" + strings.Repeat("\n</details>\n", 80),
		strings.Repeat("> - ", 40) + "x",
		strings.Repeat("- ", 31) + "x",
		strings.Repeat("{% ", 50),
		strings.Repeat("{% hint %}", 20) + strings.Repeat("{% endhint %}", 20),
		strings.Repeat("- <div>\n", 20),
		strings.Repeat("$$x\n", 20),
		strings.Repeat("<table><tr><td>", 40) + "x",
		strings.Repeat("<ul><li>", 200) + "x",
		"<table>" + strings.Repeat("<tr><td><ul><li><p>x</p></li></ul></td></tr>", 200) + "</table>",
		"<pre><code>" + strings.Repeat("<strong>", 300) + "x\n" + strings.Repeat("</strong>", 300) + "</code></pre>",
		strings.Repeat("x[^1]", 300) + "\n\n[^1]: " + strings.Repeat("* y\n", 50),
		strings.Repeat("{% prompt %}\n", 100) + strings.Repeat("{% endprompt %}\n", 100),
	}
}

// FuzzFromMarkdown checks that any input converts without panicking, that
// the result is a document Parse accepts, and that its export converts
// again.
func FuzzFromMarkdown(f *testing.F) {
	for _, tc := range markdownCases() {
		f.Add(tc.md)
	}
	if page, err := os.ReadFile(filepath.Join("testdata", "page.md")); err == nil {
		f.Add(string(page))
	}
	for _, s := range []string{
		"{% hint %}", "{% endhint %}", "{% tabs %}\n{% tab %}\n", "<details>", "</details>",
		"$$", "$$\n", "<figure><img", "<div><div></div>", "* [ ]", "| a |\n| - |",
		"{% embed url=\"x\" %}\n{% embed url=\"y\" %}\n{% endembed %}", "\x00\xff",
		"> {% hint style=\"info\" %}\n> x\n> {% endhint %}", "<a href=\"#x\" id=\"x\">t",
		"<table data-view=\"cards\"><tr><th data-hidden data-card-target data-type=\"content-ref\"></th></tr><tr><td><a href=\"a.md\">a</a></td></tr></table>",
		"<pre><code><strong>a\n</strong></code></pre>", "a[^1]\n\n[^1]: b[^1]", "<!-- x", "{% updates %}\n{% update %}\n",
		"1. [ ] a", "[a](b \"t\")", "<p align=\"center\"><img src=\"a\"></p>",
	} {
		f.Add(s)
	}
	for _, s := range hostileMarkdown() {
		f.Add(s)
	}
	f.Add(strings.Repeat("[", MaxNodes+1))
	f.Add("|" + strings.Repeat(" a |", 500) + "\n|" + strings.Repeat(" - |", 500) + "\n" + strings.Repeat("| x |\n", 200))
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := FromMarkdown(src)
		if err != nil {
			if !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrTooManyNodes) {
				t.Fatalf("FromMarkdown fails other than by depth or size: %v", err)
			}
			return
		}
		if d := depth(doc.Nodes); d > MaxDepth {
			t.Fatalf("converted document is %d deep", d)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := Parse(b); err != nil {
			t.Fatalf("Parse rejects the converted document: %v", err)
		}
		md, err := ToMarkdown(doc)
		if err != nil {
			t.Fatalf("ToMarkdown: %v", err)
		}
		back, err := FromMarkdown(md)
		if err != nil {
			t.Fatalf("re-import of %q: %v", md, err)
		}
		ReuseKeys(doc, back)
		_ = doc.PlainText()
	})
}

// FuzzParse checks that Parse never panics and that what it accepts
// marshals, exports and hashes.
func FuzzParse(f *testing.F) {
	f.Add(`{"object":"document","data":{},"nodes":[]}`)
	f.Add(`{"object":"document","data":{"schemaVersion":1},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"bold"}]}]}]}]}`)
	f.Add(`{"object":"document","data":{},"nodes":[{"object":"block","type":"table","isVoid":true,"data":{"view":{"type":"grid","columns":["a"]},"records":{"r":{"orderIndex":"a","values":{"a":"f"}}},"definition":{"a":{"id":"a","title":"A","type":"text","textAlignment":"left"}}},"fragments":[{"object":"fragment","fragment":"f","nodes":[]}]}]}`)
	f.Add(`{"object":"document","data":{},"nodes":[{"object":"block","type":"hint","data":{"style":"info"},"nodes":[]}]}`)
	f.Add(`[1,2`)
	f.Add(nestedJSON(MaxDepth - 2))
	f.Add(nestedJSON(MaxDepth - 1))
	f.Add(nestedJSON(500))
	f.Add(strings.Repeat("[", 20000))
	for _, tc := range markdownCases()[:20] {
		if doc, err := FromMarkdown(tc.md); err == nil {
			if b, err := json.Marshal(doc); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := Parse([]byte(src))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error is not a ParseError: %v", err)
			}
			return
		}
		if d := depth(doc.Nodes); d > MaxDepth {
			t.Fatalf("accepted document is %d deep", d)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := Parse(b); err != nil {
			t.Fatalf("Parse rejects its own output %s: %v", b, err)
		}
		md, err := ToMarkdown(doc)
		if err != nil {
			t.Fatalf("ToMarkdown: %v", err)
		}
		if _, err := FromMarkdown(md); err != nil {
			t.Fatalf("export %q does not import: %v", md, err)
		}
		for _, n := range doc.Nodes {
			_ = BlockHash(n)
		}
		_ = doc.PlainText()
		ReuseKeys(doc, doc)
	})
}
