package document

import "testing"

// TestDefinitionListKeptAsWritten checks that definition lists at the top
// of a page are kept as written, so that export gives the same source.
func TestDefinitionListKeptAsWritten(t *testing.T) {
	cases := []struct{ in, raw string }{
		{"Intro\n\nTerm\n: definition\n\nNext\n", "Term\n: definition"},
		{"Term one\nTerm two\n: first *def*\n: second\n\nOther\n: more text\n  lazy\n\n## Heading\n",
			"Term one\nTerm two\n: first *def*\n: second\n\nOther\n: more text\n  lazy"},
	}
	for _, tc := range cases {
		doc := mustFromMarkdown(t, tc.in)
		found := false
		for _, n := range doc.Nodes {
			if n.Type == TypeRaw && n.Data["markdown"] == tc.raw {
				found = true
			}
		}
		if !found {
			t.Fatalf("%q: no raw block holding %q in %s", tc.in, tc.raw, canonicalJSON(t, doc))
		}
		if got := mustToMarkdown(t, doc); got != tc.in {
			t.Fatalf("round trip changed the source:\n%q\nwant\n%q", got, tc.in)
		}
	}
}
