package document

import (
	"strings"
	"testing"
)

// largeDocument returns a document of about n top-level blocks mixing
// the common block kinds.
func largeDocument(tb testing.TB, n int) *Document {
	tb.Helper()
	var unit []string
	for _, tc := range markdownCases() {
		unit = append(unit, tc.md)
	}
	doc := New()
	for len(doc.Nodes) < n {
		d, err := FromMarkdown(strings.Join(unit, "\n\n"))
		if err != nil {
			tb.Fatal(err)
		}
		doc.Nodes = append(doc.Nodes, d.Nodes...)
	}
	doc.Nodes = doc.Nodes[:n]
	return doc
}

func BenchmarkToMarkdown2000(b *testing.B) {
	doc := largeDocument(b, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ToMarkdown(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromMarkdown2000(b *testing.B) {
	md, err := ToMarkdown(largeDocument(b, 2000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := FromMarkdown(md); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLargeDocumentRoundTrip(t *testing.T) {
	doc := largeDocument(t, 2000)
	md := mustToMarkdown(t, doc)
	back := mustFromMarkdown(t, md)
	if again := mustToMarkdown(t, back); again != md {
		t.Fatalf("2,000-block export is not stable\n%s", diffLines(again, md))
	}
}
