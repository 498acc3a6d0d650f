package search

import (
	"unicode"

	"quire/internal/quire"
)

// maxTerms bounds the terms of one query: beyond it, words are dropped.
const maxTerms = 32

// minPrefix is the length from which a word that is not the query's
// last matches as a prefix.
const minPrefix = 3

// ParseQuery turns a user's query into required terms: each word (a run
// of letters and digits, folded) is a term matching as a prefix ("git"
// finds "GitHub"), except words shorter than minPrefix that are not the
// last (a prefix as short as "to" would match much of the index); each
// run of CJK characters is a phrase of its characters. Other characters
// only separate words, so no query syntax reaches the engine.
func ParseQuery(q string) []quire.SearchTerm {
	var (
		terms []quire.SearchTerm
		word  []rune
		cjk   []string
	)
	flushWord := func() {
		if len(word) > 0 {
			terms = append(terms, quire.SearchTerm{Words: []string{string(word)}, Prefix: len(word) >= minPrefix})
			word = word[:0]
		}
	}
	flushCJK := func() {
		if len(cjk) > 0 {
			terms = append(terms, quire.SearchTerm{Words: cjk})
			cjk = nil
		}
	}
	for _, r := range q {
		switch {
		case IsCJK(r):
			flushWord()
			cjk = append(cjk, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK()
			for _, f := range foldRune(r) {
				if unicode.IsLetter(f) || unicode.IsDigit(f) {
					word = append(word, f)
				}
			}
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	if n := len(terms); n > 0 && len(terms[n-1].Words) == 1 && !IsCJKWord(terms[n-1].Words[0]) {
		terms[n-1].Prefix = true
	}
	return terms
}

// IsCJKWord reports whether w is one CJK character.
func IsCJKWord(w string) bool {
	r := []rune(w)
	return len(r) == 1 && IsCJK(r[0])
}
