package document

import (
	"slices"
	"strings"
	"unicode"
)

// normalizeRun prepares leaves for writing: marks in writing order,
// adjacent leaves with equal marks merged, empty leaves dropped, and
// whitespace-only leaves stripped of marks their predecessor lacks (so
// that no delimiter wraps only whitespace).
func normalizeRun(leaves []Leaf) []Leaf {
	out := make([]Leaf, 0, len(leaves))
	for _, l := range leaves {
		if l.Text == "" {
			continue
		}
		marks := uniqueMarks(l.Marks)
		if strings.TrimSpace(l.Text) == "" && !strings.Contains(l.Text, "\n") {
			var prev []Mark
			if len(out) > 0 {
				prev = out[len(out)-1].Marks
			}
			var kept []Mark
			for _, m := range marks {
				if hasMark(prev, m) && m.Type != MarkCode {
					kept = append(kept, m)
				}
			}
			marks = kept
		}
		if k := len(out); k > 0 && sameMarks(out[k-1].Marks, marks) {
			out[k-1].Text += l.Text
			continue
		}
		out = append(out, Leaf{Text: l.Text, Marks: marks})
	}
	return out
}

// uniqueMarks returns the marks without duplicate types, in writing order.
func uniqueMarks(marks []Mark) []Mark {
	var out []Mark
	for _, m := range marks {
		if isMarkType(m.Type) && !hasMarkType(out, m.Type) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Mark) int { return markRank(a.Type) - markRank(b.Type) })
	return out
}

// commonPrefix returns how many leading marks a and b share.
func commonPrefix(a, b []Mark) int {
	i := 0
	for i < len(a) && i < len(b) && a[i].Type == b[i].Type && equalData(a[i].Data, b[i].Data) {
		i++
	}
	return i
}

func splitSpace(s string, leading bool) (space, rest string) {
	if leading {
		t := strings.TrimLeft(s, " \t")
		return s[:len(s)-len(t)], t
	}
	t := strings.TrimRight(s, " \t")
	return s[len(t):], t
}

// writeRun writes consecutive leaves, opening and closing marks so that
// the result parses back to the same marks. next is the first character
// written after the run (0 at the end).
func (w *mdWriter) writeRun(b *strings.Builder, leaves []Leaf, next rune, ctx inlineCtx) {
	leaves = normalizeRun(leaves)
	var stack []Mark
	var closers []string
	held := ""
	for i, l := range leaves {
		want := l.Marks
		k := commonPrefix(stack, want)
		for j := len(stack) - 1; j >= k; j-- {
			b.WriteString(closers[j])
		}
		stack, closers = stack[:k], closers[:k]
		b.WriteString(escapeText(held, ctx))
		held = ""
		text := l.Text
		if k < len(want) {
			var lead string
			lead, text = splitSpace(text, true)
			b.WriteString(escapeText(lead, ctx))
		}
		closing := len(want) > 0 && (i+1 == len(leaves) || commonPrefix(want, leaves[i+1].Marks) < len(want))
		if closing {
			held, text = splitSpace(text, false)
		}
		for j := k; j < len(want); j++ {
			open, close := w.delimiters(b, leaves, i, j, text, next)
			b.WriteString(open)
			stack = append(stack, want[j])
			closers = append(closers, close)
		}
		if hasMarkType(want, MarkCode) {
			code := codeContent(text)
			if ctx == ctxTableCell {
				code = strings.ReplaceAll(code, "|", `\|`)
			}
			b.WriteString(code)
		} else {
			b.WriteString(escapeText(text, ctx))
		}
	}
	for j := len(stack) - 1; j >= 0; j-- {
		b.WriteString(closers[j])
	}
	b.WriteString(escapeText(held, ctx))
}

