package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/internal/quire"
)

// Matcher finds where the terms of a query match a text, comparing words
// folded as the index does: a term's word matches a word of the text
// that equals it, or begins with it for a prefix term, once a plural or
// verb ending is taken off the term (the engines stem words; this keeps
// close to them without a stemmer of its own: "daemons" finds "daemon",
// "syncing" finds "synced"). A phrase (a run of CJK characters) matches
// its words in a row.
type Matcher struct {
	terms []quire.SearchTerm
}

// NewMatcher returns a matcher of the terms of a query.
func NewMatcher(terms []quire.SearchTerm) *Matcher {
	return &Matcher{terms: terms}
}

// word is a word of a text: runes [from, to) of it, and its folded form.
type word struct {
	from, to int
	folded   string
}

// words splits runes into words: runs of letters and digits (with the
// accents that follow them), and each CJK character alone.
func words(runes []rune) []word {
	var out []word
	start := -1
	var f strings.Builder
	flush := func(end int) {
		if start >= 0 && f.Len() > 0 {
			out = append(out, word{from: start, to: end, folded: f.String()})
		}
		start = -1
		f.Reset()
	}
	for i, r := range runes {
		switch {
		case IsCJK(r):
			flush(i)
			out = append(out, word{from: i, to: i + 1, folded: string(r)})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (start >= 0 && unicode.Is(unicode.Mn, r)):
			if start < 0 {
				start = i
			}
			for _, c := range foldRune(r) {
				if unicode.IsLetter(c) || unicode.IsDigit(c) {
					f.WriteRune(c)
				}
			}
		default:
			flush(i)
		}
	}
	flush(len(runes))
	return out
}

// span is a match: runes [from, to) of a text, and the term it matched.
type span struct {
	from, to int
	term     int
}

// spans returns the matches of every term in the words of a text, in
// the order of the text, none overlapping another.
func (m *Matcher) spans(ws []word) []span {
	var out []span
	for i := 0; i < len(ws); i++ {
		for ti, t := range m.terms {
			if n := len(t.Words); n > 0 && i+n <= len(ws) && matchesAt(ws[i:i+n], t) {
				out = append(out, span{from: ws[i].from, to: ws[i+n-1].to, term: ti})
				i += n - 1
				break
			}
		}
	}
	return out
}

// matchesAt reports whether the words, as many as the term has, match
// it.
func matchesAt(ws []word, t quire.SearchTerm) bool {
	for j, w := range t.Words {
		last := j == len(t.Words)-1
		if !wordMatches(ws[j].folded, w, t.Prefix && last) {
			return false
		}
	}
	return true
}

// wordMatches reports whether a folded word of a text matches a word of
// a term.
func wordMatches(text, term string, prefix bool) bool {
	if IsCJKWord(term) {
		return text == term
	}
	if prefix {
		return strings.HasPrefix(text, term) || strings.HasPrefix(text, stem(term))
	}
	return text == term || stem(text) == stem(term)
}

// stem takes a plural or verb ending off a folded word, leaving at
// least three letters: "-ies" becomes "-y"; "-es" after s, x, z, ch or
// sh, "-s" (not "-ss"), "-ing" and "-ed" go.
func stem(w string) string {
	keep := func(suffix string) bool { return len(w)-len(suffix) >= 3 && strings.HasSuffix(w, suffix) }
	switch {
	case keep("ies"):
		return w[:len(w)-3] + "y"
	case keep("es") && (strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "zes") ||
		strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case keep("s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	case keep("ing"):
		return w[:len(w)-3]
	case keep("ed"):
		return w[:len(w)-2]
	}
	return w
}

// MatchesAll reports whether every term of the query matches somewhere
// in s. It runs over every section a search found, so it looks for each
// word in the folded text rather than splitting the text into words.
func (m *Matcher) MatchesAll(s string) bool {
	if len(m.terms) == 0 {
		return false
	}
	folded := Fold(s)
	var ws []word // split only for phrases
	for _, t := range m.terms {
		if len(t.Words) == 1 && !IsCJKWord(t.Words[0]) {
			if !hasWord(folded, t.Words[0], t.Prefix) {
				return false
			}
			continue
		}
		if ws == nil {
			ws = words([]rune(folded))
		}
		if !containsTerm(ws, t) {
			return false
		}
	}
	return true
}

// hasWord reports whether a word of the folded text matches a term's
// word (see wordMatches): one beginning with the word or its stem.
func hasWord(folded, term string, prefix bool) bool {
	for _, look := range []string{stem(term), term} {
		for at := 0; at < len(folded); {
			i := strings.Index(folded[at:], look)
			if i < 0 {
				break
			}
			i += at
			if r, _ := utf8.DecodeLastRuneInString(folded[:i]); i == 0 || !isWordRune(r) {
				end := i + len(look)
				for end < len(folded) {
					r, n := utf8.DecodeRuneInString(folded[end:])
					if !isWordRune(r) {
						break
					}
					end += n
				}
				if wordMatches(folded[i:end], term, prefix) {
					return true
				}
			}
			at = i + 1
		}
		if look == term {
			break
		}
	}
	return false
}

// isWordRune reports whether r continues a word of a folded text.
func isWordRune(r rune) bool {
	return !IsCJK(r) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// containsTerm reports whether the term matches somewhere in the words.
func containsTerm(ws []word, t quire.SearchTerm) bool {
	n := len(t.Words)
	if n == 0 {
		return false
	}
	for i := 0; i+n <= len(ws); i++ {
		if matchesAt(ws[i:i+n], t) {
			return true
		}
	}
	return false
}
