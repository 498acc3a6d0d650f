package document

import "testing"

// TestDetailsClosedOnContentLine checks that a <details> whose end tag
// shares a line with other content is kept as written, and the blocks
// after it stay at the top level.
func TestDetailsClosedOnContentLine(t *testing.T) {
	cases := []string{
		"<details><summary>Title</summary>\n\nbody</details>\n\nAfter\n\n## Heading\n",
		"<details>\n<summary>Title</summary><table><tr><td>x</td></tr></table></details>\n\nAfter\n\n## Heading\n",
		"<details><summary>Title</summary>text</details>\n\nAfter\n\n## Heading\n",
	}
	for _, in := range cases {
		doc := mustFromMarkdown(t, in)
		if n := len(doc.Nodes); n != 3 {
			t.Fatalf("%q: %d top-level blocks, want 3", in, n)
		}
		if doc.Nodes[0].Type != TypeRaw || doc.Nodes[1].Type != TypeParagraph || doc.Nodes[2].Type != TypeHeading2 {
			t.Fatalf("%q: blocks %s %s %s", in, doc.Nodes[0].Type, doc.Nodes[1].Type, doc.Nodes[2].Type)
		}
		if got := mustToMarkdown(t, doc); got != in {
			t.Fatalf("round trip changed the source:\n%q\nwant\n%q", got, in)
		}
	}
}
