package document

import (
	"strings"
	"testing"
)

const tenBlocks = `# Title

First paragraph.

Second paragraph with **bold**.

* a
* b

{% hint style="info" %}
A hint.
{% endhint %}

` + "```go\nx := 1\n```" + `

> A quote.

Third paragraph.

***

Last paragraph.
`

func TestReuseKeysKeepsUntouchedBlocks(t *testing.T) {
	old := mustFromMarkdown(t, tenBlocks)
	if len(old.Nodes) != 10 {
		t.Fatalf("want 10 blocks, got %d", len(old.Nodes))
	}
	edited := strings.Replace(tenBlocks, "Third paragraph.", "Third paragraph, edited.", 1)
	upd := mustFromMarkdown(t, edited)
	ReuseKeys(old, upd)
	same := 0
	for i := range old.Nodes {
		if old.Nodes[i].Key == upd.Nodes[i].Key {
			same++
		}
		if i != 7 && old.Nodes[i].Key != upd.Nodes[i].Key {
			t.Errorf("block %d lost its key", i)
		}
	}
	if same < 9 {
		t.Fatalf("only %d of 10 keys kept", same)
	}
	// Nested keys of untouched blocks are kept too.
	if old.Nodes[3].Nodes[1].Key != upd.Nodes[3].Nodes[1].Key {
		t.Error("list item key not kept")
	}
	assertUniqueKeys(t, upd)
}

func TestReuseKeysInsertDeleteAndNested(t *testing.T) {
	old := mustFromMarkdown(t, tenBlocks)
	// Insert a block at the top, delete the quote and edit inside the hint.
	src := "New first paragraph.\n\n" + strings.Replace(strings.Replace(tenBlocks, "> A quote.\n\n", "", 1), "A hint.", "A changed hint.", 1)
	upd := mustFromMarkdown(t, src)
	ReuseKeys(old, upd)
	oldKeys := map[string]int{}
	for i, n := range old.Nodes {
		oldKeys[n.Key] = i
	}
	if _, ok := oldKeys[upd.Nodes[0].Key]; ok {
		t.Error("inserted block took an old key")
	}
	kept := 0
	for _, n := range upd.Nodes[1:] {
		if _, ok := oldKeys[n.Key]; ok {
			kept++
		}
	}
	if kept != 9 {
		t.Errorf("kept %d keys, want 9 (every old block but the quote)", kept)
	}
	// The edited hint keeps its key; its paragraph is paired too.
	var hint Node
	for _, n := range upd.Nodes {
		if n.Type == TypeHint {
			hint = n
		}
	}
	if hint.Key != old.Nodes[4].Key || hint.Nodes[0].Key != old.Nodes[4].Nodes[0].Key {
		t.Error("edited hint or its paragraph lost the key")
	}
	assertUniqueKeys(t, upd)
	ReuseKeys(nil, upd)
	ReuseKeys(old, nil)
}

