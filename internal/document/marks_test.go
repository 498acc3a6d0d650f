package document

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDocumentRoundTripMarks builds paragraphs from random runs of text
// with random marks and checks that Document → Markdown → Document keeps
// them (hashes ignore how leaves are split).
func TestDocumentRoundTripMarks(t *testing.T) {
	words := []string{"alpha", "b", "(x)", `"q"`, "1.", "*", "_", "a_b", "x*y", "é", "[z]", "<t>", "~", "$$", "#", "`c`", "😀", "!"}
	markSets := [][]string{
		nil, {MarkBold}, {MarkItalic}, {MarkBold, MarkItalic}, {MarkStrikethrough},
		{MarkCode}, {MarkKeyboard}, {MarkBold, MarkCode}, {MarkItalic, MarkStrikethrough},
		{MarkSuperscript}, {MarkSubscript}, {MarkBold, MarkKeyboard},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 600; iter++ {
		var leaves []Leaf
		for n := 1 + rng.IntN(6); n > 0; n-- {
			var text strings.Builder
			for k := 1 + rng.IntN(3); k > 0; k-- {
				if text.Len() > 0 || rng.IntN(4) == 0 {
					text.WriteString(" ")
				}
				text.WriteString(words[rng.IntN(len(words))])
			}
			if rng.IntN(5) == 0 {
				text.WriteString(" ")
			}
			set := markSets[rng.IntN(len(markSets))]
			if hasMarkTypeStr(set, MarkCode) {
				// Code spans cannot hold emoji inlines or line edges.
				s := strings.TrimSpace(strings.ReplaceAll(text.String(), "😀", "e"))
				text.Reset()
				text.WriteString(s)
			}
			leaves = append(leaves, PlainLeaf(text.String(), set...))
		}
		// Leading and trailing spaces of a paragraph are not kept.
		leaves[0].Text = strings.TrimLeft(leaves[0].Text, " ")
		leaves[len(leaves)-1].Text = strings.TrimRight(leaves[len(leaves)-1].Text, " ")
		para := Block(TypeParagraph, nil, Text(leaves...))
		doc := New(para)
		md := mustToMarkdown(t, doc)
		back := mustFromMarkdown(t, md)
		if len(back.Nodes) != 1 {
			t.Fatalf("iteration %d: %d blocks from %q", iter, len(back.Nodes), md)
		}
		want := expectedLeaves(leaves)
		got := flattenLeaves(back.Nodes[0].Nodes)
		if !equalLeafRuns(got, want) {
			t.Fatalf("iteration %d: marks changed\nmarkdown: %q\n got: %v\nwant: %v", iter, md, got, want)
		}
	}
}

func hasMarkTypeStr(set []string, typ string) bool {
	for _, s := range set {
		if s == typ {
			return true
		}
	}
	return false
}

// flattenLeaves returns the leaves of text nodes with emoji inlines turned
// back into text, so that they compare with the source leaves.
func flattenLeaves(nodes []Node) []Leaf {
	var out []Leaf
	for _, n := range nodes {
		switch {
		case n.Object == ObjectText:
			out = append(out, n.Leaves...)
		case n.Type == InlineEmoji:
			code, _ := n.Data["code"].(string)
			out = append(out, Leaf{Text: EmojiFromCode(code), Marks: []Mark{{Type: "emoji"}}})
		}
	}
	return out
}

// expectedLeaves applies the writer's documented normalizations: marks on
// whitespace next to an unmarked boundary are dropped, and emoji are
// inlines without marks.
func expectedLeaves(leaves []Leaf) []Leaf {
	var out []Leaf
	for _, l := range normalizeRun(leaves) {
		out = append(out, splitEmoji(l)...)
	}
	return out
}

func splitEmoji(l Leaf) []Leaf {
	if hasMarkType(l.Marks, MarkCode) || !strings.Contains(l.Text, "😀") {
		return []Leaf{l}
	}
	var out []Leaf
	parts := strings.Split(l.Text, "😀")
	for i, p := range parts {
		if i > 0 {
			out = append(out, Leaf{Text: "😀", Marks: []Mark{{Type: "emoji"}}})
		}
		out = append(out, Leaf{Text: p, Marks: l.Marks})
	}
	return out
}

// equalLeafRuns compares leaf sequences character by character: every
// non-space character must carry the same marks.
func equalLeafRuns(a, b []Leaf) bool {
	type ch struct {
		r     rune
		marks string
	}
	flat := func(ls []Leaf) []ch {
		var out []ch
		for _, l := range ls {
			var names []string
			for _, m := range uniqueMarks(l.Marks) {
				names = append(names, m.Type)
			}
			if len(l.Marks) > 0 && l.Marks[0].Type == "emoji" {
				names = []string{"emoji"}
			}
			key := strings.Join(names, ",")
			for _, r := range l.Text {
				if r == ' ' {
					key2 := ""
					out = append(out, ch{r, key2})
					continue
				}
				out = append(out, ch{r, key})
			}
		}
		return out
	}
	fa, fb := flat(a), flat(b)
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] != fb[i] {
			return false
		}
	}
	return true
}
