package gitbook

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// GitBook writes front matter with js-yaml's dumper (line width 80, double
// quotes). The functions below pick the style and wrapping that dumper
// picks for a string, so that a string read from a GitBook export is
// written back with the same bytes.

// scalarLineWidth is the width a top-level mapping value is folded to:
// js-yaml's 80 columns less the two of the block's indentation.
const scalarLineWidth = 78

// scalarIndent is the indentation of a block scalar's lines under a
// top-level key.
const scalarIndent = 2

// writeStringValue renders s as the value of a top-level mapping key, in
// the style GitBook's exporter chooses: plain when it can be, double
// quoted when a character must be escaped or a plain scalar would read as
// something else, folded (">-") when a line is longer than the width,
// literal ("|") when it holds line breaks. The result starts right after
// "key:" (a space or nothing) and ends without a newline.
func writeStringValue(s string) string {
	if s == "" {
		return ` ""`
	}
	if jsDeprecatedBool(s) || base60.MatchString(s) {
		return ` "` + s + `"`
	}
	hasBreak := strings.Contains(s, "\n")
	foldable := false
	for _, line := range strings.Split(s, "\n") {
		if line != "" && line[0] != ' ' && utf16Width(line) > scalarLineWidth {
			foldable = true
		}
	}
	plain := plainSafeFirst(firstRune(s)) && plainSafeLast(lastRune(s))
	prev := rune(-1)
	for _, c := range s {
		if c != '\n' && !printable(c) {
			return " " + doubleQuoted(s)
		}
		plain = plain && plainSafe(c, prev)
		prev = c
	}
	if !hasBreak && !foldable {
		if plain && !ambiguousPlain(s) {
			return " " + s
		}
		return " " + doubleQuoted(s)
	}
	if foldable {
		return " >" + blockHeader(s) + dropEndingNewline(indentLines(foldString(s, scalarLineWidth), scalarIndent))
	}
	return " |" + blockHeader(s) + dropEndingNewline(indentLines(s, scalarIndent))
}

// utf16Width is the length of s in UTF-16 units, as JavaScript counts.
func utf16Width(s string) int {
	n := 0
	for _, c := range s {
		n += utf16Len(c)
	}
	return n
}

// utf16Len counts a character as JavaScript strings do.
func utf16Len(c rune) int {
	if c >= 0x10000 {
		return 2
	}
	return 1
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// printable is YAML's printable set less what the dumper escapes.
func printable(c rune) bool {
	return (c >= 0x20 && c <= 0x7e) ||
		(c >= 0xa1 && c <= 0xd7ff && c != 0x2028 && c != 0x2029) ||
		(c >= 0xe000 && c <= 0xfffd && c != 0xfeff) ||
		(c >= 0x10000 && c <= 0x10ffff)
}

func isWhite(c rune) bool { return c == ' ' || c == '\t' }

// nsCharOrWhite is a printable character other than a byte order mark or
// a line break.
func nsCharOrWhite(c rune) bool {
	return printable(c) && c != 0xfeff && c != '\r' && c != '\n'
}

// plainSafe reports whether c may follow prev inside a plain scalar of a
// block mapping value.
func plainSafe(c, prev rune) bool {
	cNs := nsCharOrWhite(c) && !isWhite(c)
	return (nsCharOrWhite(c) && c != '#' && !(prev == ':' && !cNs)) ||
		(prev >= 0 && nsCharOrWhite(prev) && !isWhite(prev) && c == '#') ||
		(prev == ':' && cNs)
}

// plainSafeFirst reports whether a plain scalar may start with c.
func plainSafeFirst(c rune) bool {
	return printable(c) && c != 0xfeff && !isWhite(c) && !strings.ContainsRune("-?:,[]{}#&*!|=>'\"%@`", c)
}

// plainSafeLast reports whether a plain scalar may end with c.
func plainSafeLast(c rune) bool { return !isWhite(c) && c != ':' }

// jsDeprecatedBool reports the YAML 1.1 booleans the dumper quotes.
func jsDeprecatedBool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return false
}

