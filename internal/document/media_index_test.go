package document

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The line index answers as a scan from each opening does.
func TestMediaLineIndexMatchesScan(t *testing.T) {
	parts := []string{"<div>", "</div>", "<figure>", "</figure>", "x", " ", "\n", "\n\n", "- ", "> ", "<picture>", "</picture>"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		src := []byte(b.String())
		p := &htmlMediaParser{}
		for off := range src {
			if src[off] != '<' {
				continue
			}
			for _, name := range []string{"div", "figure", "picture"} {
				if got, want := p.balancedBeforeBlank(src, off, name), balancedBeforeBlank(src[off:], name); got != want {
					t.Fatalf("%q at %d, %s: index %v, scan %v", src, off, name, got, want)
				}
			}
		}
	}
}
