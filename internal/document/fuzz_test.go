package document

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

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
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := FromMarkdown(src)
		if err != nil {
			return
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
			t.Fatalf("re-import: %v", err)
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
			return
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if _, err := ToMarkdown(doc); err != nil {
			t.Fatalf("ToMarkdown: %v", err)
		}
		for _, n := range doc.Nodes {
			_ = BlockHash(n)
		}
		_ = doc.PlainText()
		ReuseKeys(doc, doc)
	})
}
