package gitbook

import (
	"strconv"
	"strings"
)

// maxDepth bounds how deep the table of contents may nest pages. GitBook's
// own spaces rarely go past four levels.
const maxDepth = 32

// entryKind tells what a table-of-contents entry is.
type entryKind int

const (
	entryLink     entryKind = iota // a list item with a Markdown link
	entryGroup                     // a "##" heading
	entryComputed                  // a list item holding a fenced yaml block
	entryText                      // a list item with neither
)

// tocEntry is one entry of SUMMARY.md as written.
type tocEntry struct {
	kind     entryKind
	line     int    // 1-based line number
	title    string // link text or heading text, unescaped
	target   string // link destination, unescaped
	anchorID string // id of the <a> anchor of a group heading
	yaml     string // body of a computed entry's fenced block
	children []*tocEntry
}

// listLevel is an open list item while parsing and the column of its
// marker.
type listLevel struct {
	marker int
	entry  *tocEntry
}

// parseSummary reads the entries of SUMMARY.md: "##" headings start
// groups, list items nest by indentation. Lines of other kinds are
// skipped. Nesting deeper than maxDepth is an error.
func parseSummary(src, name string) ([]*tocEntry, []string, error) {
	var top []*tocEntry
	var group *tocEntry
	var stack []listLevel
	var warnings []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := expandTabs(strings.TrimRight(lines[i], "\r"))
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if strings.HasPrefix(trimmed, "#") && len(line)-len(strings.TrimLeft(line, " ")) <= 3 {
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			if level == 1 {
				continue // the table's own title
			}
			text, id, ok := headingParts(line, level)
			if !ok {
				continue
			}
			group = &tocEntry{kind: entryGroup, line: i + 1, title: text, anchorID: id}
			top = append(top, group)
			stack = stack[:0]
			continue
		}
		markerCol, contentCol, content, ok := listItem(line)
		if !ok {
			continue
		}
		// An item whose marker is indented past the open item's marker,
		// by any amount, is its child.
		for len(stack) > 0 && stack[len(stack)-1].marker >= markerCol {
			stack = stack[:len(stack)-1]
		}
		if len(stack) >= maxDepth {
			return nil, warnings, fileErr(name, "line %d: the table of contents nests more than %d levels", i+1, maxDepth)
		}
		e := &tocEntry{line: i + 1}
		switch {
		case strings.HasPrefix(content, "```") || strings.HasPrefix(content, "~~~"):
			e.kind = entryComputed
			fence := content[:3]
			var body []string
			for i+1 < len(lines) {
				i++
				l := expandTabs(strings.TrimRight(lines[i], "\r"))
				if strings.HasPrefix(strings.TrimSpace(l), fence) {
					break
				}
				body = append(body, trimIndent(l, contentCol))
			}
			e.yaml = strings.Join(body, "\n")
		case strings.HasPrefix(content, "["):
			text, dest, rest, ok := parseLink(content)
			if ok {
				e.kind, e.title, e.target = entryLink, text, dest
				if strings.TrimSpace(rest) != "" {
					warnings = append(warnings, name+":"+strconv.Itoa(i+1)+": text after the link ignored")
				}
				break
			}
			e.kind, e.title = entryText, unescapeText(content)
		default:
			e.kind, e.title = entryText, unescapeText(content)
		}
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].entry
			parent.children = append(parent.children, e)
		case group != nil:
			group.children = append(group.children, e)
		default:
			top = append(top, e)
		}
		stack = append(stack, listLevel{marker: markerCol, entry: e})
	}
	return top, warnings, nil
}

// listItem recognises a bullet ("*", "-", "+") or ordered ("1.", "1)")
// list item line and returns the columns of its marker and content, and
// the content.
func listItem(line string) (markerCol, contentCol int, content string, ok bool) {
	markerCol = len(line) - len(strings.TrimLeft(line, " "))
	s := line[markerCol:]
	n := 0
	switch {
	case s == "":
		return 0, 0, "", false
	case s[0] == '*' || s[0] == '-' || s[0] == '+':
		n = 1
	default:
		for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
			return 0, 0, "", false
		}
		n++
	}
	if n < len(s) && s[n] != ' ' {
		return 0, 0, "", false
	}
	rest := strings.TrimLeft(s[n:], " ")
	if rest == "" || isThematicBreak(s) {
		return 0, 0, "", false
	}
	contentCol = len(line) - len(rest)
	return markerCol, contentCol, strings.TrimRight(rest, " "), true
}

// isThematicBreak reports whether a line is "***", "---" or "* * *".
func isThematicBreak(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	return len(s) >= 3 && (strings.Trim(s, "*") == "" || strings.Trim(s, "-") == "")
}

// expandTabs replaces tabs in a line's indentation with spaces up to the
// next multiple of four.
func expandTabs(line string) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case ' ':
			b.WriteByte(' ')
			col++
		default:
			b.WriteString(line[i:])
			return b.String()
		}
	}
	return b.String()
}

// trimIndent removes up to n leading spaces.
func trimIndent(line string, n int) string {
	i := 0
	for i < n && i < len(line) && line[i] == ' ' {
		i++
	}
	return line[i:]
}

// parseLink reads a Markdown inline link "[text](dest "title")" at the
// start of s and returns its text and destination, unescaped, and what
// follows it.
func parseLink(s string) (text, dest, rest string, ok bool) {
	depth := 0
	end := -1
	for i := 0; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				end = i
			}
		}
	}
	if end < 0 || end+1 >= len(s) || s[end+1] != '(' {
		return "", "", "", false
	}
	text = unescapeText(strings.TrimSpace(s[1:end]))
	r := strings.TrimLeft(s[end+2:], " ")
	var raw string
	if strings.HasPrefix(r, "<") {
		close := -1
		for i := 1; i < len(r); i++ {
			if r[i] == '\\' {
				i++
				continue
			}
			if r[i] == '>' {
				close = i
				break
			}
		}
		if close < 0 {
			return "", "", "", false
		}
		raw, r = r[1:close], r[close+1:]
	} else {
		parens := 0
		i := 0
	scan:
		for ; i < len(r); i++ {
			switch r[i] {
			case '\\':
				i++
			case '(':
				parens++
			case ')':
				if parens == 0 {
					break scan
				}
				parens--
			case ' ':
				break scan
			}
		}
		if i > len(r) {
			i = len(r)
		}
		raw, r = r[:i], r[i:]
	}
	r = strings.TrimLeft(r, " ")
	// An optional title in quotes or parentheses.
	if r != "" && (r[0] == '"' || r[0] == '\'' || r[0] == '(') {
		closer := r[0]
		if closer == '(' {
			closer = ')'
		}
		j := 1
		for ; j < len(r); j++ {
			if r[j] == '\\' {
				j++
				continue
			}
			if r[j] == closer {
				break
			}
		}
		if j >= len(r) {
			return "", "", "", false
		}
		r = strings.TrimLeft(r[j+1:], " ")
	}
	if !strings.HasPrefix(r, ")") {
		return "", "", "", false
	}
	return text, unescapeText(raw), r[1:], true
}
