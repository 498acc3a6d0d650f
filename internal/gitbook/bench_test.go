package gitbook

import "testing"

// BenchmarkRead reads an exported repository of 1,000 pages.
func BenchmarkRead(b *testing.B) {
	files := mustWrite(b, genSpace(b, 1000))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		mustRead(b, files, pathIDs{})
	}
}

// BenchmarkWrite exports a space of 1,000 pages.
func BenchmarkWrite(b *testing.B) {
	sp := genSpace(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		mustWrite(b, sp)
	}
}

// TestLargeSpaceRoundTrip checks a repository of 1,000 pages reads back
// whole.
func TestLargeSpaceRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("large space")
	}
	orig := genSpace(t, 1000)
	files := mustWrite(t, orig)
	first := mustRead(t, files, pathIDs{})
	if len(first.Warnings) > 0 {
		t.Fatalf("warnings %q", first.Warnings[:1])
	}
	back := mustRead(t, files, idsFor(t, first, orig))
	compareTrees(t, back.Pages, orig.Pages, "")
}
