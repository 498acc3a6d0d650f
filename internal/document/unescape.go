package document

import (
	"html"
	"strings"
)

// unescapeMarkdown resolves backslash escapes and character references of
// Markdown text in one pass.
func unescapeMarkdown(b []byte) string {
	if !containsByte(b, '\\') && !containsByte(b, '&') {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c == '\\' && i+1 < len(b) && isASCIIPunct(b[i+1]) {
			sb.WriteByte(b[i+1])
			i += 2
			continue
		}
		if c == '&' {
			if n := entityLen(b[i:]); n > 0 {
				sb.WriteString(html.UnescapeString(string(b[i : i+n])))
				i += n
				continue
			}
		}
		sb.WriteByte(c)
		i++
	}
	return sb.String()
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// entityLen returns the length of the character reference starting b
// ("&amp;", "&#38;", "&#x26;"), or 0.
func entityLen(b []byte) int {
	if len(b) < 3 || b[0] != '&' {
		return 0
	}
	i := 1
	switch {
	case b[1] == '#' && len(b) > 2 && (b[2] == 'x' || b[2] == 'X'):
		i = 3
		for i < len(b) && i < 9 && isHexDigit(b[i]) {
			i++
		}
		if i == 3 {
			return 0
		}
	case b[1] == '#':
		i = 2
		for i < len(b) && i < 9 && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == 2 {
			return 0
		}
	default:
		for i < len(b) && i < 33 && isAlnum(b[i]) {
			i++
		}
		if i == 1 {
			return 0
		}
	}
	if i < len(b) && b[i] == ';' {
		return i + 1
	}
	return 0
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
