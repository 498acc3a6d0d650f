package importer

import (
	"regexp"
	"strings"
)

// linkFunc returns the new destination of a link or image whose
// destination is dest, as written; false leaves it as it is.
type linkFunc func(dest string, image bool) (string, bool)

// linkRewriter rewrites the destinations of Markdown links and images,
// reference definitions, HTML src and href attributes and GitBook file and
// content-ref blocks, outside fenced code blocks and code spans.
type linkRewriter struct {
	refDef *regexp.Regexp
	attr   *regexp.Regexp
	block  *regexp.Regexp
}

func newLinkRewriter() *linkRewriter {
	return &linkRewriter{
		refDef: regexp.MustCompile(`^( {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*)(<[^<>\n]*>|[^\s<]\S*)`),
		attr:   regexp.MustCompile(`(?i)(<(img|a|source)\b[^>]*?\s(?:src|href)\s*=\s*)("[^"]*"|'[^']*')`),
		block:  regexp.MustCompile(`(\{%\s*(?:file|content-ref)\s[^%]*?(?:src|url)\s*=\s*)("[^"]*")`),
	}
}

// rewrite returns src with every destination passed through fn.
func (lr *linkRewriter) rewrite(src string, fn linkFunc) string {
	var out strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(src, "\n") {
		body := strings.TrimLeft(line, " ")
		indented := len(line)-len(body) >= 4
		if fence != "" {
			if !indented && closesFence(body, fence) {
				fence = ""
			}
			out.WriteString(line)
			continue
		}
		if f := openingFence(body); f != "" && !indented {
			fence = f
			out.WriteString(line)
			continue
		}
		if m := lr.refDef.FindStringSubmatchIndex(line); m != nil {
			dest := line[m[4]:m[5]]
			angle := strings.HasPrefix(dest, "<")
			if angle {
				dest = dest[1 : len(dest)-1]
			}
			if nd, ok := fn(dest, isImageName(dest)); ok {
				line = line[:m[4]] + linkDest(nd) + line[m[5]:]
			}
		} else {
			line = rewriteInline(line, fn)
		}
		line = lr.attr.ReplaceAllStringFunc(line, func(s string) string {
			m := lr.attr.FindStringSubmatch(s)
			q := m[3]
			dest := q[1 : len(q)-1]
			tag := strings.ToLower(m[2])
			if nd, ok := fn(dest, tag != "a"); ok {
				return m[1] + q[:1] + strings.ReplaceAll(nd, q[:1], "%22") + q[:1]
			}
			return s
		})
		line = lr.block.ReplaceAllStringFunc(line, func(s string) string {
			m := lr.block.FindStringSubmatch(s)
			dest := m[2][1 : len(m[2])-1]
			if nd, ok := fn(dest, false); ok {
				return m[1] + `"` + strings.ReplaceAll(nd, `"`, "%22") + `"`
			}
			return s
		})
		out.WriteString(line)
	}
	return out.String()
}

// openingFence is the fence (three or more backticks or tildes) opening a
// fenced code block on line, or "".
func openingFence(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := len(line) - len(strings.TrimLeft(line, line[:1]))
	if n < 3 || (line[0] == '`' && strings.Contains(line[n:], "`")) {
		return ""
	}
	return line[:n]
}

// closesFence reports whether line closes the block opened by fence.
func closesFence(line, fence string) bool {
	rest := strings.TrimLeft(line, fence[:1])
	return len(line)-len(rest) >= len(fence) && strings.TrimSpace(rest) == ""
}

// rewriteInline rewrites the inline links and images of one line.
func rewriteInline(line string, fn linkFunc) string {
	var b strings.Builder
	var open []bool // for each '[' not yet closed: whether it opens an image
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			b.WriteString(line[i : i+2])
			i += 2
		case c == '`':
			n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
			end := closingTicks(line, i+n, n)
			if end < 0 {
				b.WriteString(line[i : i+n])
				i += n
			} else {
				b.WriteString(line[i:end])
				i = end
			}
		case c == '[':
			open = append(open, i > 0 && line[i-1] == '!')
			b.WriteByte(c)
			i++
		case c == ']' && len(open) > 0:
			image := open[len(open)-1]
			open = open[:len(open)-1]
			b.WriteByte(c)
			i++
			if i < len(line) && line[i] == '(' {
				start, end, dest := linkDestAt(line, i+1)
				if dest != "" {
					if nd, ok := fn(dest, image); ok {
						b.WriteString(line[i:start])
						b.WriteString(linkDest(nd))
						i = end
					}
				}
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// closingTicks is the end of the run of exactly n backticks closing a code
// span opened before from, or -1.
func closingTicks(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		m := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		if m == n {
			return i + m
		}
		i += m
	}
	return -1
}

// linkDestAt reads the destination of an inline link starting at i (just
// after the '('): its span [start, end) and its text without angle
// brackets; an empty text when there is none.
func linkDestAt(line string, i int) (start, end int, dest string) {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	start = i
	if i < len(line) && line[i] == '<' {
		j := strings.IndexAny(line[i+1:], "<>\n")
		if j < 0 || line[i+1+j] != '>' {
			return start, start, ""
		}
		return start, i + 2 + j, line[i+1 : i+1+j]
	}
	depth := 0
	j := i
loop:
	for j < len(line) {
		switch line[j] {
		case '\\':
			j += 2
			continue
		case ' ', '\t', '\n', '\r':
			break loop
		case '(':
			depth++
		case ')':
			if depth == 0 {
				break loop
			}
			depth--
		}
		j++
	}
	j = min(j, len(line))
	return start, j, line[start:j]
}
