package gitbook

import (
	"html"
	"strings"

	"quire/internal/document"
)

// splitTitle takes the page title from the first line of a page body when
// that line is a level-1 ATX heading ("# Title"), and returns the body
// after it. Blank lines before the heading are skipped.
func splitTitle(body string) (title, rest string, found bool) {
	pos := 0
	for pos < len(body) {
		line, _, more := strings.Cut(body[pos:], "\n")
		if strings.TrimSpace(line) != "" {
			text, ok := headingText(line, 1)
			if !ok {
				return "", body, false
			}
			end := pos + len(line)
			if more {
				end++
			}
			return text, body[end:], true
		}
		if !more {
			break
		}
		pos += len(line) + 1
	}
	return "", body, false
}

// headingText returns the text of an ATX heading line of the given level:
// without the opening and closing "#" runs, without <a> anchors, with
// escapes and character references resolved.
func headingText(line string, level int) (string, bool) {
	text, _, ok := headingParts(line, level)
	return text, ok
}

// headingParts is headingText that also returns the id of an <a id="…">
// anchor in the heading.
func headingParts(line string, level int) (text, anchorID string, ok bool) {
	line = strings.TrimRight(line, " \t\r")
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent > 3 {
		return "", "", false
	}
	line = line[indent:]
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n != level || (n < len(line) && line[n] != ' ' && line[n] != '\t') {
		return "", "", false
	}
	s := strings.TrimSpace(line[n:])
	// A closing run of "#" preceded by a space is not part of the text.
	if t := strings.TrimRight(s, "#"); t != s && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		s = strings.TrimSpace(t)
	}
	s, anchorID = stripAnchors(s)
	return unescapeText(strings.TrimSpace(s)), anchorID, true
}

// stripAnchors removes unescaped <a …></a> elements (GitBook's heading
// anchors) from s and returns the id of the first one that has one.
func stripAnchors(s string) (string, string) {
	var b strings.Builder
	id := ""
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			b.WriteString(s[i : i+2])
			i += 2
			continue
		}
		if strings.HasPrefix(s[i:], "<a ") || strings.HasPrefix(s[i:], "<a>") {
			end := strings.Index(s[i:], "</a>")
			if end < 0 {
				// No closing tag follows: the rest is text.
				b.WriteString(s[i:])
				break
			}
			if id == "" {
				id = attrValue(s[i:i+end], "id")
			}
			i += end + len("</a>")
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String(), id
}

// attrValue returns the value of a quoted HTML attribute in a tag.
func attrValue(tag, name string) string {
	for i := 0; i < len(tag); i++ {
		j := strings.Index(tag[i:], name+"=")
		if j < 0 {
			return ""
		}
		i += j
		if i > 0 && tag[i-1] != ' ' && tag[i-1] != '\t' {
			continue
		}
		v := tag[i+len(name)+1:]
		if v == "" || (v[0] != '"' && v[0] != '\'') {
			return ""
		}
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return html.UnescapeString(v[1 : 1+end])
		}
		return ""
	}
	return ""
}

// unescapeText resolves Markdown backslash escapes and character
// references in one pass.
func unescapeText(s string) string {
	if !strings.ContainsAny(s, "\\&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i += 2
			continue
		}
		if c == '&' {
			if end := strings.IndexByte(s[i:], ';'); end > 1 && end < 40 {
				ref := s[i : i+end+1]
				if u := html.UnescapeString(ref); u != ref {
					b.WriteString(u)
					i += end + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// escapeText escapes what unescapeText, the heading and the link parsers
// would read as syntax: backslashes, brackets, backticks, "<", and "&"
// starting a character reference. Line breaks become spaces.
func escapeText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '[', ']', '`', '<':
			b.WriteByte('\\')
		case '&':
			if end := strings.IndexByte(s[i:], ';'); end > 1 && end < 40 && html.UnescapeString(s[i:i+end+1]) != s[i:i+end+1] {
				b.WriteByte('\\')
			}
		case '\n', '\r':
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeHeading escapes a title for a heading line: escapeText, and a
// final "#" that would read as a closing run.
func escapeHeading(s string) string {
	e := escapeText(s)
	if strings.HasSuffix(e, "#") {
		e = e[:len(e)-1] + `\#`
	}
	return e
}

// splitEmoji splits a leading emoji, followed by a space, off a title,
// and returns its code.
func splitEmoji(title string) (code, rest string) {
	n := document.EmojiLen(title)
	if n == 0 || n >= len(title) || title[n] != ' ' {
		return "", title
	}
	rest = strings.TrimSpace(title[n:])
	if rest == "" {
		return "", title
	}
	return document.EmojiCode(title[:n]), rest
}

// emojiFromFrontMatter accepts an emoji given as its code or as the
// character itself.
func emojiFromFrontMatter(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if n := document.EmojiLen(s); n > 0 && n == len(s) {
		return document.EmojiCode(s)
	}
	if document.EmojiFromCode(strings.ToLower(s)) != "" {
		return strings.ToLower(s)
	}
	return ""
}

// titleWithEmoji writes a title with the page's emoji in front.
func titleWithEmoji(title, code string) string {
	if e := document.EmojiFromCode(code); e != "" && document.EmojiLen(e) == len(e) {
		return e + " " + title
	}
	return title
}
