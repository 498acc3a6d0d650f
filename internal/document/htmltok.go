package document

import (
	"html"
	"strings"
)

// htmlToken is a tag or a run of text from a small HTML tokenizer that
// understands the fragments GitBook writes (figures, images, marks, …).
type htmlToken struct {
	text    string   // decoded text, for text tokens
	name    string   // lower-case tag name, for tags
	closing bool     // </name>
	attrs   []string // name, value pairs, values decoded
	src     string   // the tag or comment as written
	comment bool     // <!-- … -->
}

func (t htmlToken) isTag() bool { return t.name != "" }

func (t htmlToken) attr(key string) (string, bool) {
	for i := 0; i+1 < len(t.attrs); i += 2 {
		if t.attrs[i] == key {
			return t.attrs[i+1], true
		}
	}
	return "", false
}

func (t htmlToken) attrOr(key string) string {
	v, _ := t.attr(key)
	return v
}

// tokenizeHTML splits s into tags, comments and text. Text
// that does not form a tag is kept as text.
func tokenizeHTML(s string) []htmlToken {
	var out []htmlToken
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			out = append(out, htmlToken{text: html.UnescapeString(s), src: s})
			break
		}
		if lt > 0 {
			out = append(out, htmlToken{text: html.UnescapeString(s[:lt]), src: s[:lt]})
			s = s[lt:]
		}
		if strings.HasPrefix(s, "<!--") {
			end := strings.Index(s, "-->")
			if end < 0 {
				break
			}
			out = append(out, htmlToken{comment: true, src: s[:end+3]})
			s = s[end+3:]
			continue
		}
		tok, size := parseHTMLTag(s)
		if size == 0 {
			out = append(out, htmlToken{text: "<", src: "<"})
			s = s[1:]
			continue
		}
		tok.src = s[:size]
		out = append(out, tok)
		s = s[size:]
	}
	return out
}

// parseHTMLTag parses the tag at the start of s ("<…>") and returns it
// with its length, or a zero length when s does not start with a tag.
func parseHTMLTag(s string) (htmlToken, int) {
	var t htmlToken
	i := 1
	if i < len(s) && s[i] == '/' {
		t.closing = true
		i++
	}
	start := i
	for i < len(s) && (isAlnum(s[i]) || s[i] == '-') {
		i++
	}
	if i == start || !isAlpha(s[start]) {
		return t, 0
	}
	t.name = strings.ToLower(s[start:i])
	for i < len(s) {
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return t, 0
		}
		if s[i] == '>' {
			return t, i + 1
		}
		if s[i] == '/' {
			i++
			continue
		}
		ks := i
		for i < len(s) && !isHTMLSpace(s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/' {
			i++
		}
		key := strings.ToLower(s[ks:i])
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
		val := ""
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isHTMLSpace(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				end := strings.IndexByte(s[i+1:], s[i])
				if end < 0 {
					return t, 0
				}
				val = s[i+1 : i+1+end]
				i += end + 2
			} else {
				vs := i
				for i < len(s) && !isHTMLSpace(s[i]) && s[i] != '>' {
					i++
				}
				val = s[vs:i]
			}
		}
		if key != "" {
			t.attrs = append(t.attrs, key, html.UnescapeString(val))
		} else {
			i++
		}
	}
	return t, 0
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// escapeHTMLAttr escapes an attribute value the way GitBook's exporter
// does, with hexadecimal character references.
func escapeHTMLAttr(s string) string {
	if !strings.ContainsAny(s, `&"<>`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&#x26;")
		case '"':
			b.WriteString("&#x22;")
		case '<':
			b.WriteString("&#x3C;")
		case '>':
			b.WriteString("&#x3E;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escapeHTMLText escapes text placed between HTML tags.
func escapeHTMLText(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&#x26;")
		case '<':
			b.WriteString("&#x3C;")
		case '>':
			b.WriteString("&#x3E;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
