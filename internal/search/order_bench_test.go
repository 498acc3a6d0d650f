package search

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/quire"
)

// BenchmarkOrder orders as many sections as a search reads at most,
// each of about 60 words.
func BenchmarkOrder(b *testing.B) {
	var hits []*quire.SearchHit
	body := strings.Repeat("lorem ipsum dolor sit amet consectetur ", 10)
	for i := range 1000 {
		hits = append(hits, hit(fmt.Sprint("p", i/2), i%2, "Some page title", "Section title", body+" git sync"))
	}
	terms := ParseQuery("git sync")
	b.ResetTimer()
	for range b.N {
		Order(hits, terms)
	}
}
