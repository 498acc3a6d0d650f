package document

import (
	"bytes"
	"strings"
)

// liquidTag is a parsed {% name args %} tag.
type liquidTag struct {
	name  string
	args  string   // the raw text after the name
	attrs []string // key, value pairs of key="value" attributes, in order
}

func (t liquidTag) isEnd() bool { return len(t.name) > 3 && strings.HasPrefix(t.name, "end") }

// attr returns the value of the named attribute.
func (t liquidTag) attr(key string) (string, bool) {
	for i := 0; i+1 < len(t.attrs); i += 2 {
		if t.attrs[i] == key {
			return t.attrs[i+1], true
		}
	}
	return "", false
}

// quoted returns the first quoted argument, as in {% include "x.md" %}.
func (t liquidTag) quoted() string {
	s := strings.TrimSpace(t.args)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		if end := strings.IndexByte(s[1:], s[0]); end >= 0 {
			return s[1 : end+1]
		}
	}
	return s
}

// parseLiquidTag parses a tag at the start of b and returns it with its
// byte length.
func parseLiquidTag(b []byte) (liquidTag, int, bool) {
	var t liquidTag
	if !bytes.HasPrefix(b, []byte("{%")) {
		return t, 0, false
	}
	end := tagCloseIndex(b)
	if end < 0 {
		return t, 0, false
	}
	inner := string(bytes.TrimSpace(b[2:end]))
	inner = strings.TrimPrefix(inner, "-")
	inner = strings.TrimSuffix(inner, "-")
	inner = strings.TrimSpace(inner)
	i := 0
	for i < len(inner) && isTagNameChar(inner[i]) {
		i++
	}
	if i == 0 {
		return t, 0, false
	}
	t.name = inner[:i]
	t.args = strings.TrimSpace(inner[i:])
	t.attrs = parseAttrs(t.args)
	return t, end + 2, true
}

// tagCloseIndex returns the offset of the "%}" that closes the tag opened
// at the start of b, or -1 when a line end or another "{%" comes first.
// Stopping there keeps a scan over every "{%" of a text linear.
func tagCloseIndex(b []byte) int {
	for j := 2; j+1 < len(b); j++ {
		switch b[j] {
		case '\n':
			return -1
		case '%':
			if b[j+1] == '}' {
				return j
			}
		case '{':
			if b[j+1] == '%' {
				return -1
			}
		}
	}
	return -1
}

func isTagNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '@' || c == '/' || c == '.'
}

// parseAttrs reads key="value" pairs (single quotes and bare values are
// accepted too) and returns them as a flat list.
func parseAttrs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		start := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		key := s[start:i]
		if i >= len(s) || s[i] != '=' {
			if key == "" {
				i++
			}
			continue
		}
		i++
		var val string
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			q := s[i]
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				val = s[i+1:]
				i = len(s)
			} else {
				val = s[i+1 : i+1+end]
				i += end + 2
			}
		} else {
			vs := i
			for i < len(s) && s[i] != ' ' && s[i] != '\t' {
				i++
			}
			val = s[vs:i]
		}
		out = append(out, key, val)
	}
	return out
}