// delimiters chooses the opening and closing syntax of mark j of leaf i.
// Emphasis delimiters are used when CommonMark's flanking rules let them
// open and close where they stand; otherwise the HTML tag is used.
func (w *mdWriter) delimiters(b *strings.Builder, leaves []Leaf, i, j int, text string, next rune) (string, string) {
	m := leaves[i].Marks[j]
	switch m.Type {
	case MarkCode:
		fence := codeFence(text)
		return fence, fence
	case MarkKeyboard:
		return "<kbd>", "</kbd>"
	case MarkSuperscript:
		return "<sup>", "</sup>"
	case MarkSubscript:
		return "<sub>", "</sub>"
	case MarkColor:
		return colorOpenTag(m), "</mark>"
	}
	prev := lastRune(b.String())
	first := firstRune(text)
	if j+1 < len(leaves[i].Marks) {
		first = '*'
	}
	last, after := spanEnd(leaves, i, j, next)
	canStar := canOpenStar(prev, first) && canCloseStar(last, after)
	switch m.Type {
	case MarkBold:
		if canStar && prev != '*' {
			return "**", "**"
		}
		return "<strong>", "</strong>"
	case MarkItalic:
		if canOpenUnderscore(prev, first) && canCloseUnderscore(last, after) && prev != '_' {
			return "_", "_"
		}
		if canStar && prev != '*' {
			return "*", "*"
		}
		return "<em>", "</em>"
	case MarkStrikethrough:
		if canStar && prev != '~' {
			return "~~", "~~"
		}
		return "<s>", "</s>"
	}
	return "", ""
}

// spanEnd returns the last character inside the span of mark j opened at
// leaf i and the first character written after its closing delimiter.
func spanEnd(leaves []Leaf, i, j int, next rune) (last, after rune) {
	prefix := leaves[i].Marks[:j+1]
	e := i + 1
	for e < len(leaves) && commonPrefix(prefix, leaves[e].Marks) == j+1 {
		e++
	}
	end := leaves[e-1]
	content := strings.TrimRight(end.Text, " \t")
	last = lastRune(content)
	if len(end.Marks) > j+1 {
		last = '*' // a nested mark closes first
	}
	switch {
	case len(content) < len(end.Text):
		return last, ' '
	case e < len(leaves):
		nl := leaves[e]
		if commonPrefix(end.Marks, nl.Marks) < len(nl.Marks) {
			if strings.TrimLeft(nl.Text, " \t") != nl.Text {
				return last, ' '
			}
			return last, '*' // the next leaf opens a mark
		}
		return last, firstRune(nl.Text)
	}
	return last, next
}

func isSpaceRune(r rune) bool { return r == noRune || unicode.IsSpace(r) }

func isPunctRune(r rune) bool { return r != noRune && (unicode.IsPunct(r) || unicode.IsSymbol(r)) }

func leftFlanking(prev, next rune) bool {
	return !isSpaceRune(next) && (!isPunctRune(next) || isSpaceRune(prev) || isPunctRune(prev))
}

func rightFlanking(prev, next rune) bool {
	return !isSpaceRune(prev) && (!isPunctRune(prev) || isSpaceRune(next) || isPunctRune(next))
}

func canOpenStar(prev, first rune) bool { return leftFlanking(prev, first) }

func canCloseStar(last, after rune) bool { return rightFlanking(last, after) }

func canOpenUnderscore(prev, first rune) bool {
	return leftFlanking(prev, first) && (!rightFlanking(prev, first) || isPunctRune(prev))
}

func canCloseUnderscore(last, after rune) bool {
	return rightFlanking(last, after) && (!leftFlanking(last, after) || isPunctRune(after))
}

// codeFence returns a run of backticks longer than any inside s.
func codeFence(s string) string {
	longest, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			cur++
			longest = max(longest, cur)
		} else {
			cur = 0
		}
	}
	return strings.Repeat("`", longest+1)
}

// codeContent writes code span content, padded with a space on each side
// when it starts or ends with a backtick or a space.
func codeContent(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if s == "" {
		return s
	}
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		return " " + s + " "
	}
	return s
}

func colorOpenTag(m Mark) string {
	var style strings.Builder
	if c, _ := m.Data["text"].(string); c != "" && c != "default" {
		style.WriteString("color:" + c + ";")
	}
	if c, _ := m.Data["background"].(string); c != "" && c != "default" {
		style.WriteString("background-color:" + c + ";")
	}
	return `<mark style="` + escapeHTMLAttr(style.String()) + `">`
}