func assertUniqueKeys(t *testing.T, doc *Document) {
	t.Helper()
	seen := map[string]bool{}
	for _, k := range collectKeys(doc.Nodes, nil) {
		if k == "" {
			t.Fatal("node without a key")
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
	}
}

func TestFreshKeysAreUnique(t *testing.T) {
	a := mustFromMarkdown(t, tenBlocks)
	b := mustFromMarkdown(t, tenBlocks)
	assertUniqueKeys(t, a)
	if a.Nodes[0].Key == b.Nodes[0].Key {
		t.Error("two imports gave the same key")
	}
}

func TestMatchSequencesLargeFallsBackToGreedy(t *testing.T) {
	n := 2100
	a := make([]string, n)
	b := make([]string, n)
	for i := range a {
		a[i] = "x" + itoaTest(i)
		b[i] = "y" + itoaTest(i)
	}
	b[0], b[n-1] = "z", "w"
	b[n/2] = a[n/3]
	got := matchSequences(a, b)
	if len(got) != 1 || got[0] != [2]int{n / 3, n / 2} {
		t.Fatalf("got %v", got)
	}
}

func TestBlockHash(t *testing.T) {
	a := Block(TypeParagraph, nil, Text(PlainLeaf("ab", MarkBold)))
	b := Block(TypeParagraph, nil, Text(PlainLeaf("a", MarkBold)), Text(PlainLeaf("b", MarkBold), PlainLeaf("")))
	b.Key = "other"
	if BlockHash(a) != BlockHash(b) {
		t.Error("hash depends on leaf splitting or keys")
	}
	c := Block(TypeParagraph, nil, Text(PlainLeaf("ab", MarkItalic)))
	if BlockHash(a) == BlockHash(c) {
		t.Error("hash ignores marks")
	}
	// Tables hash equal whatever their ids.
	t1 := mustFromMarkdown(t, "| A | B |\n| --- | --- |\n| 1 | 2 |").Nodes[0]
	t2 := renameTableIDs(t1)
	if BlockHash(t1) != BlockHash(t2) {
		t.Error("table hash depends on ids")
	}
}

// renameTableIDs gives a table other column, record and fragment ids.
func renameTableIDs(n Node) Node {
	md := canonicalJSONNode(n)
	md = strings.NewReplacer(`"c1"`, `"colX"`, `"c2"`, `"colY"`, `"r1"`, `"recZ"`, `"r1c1"`, `"f-1"`, `"r1c2"`, `"f-2"`).Replace(md)
	doc, err := Parse([]byte(`{"object":"document","data":{},"nodes":[` + md + `]}`))
	if err != nil {
		panic(err)
	}
	return doc.Nodes[0]
}

func canonicalJSONNode(n Node) string {
	b, err := n.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestPlainText(t *testing.T) {
	doc := mustFromMarkdown(t, "# Title\n\nHello **world** 👋\n\n* item\n\n| H |\n| --- |\n| cell |\n\n```\ncode line\n```\n\n![alt text](a.png)")
	got := doc.PlainText()
	for _, want := range []string{"Title", "Hello world 👋", "item", "H", "cell", "code line", "alt text"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain text lacks %q:\n%s", want, got)
		}
	}
	var nilDoc *Document
	if nilDoc.PlainText() != "" || nilDoc.Blocks() != nil {
		t.Error("nil document")
	}
}

// pathResolver maps page paths to ids for TestLinkResolver.
type pathResolver struct{}

func (pathResolver) RefForTarget(target string, use TargetUse) (Ref, bool) {
	if use == UseLink && strings.HasSuffix(target, ".md") {
		return Ref{Kind: RefPage, Page: "id:" + strings.TrimSuffix(target, ".md")}, true
	}
	return Ref{}, false
}

func (pathResolver) TargetForRef(r Ref, use TargetUse) (string, bool) {
	if r.Kind == RefPage {
		return strings.TrimPrefix(r.Page, "id:") + ".md", true
	}
	return "", false
}

func TestLinkResolver(t *testing.T) {
	src := "See [setup](setup.md) and [site](https://x.io).\n"
	doc := mustFromMarkdown(t, src, WithLinkResolver(pathResolver{}))
	link := doc.Nodes[0].Nodes[1]
	if r := link.Data["ref"].(Ref); r.Kind != RefPage || r.Page != "id:setup" {
		t.Fatalf("link ref %+v", r)
	}
	if r := doc.Nodes[0].Nodes[3].Data["ref"].(Ref); r.Kind != RefURL {
		t.Fatalf("url ref %+v", r)
	}
	if got := mustToMarkdown(t, doc, WithLinkResolver(pathResolver{})); got != src {
		t.Fatalf("got %q", got)
	}
	// Without a resolver a page ref is written as its id.
	if got := mustToMarkdown(t, doc); !strings.Contains(got, "(id:setup)") {
		t.Fatalf("got %q", got)
	}
}

func TestUnsupportedBlocksKeepText(t *testing.T) {
	doc := New(
		Block(TypeIntegration, map[string]any{"integration": "github", "block": "code", "props": map[string]any{}, "title": "Snippet"}),
		Block(TypeOpenAPIOp, map[string]any{"ref": Ref{Kind: RefOpenAPI, Spec: "pets"}, "path": "/pets", "method": "get"}),
	)
	got := mustToMarkdown(t, doc)
	if got != "Snippet\n\n{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n" {
		t.Fatalf("got %q", got)
	}
	if s, err := ToMarkdown(nil); s != "" || err != nil {
		t.Fatal("nil document")
	}
}
