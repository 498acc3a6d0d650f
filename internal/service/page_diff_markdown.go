package service

import (
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"

	"quire/internal/document"
)

// Kinds of line of a Markdown diff.
const (
	LineAdded   = "added"
	LineRemoved = "removed"
	LineSame    = "same"
)

// DiffLine is a line of a page's Markdown diff: its text, whether the
// new side added it, the old side had it alone, or both have it, and its
// numbers on each side (0 on the side that lacks it).
type DiffLine struct {
	Change   string
	Text     string
	Old, New int
}

// markdownDiffTimeout bounds the work of one Markdown diff; past it the
// diff is still right, only less minimal.
const markdownDiffTimeout = 200 * time.Millisecond

// MarkdownDiff returns a line diff of the page's Markdown (the GitBook
// dialect of document.ToMarkdown) from the old side to the new.
func (d *PageDiff) MarkdownDiff() ([]DiffLine, error) {
	var a, b string
	var err error
	if d.Old != nil && d.Old.Document != nil {
		if a, err = document.ToMarkdown(d.Old.Document); err != nil {
			return nil, err
		}
	}
	if d.New != nil && d.New.Document != nil {
		if b, err = document.ToMarkdown(d.New.Document); err != nil {
			return nil, err
		}
	}
	return LineDiff(a, b), nil
}

// LineDiff compares two texts line by line.
func LineDiff(a, b string) []DiffLine {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = markdownDiffTimeout
	ra, rb, lines := dmp.DiffLinesToRunes(withNewline(a), withNewline(b))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
	var out []DiffLine
	oldNo, newNo := 0, 0
	for _, df := range diffs {
		for _, line := range strings.SplitAfter(df.Text, "\n") {
			if line == "" {
				continue
			}
			l := DiffLine{Text: strings.TrimSuffix(line, "\n")}
			switch df.Type {
			case diffmatchpatch.DiffInsert:
				newNo++
				l.Change, l.New = LineAdded, newNo
			case diffmatchpatch.DiffDelete:
				oldNo++
				l.Change, l.Old = LineRemoved, oldNo
			default:
				oldNo++
				newNo++
				l.Change, l.Old, l.New = LineSame, oldNo, newNo
			}
			out = append(out, l)
		}
	}
	return out
}

// withNewline ends a non-empty text with a newline, so that its last
// line compares equal to the same line followed by others.
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
