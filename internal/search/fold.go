package search

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// foldRune returns r lower-cased and without its accents (the combining
// marks of its canonical decomposition).
func foldRune(r rune) string {
	if r < 0x80 {
		return string(unicode.ToLower(r))
	}
	var b strings.Builder
	for _, d := range norm.NFD.String(string(r)) {
		if unicode.Is(unicode.Mn, d) {
			continue
		}
		b.WriteRune(unicode.ToLower(d))
	}
	return b.String()
}

// Fold returns s lower-cased and without accents.
func Fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		writeFolded(&b, r)
	}
	return b.String()
}

// writeFolded writes foldRune(r), without its allocation for ASCII.
func writeFolded(b *strings.Builder, r rune) {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteByte(byte(r))
		return
	}
	b.WriteString(foldRune(r))
}

// IsCJK reports whether r is a Chinese, Japanese or Korean character,
// which the index keeps as a word of its own.
func IsCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// IndexText returns what the index stores for s: s folded, with every
// CJK character standing apart as a word.
func IndexText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for _, r := range s {
		if IsCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteString(foldRune(r))
	}
	return b.String()
}

// isASCII reports whether s holds ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
