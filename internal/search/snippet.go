package search

import (
	"strings"

	"quire/internal/quire"
)

// snippetRunes is about how many characters a snippet holds.
const snippetRunes = 200

// Fragment is a run of a text shown in a result: plain, or marked where
// it matched a term of the query. Fragments carry text only, so whoever
// shows them escapes the text and adds the mark themselves.
type Fragment struct {
	Text string `json:"text"`
	Mark bool   `json:"mark,omitempty"`
}

// Plain returns the text of fragments, without marks.
func Plain(fs []Fragment) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Text)
	}
	return b.String()
}

// Highlight returns the whole of s as fragments, the words matching a
// term marked; nil for an empty s.
func (m *Matcher) Highlight(s string) []Fragment {
	runes := []rune(s)
	return fragments(runes, m.spans(words(runes)), 0, len(runes))
}

// Snippet returns the part of body around the first word matching a
// term, about snippetRunes characters cut at word boundaries, with an
// ellipsis where text was left out, every matching word in it marked;
// the start of body when no word matches.
func (m *Matcher) Snippet(body string) []Fragment {
	runes := []rune(body)
	spans := m.spans(words(runes))
	hit := 0
	if len(spans) > 0 {
		hit = spans[0].from
	}
	from, to := cut(runes, hit)
	// Leave out the space at either end, and any match cut in two.
	for from < to && isSpace(runes[from]) {
		from++
	}
	for to > from && isSpace(runes[to-1]) {
		to--
	}
	var in []span
	for _, sp := range spans {
		if sp.from >= from && sp.to <= to {
			in = append(in, sp)
		}
	}
	out := fragments(runes, in, from, to)
	if from > 0 {
		out = append([]Fragment{{Text: "…"}}, out...)
	}
	if to < len(runes) {
		out = append(out, Fragment{Text: "…"})
	}
	return join(out)
}

// Snippet is Matcher.Snippet as plain text.
func Snippet(body string, terms []quire.SearchTerm) string {
	return Plain(NewMatcher(terms).Snippet(body))
}

// fragments splits runes [from, to) at the spans, which lie inside it
// in order.
func fragments(runes []rune, spans []span, from, to int) []Fragment {
	var out []Fragment
	at := from
	for _, sp := range spans {
		if sp.from > at {
			out = append(out, Fragment{Text: string(runes[at:sp.from])})
		}
		out = append(out, Fragment{Text: string(runes[sp.from:sp.to]), Mark: true})
		at = sp.to
	}
	if at < to {
		out = append(out, Fragment{Text: string(runes[at:to])})
	}
	return out
}

// join merges neighbouring plain fragments.
func join(fs []Fragment) []Fragment {
	var out []Fragment
	for _, f := range fs {
		if n := len(out); n > 0 && !f.Mark && !out[n-1].Mark {
			out[n-1].Text += f.Text
			continue
		}
		out = append(out, f)
	}
	return out
}

// isSpace reports whether r separates lines or words.
func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

// cut returns the runes [from, to) of about snippetRunes runes around
// rune hit, moved to word boundaries where one is near.
func cut(runes []rune, hit int) (int, int) {
	if len(runes) <= snippetRunes {
		return 0, len(runes)
	}
	from := max(0, hit-snippetRunes/4)
	to := min(len(runes), from+snippetRunes)
	from = max(0, to-snippetRunes)
	// Back off to a space so that words stay whole.
	if from > 0 {
		for i := from; i < hit && i < from+20; i++ {
			if isSpace(runes[i]) {
				from = i + 1
				break
			}
		}
	}
	if to < len(runes) {
		for i := to; i > hit && i > to-20; i-- {
			if isSpace(runes[i-1]) {
				to = i - 1
				break
			}
		}
	}
	return from, to
}
