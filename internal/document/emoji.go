package document

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	zeroWidthJoiner   = 0x200D
	variationSelector = 0xFE0F
	keycapCombiner    = 0x20E3
)

// isEmojiBase reports whether r starts an emoji: pictographs, symbols and
// dingbats commonly rendered as emoji.
func isEmojiBase(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF:
		return r < 0x1F3FB || r > 0x1F3FF // skin tones only modify
	case r >= 0x2600 && r <= 0x27BF:
		return true
	case r >= 0x2B05 && r <= 0x2B07, r == 0x2B1B, r == 0x2B1C, r == 0x2B50, r == 0x2B55:
		return true
	case r == 0x231A, r == 0x231B, r == 0x2328, r == 0x23CF:
		return true
	case r >= 0x23E9 && r <= 0x23F3, r >= 0x23F8 && r <= 0x23FA:
		return true
	case r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	}
	return false
}

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

func isEmojiModifier(r rune) bool {
	return r == variationSelector || r == keycapCombiner || (r >= 0x1F3FB && r <= 0x1F3FF) ||
		(r >= 0xE0020 && r <= 0xE007F)
}

// EmojiLen returns the byte length of the emoji sequence (with its
// modifiers and joined parts) that starts s, or 0.
func EmojiLen(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	if !isEmojiBase(r) {
		return 0
	}
	i := n
	if isRegionalIndicator(r) {
		if r2, n2 := utf8.DecodeRuneInString(s[i:]); isRegionalIndicator(r2) {
			return i + n2
		}
		return i
	}
	for i < len(s) {
		r, n = utf8.DecodeRuneInString(s[i:])
		switch {
		case isEmojiModifier(r):
			i += n
		case r == zeroWidthJoiner:
			next, n2 := utf8.DecodeRuneInString(s[i+n:])
			if !isEmojiBase(next) {
				return i
			}
			i += n + n2
		default:
			return i
		}
	}
	return i
}

// EmojiCode returns the API code of an emoji: lower-case hex code points
// joined by "-". A U+FE0F variation selector is kept ("2764-fe0f"), so
// that the emoji is written back as it was read.
func EmojiCode(s string) string {
	var parts []string
	for _, r := range s {
		parts = append(parts, strconv.FormatInt(int64(r), 16))
	}
	return strings.Join(parts, "-")
}

// EmojiFromCode turns an API emoji code back into its characters; an
// invalid code gives "".
func EmojiFromCode(code string) string {
	var b strings.Builder
	for _, p := range strings.Split(code, "-") {
		v, err := strconv.ParseUint(p, 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return ""
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}
