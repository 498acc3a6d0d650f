package service

import (
	"reflect"
	"testing"

	"quire/internal/document"
)

// TestEditKeepsParsedDocument checks that a block edit keeps the page's
// new document parsed, and that what it keeps is exactly what parsing
// the stored document gives: later reads and edits of the page start
// from it without parsing.
func TestEditKeepsParsedDocument(t *testing.T) {
	forEachStore(t, func(t *testing.T, f0 *mergeFixture) {
		f := newEditFixture(t, f0)
		ctx := t.Context()
		for i, md := range []string{
			"Edited with **marks**, `code` and a [link](https://example.com).\n\n" +
				"{% hint style=\"info\" %}\n### Heading in a hint\n\nText.\n{% endhint %}\n\n" +
				"| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc main() {}\n```\n\n$$\nx^2\n$$\n\n1. one\n2. two\n",
			"",
		} {
			key := f.blocks(t, f.crRef())[0].Key
			src, err := f.svc.PageBlocks(ctx, f.crRef(), f.page, key, 1)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := ReplaceBlocks(f.space, f.page, key, 1, src.Base, md, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.write(t, ch); err != nil {
				t.Fatal(err)
			}
			c, err := f.svc.Content(ctx, f.crRef())
			if err != nil {
				t.Fatal(err)
			}
			p, err := c.Page(ctx, f.page)
			if err != nil {
				t.Fatal(err)
			}
			kept, ok := f.svc.docs.get(p.Document)
			if !ok {
				t.Fatalf("edit %d: the new document is not kept parsed", i)
			}
			raw, err := c.Document(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := document.ParseStored(raw)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(kept, parsed) {
				t.Errorf("edit %d: the kept document differs from the stored one parsed:\n%#v\n%#v", i, kept, parsed)
			}
		}
	})
}

// TestParsedDocsBudget checks that the kept documents stay within their
// budget of stored bytes, the least recently used leaving first, and that
// a document larger than the budget is not kept.
func TestParsedDocsBudget(t *testing.T) {
	d := newParsedDocs(10)
	a, b, c := document.New(), document.New(), document.New()
	d.keep("a", a, 4)
	d.keep("b", b, 4)
	if _, ok := d.get("a"); !ok { // a is now the most recent
		t.Fatal("a is not kept")
	}
	d.keep("c", c, 4)
	if _, ok := d.get("b"); ok {
		t.Error("b, the least recently used, is still kept over the budget")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := d.get(k); !ok {
			t.Errorf("%s is not kept", k)
		}
	}
	d.keep("big", document.New(), 11)
	if _, ok := d.get("big"); ok || d.size != 8 {
		t.Errorf("a document over the budget: kept %v, size %d", ok, d.size)
	}
}
