package content

import (
	"strings"
	"unicode"
)

// Slugify makes a URL path segment from a title: lower case, spaces and
// separators become "-", "&" becomes "and", dots are kept, other
// punctuation goes. Letters of any script are kept. An empty result is
// "untitled".
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.ReplaceAll(title, "&", " and ")) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '-' || r == '_' || r == '/':
			dash = true
		}
	}
	if b.Len() == 0 {
		return "untitled"
	}
	r := []rune(b.String())
	if len(r) > 100 {
		r = r[:100]
	}
	return strings.TrimRight(string(r), "-")
}
