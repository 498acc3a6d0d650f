package search

import (
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// snippetRunes is about how many characters a snippet holds.
const snippetRunes = 200

// Snippet returns the part of body around the first place a term
// matches (any of its words, compared folded; a word also matches the
// start of a longer word), cut at word boundaries where it can be; the
// start of body when no word is found.
func Snippet(body string, terms []quire.SearchTerm) string {
	runes := []rune(body)
	folded := make([]string, len(runes))
	for i, r := range runes {
		folded[i] = foldRune(r)
	}
	var flat strings.Builder
	starts := make([]int, 0, len(runes)) // byte offset in flat of each rune
	for _, f := range folded {
		starts = append(starts, flat.Len())
		flat.WriteString(f)
	}
	text := flat.String()
	at := -1
	for _, t := range terms {
		for _, w := range t.Words {
			if w == "" {
				continue
			}
			if i := strings.Index(text, w); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
	}
	hit := 0
	if at >= 0 {
		// The rune whose folded text holds byte at.
		for i, s := range starts {
			if s > at {
				break
			}
			hit = i
		}
	}
	return cut(runes, hit)
}

// cut returns about snippetRunes runes of text around rune hit, with an
// ellipsis where text was left out.
func cut(runes []rune, hit int) string {
	if len(runes) <= snippetRunes {
		return strings.TrimSpace(string(runes))
	}
	from := max(0, hit-snippetRunes/4)
	to := min(len(runes), from+snippetRunes)
	from = max(0, to-snippetRunes)
	// Back off to a space so that words stay whole.
	if from > 0 {
		for i := from; i < hit && i < from+20; i++ {
			if runes[i] == ' ' || runes[i] == '\n' {
				from = i + 1
				break
			}
		}
	}
	if to < len(runes) {
		for i := to; i > hit && i > to-20; i-- {
			if runes[i-1] == ' ' || runes[i-1] == '\n' {
				to = i - 1
				break
			}
		}
	}
	s := strings.TrimSpace(string(runes[from:to]))
	if from > 0 {
		s = "…" + s
	}
	if to < len(runes) {
		s += "…"
	}
	if !utf8.ValidString(s) {
		return ""
	}
	return s
}