var (
	base60    = regexp.MustCompile(`^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$`)
	timestamp = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$`)
)

// ambiguousPlain reports whether s written plain would read as another
// type than a string: null, a boolean, a number, a timestamp or a merge
// key.
func ambiguousPlain(s string) bool {
	if s == "<<" || timestamp.MatchString(s) {
		return true
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("v: "+s), &n); err != nil {
		return true
	}
	if len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
		return true
	}
	v := n.Content[0].Content[1]
	return v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || v.Value != s
}

// doubleQuoted writes s in double quotes with the dumper's escapes.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case 0:
			b.WriteString(`\0`)
		case 7:
			b.WriteString(`\a`)
		case 8:
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case 0x0b:
			b.WriteString(`\v`)
		case 0x0c:
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case 0x1b:
			b.WriteString(`\e`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case 0x85:
			b.WriteString(`\N`)
		case 0xa0:
			b.WriteString(`\_`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case printable(c):
				b.WriteRune(c)
			case c <= 0xff:
				fmt.Fprintf(&b, `\x%02X`, c)
			default:
				fmt.Fprintf(&b, `\u%04X`, c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// blockHeader is a block scalar's indentation indicator (when s starts
// with a space or a line break) and chomping indicator, and the newline.
func blockHeader(s string) string {
	ind := ""
	if s[0] == ' ' || s[0] == '\n' {
		ind = "2"
	}
	clip := strings.HasSuffix(s, "\n")
	keep := clip && (strings.HasSuffix(s, "\n\n") || s == "\n")
	switch {
	case keep:
		return ind + "+\n"
	case clip:
		return ind + "\n"
	}
	return ind + "-\n"
}

// indentLines indents every non-empty line of s by n spaces.
func indentLines(s string, n int) string {
	ind := strings.Repeat(" ", n)
	var b strings.Builder
	for s != "" {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		s = s[len(line):]
		if line != "\n" {
			b.WriteString(ind)
		}
		b.WriteString(line)
	}
	return b.String()
}

func dropEndingNewline(s string) string { return strings.TrimSuffix(s, "\n") }

// foldString folds the lines of s at spaces so that each is at most width
// wide where it can be, keeping the line breaks of s as a folded scalar
// reads them.
func foldString(s string, width int) string {
	first, _, _ := strings.Cut(s, "\n")
	out := foldLine(first, width)
	if len(first) == len(s) {
		return out
	}
	rest := s[len(first):]
	prevMore := s[0] == '\n' || s[0] == ' '
	for rest != "" {
		// A run of line breaks, then a line.
		i := 0
		for i < len(rest) && rest[i] == '\n' {
			i++
		}
		prefix := rest[:i]
		rest = rest[i:]
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line = rest[:j]
		}
		rest = rest[len(line):]
		more := line != "" && line[0] == ' '
		out += prefix
		if !prevMore && !more && line != "" {
			out += "\n"
		}
		out += foldLine(line, width)
		prevMore = more
	}
	return out
}

// foldLine breaks one line at single spaces before a non-space, keeping
// each piece at most width wide where a break allows.
func foldLine(line string, width int) string {
	if line == "" || line[0] == ' ' {
		return line
	}
	u := []rune(line)
	// Positions count UTF-16 units as the dumper does.
	pos := make([]int, len(u)+1)
	for i, c := range u {
		pos[i+1] = pos[i] + utf16Len(c)
	}
	var b strings.Builder
	start, curr := 0, 0
	for i := 0; i+1 < len(u); i++ {
		if u[i] != ' ' || u[i+1] == ' ' {
			continue
		}
		next := i
		if pos[next]-pos[start] > width {
			end := next
			if curr > start {
				end = curr
			}
			b.WriteString("\n" + string(u[start:end]))
			start = end + 1
		}
		curr = next
	}
	b.WriteString("\n")
	if pos[len(u)]-pos[start] > width && curr > start {
		b.WriteString(string(u[start:curr]) + "\n" + string(u[curr+1:]))
	} else {
		b.WriteString(string(u[start:]))
	}
	return b.String()[1:]
}
