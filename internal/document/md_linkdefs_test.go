package document

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkDefinitionSources are paragraphs that start with link reference
// definitions, or look as if they did, in the shapes the CommonMark
// rules and goldmark's reading of them distinguish.
func linkDefinitionSources() []string {
	use := "\n\n[a] [b] [c] [Foo Bar] [x]\n"
	return []string{
		"[a]: /x" + use,
		"[a]: /x 'title'" + use,
		"[a]: /x \"title\"" + use,
		"[a]: /x (title)" + use,
		"[a]: </x y> \"t\"" + use,
		"[a]: <>" + use,
		"[a]:\n/x\n'title'" + use,
		"[a]: /x\n'multi\nline\ntitle'" + use,
		"[a]: /x\n\"title\" junk\n[b]: /y" + use,
		"[a]: /x \"title\" junk\n[b]: /y" + use,
		"[a]:\n/x\n\"title\" junk" + use,
		"[a]: /x\n(t (\n[b]: /y\nrest" + use,
		"[a]: /x\n(t (\n[b]: /y" + use,
		"[a]: /x \"unclosed\n[b]: /y" + use,
		"[a]: /x\n\"unclosed\n[b]: /y" + use,
		"[a]: /x\"t\"" + use,
		"[a]: <x>\"t\"" + use,
		"[a]: /x y" + use,
		"[a]: /(x(y))z" + use,
		"[a]: /x)y" + use,
		"[a]: /x\\ y" + use,
		"[a\\]b]: /x\n\n[a\\]b]\n",
		"[a[b]: /x" + use,
		"[]: /x" + use,
		"[ ]: /x" + use,
		"[Foo\n  bar]: /x" + use,
		"[FOO BAR]: /x\n[foo bar]: /y" + use,
		"[a]: /x\n[b]: /y\n[c]: /z\ntext after" + use,
		"text before\n[a]: /x" + use,
		"   [a]: /x\n    [b]: /y" + use,
		"[a]: /x\r\n[b]: /y 't'\r\n" + use,
		"[a]\n: /x" + use,
		"[a]:" + use,
		"[a]: /x\n[b]:" + use,
		"- [a]: /x\n  [b]: /y 't'" + use,
		"> [a]: /x\n> [b]:\n> /y\n> 't'" + use,
		">\t[a]:\t/x\t't'\n>\t't2'" + use,
		"-\t[a]: /x\n\t\"t\"" + use,
		"- a\n\n\t[a]: /x\n\t\"t\n\tu\"" + use,
		"[^1]: footnote\n[a]: /x" + use,
		"[a]: /x 't' \n[b]: /y" + use,
		"[a]: /x '\\'t'" + use,
		"[a]:/x" + use,
		"[a]: /x\n\n[b]: /y\n" + use,
		"| a |\n| - |\n[a]: /x" + use,
		"[a]: /x\n| a |\n| - |\n| b |" + use,
	}
}

// goldmarkWith returns goldmark's CommonMark converter with the given
// link definition transformer.
func goldmarkWith(links parser.ParagraphTransformer) goldmark.Markdown {
	return goldmark.New(goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(links, 100)),
	)))
}

// renderBoth renders src with goldmark's own link definitions and with
// ours.
func renderBoth(t *testing.T, src string) (theirs, ours string, defs *linkDefinitions) {
	t.Helper()
	defs = &linkDefinitions{state: newConvState(newOptions(nil))}
	var a, b bytes.Buffer
	if err := goldmarkWith(parser.LinkReferenceParagraphTransformer).Convert([]byte(src), &a); err != nil {
		t.Fatal(err)
	}
	if err := goldmarkWith(defs).Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String(), defs
}

func TestLinkDefinitionsMatchGoldmark(t *testing.T) {
	for _, src := range linkDefinitionSources() {
		theirs, ours, _ := renderBoth(t, src)
		if theirs != ours {
			t.Errorf("%q:\ngoldmark: %s\nours:     %s", src, theirs, ours)
		}
	}
}

func TestLinkDefinitionsKeepLinesBetweenDefinitions(t *testing.T) {
	// Two titles that fail on a nested "(" each leave a line between
	// definitions. goldmark's compaction of the paragraph then drops a
	// wrong line; ours keeps exactly the lines no definition took.
	for src, want := range map[string]string{
		"[a]: /x\n(t (\n[b]: /y\n(u (\n[c]: /z\n\n[a] [b] [c]\n": "<p>(t (\n(u (</p>\n",
		// A title followed by text ends its definition before the
		// destination's line, which stays.
		"[a]:\n/x\n\"t\" [b]: /y\n[c]: /z\n\n[a] [b] [c]\n": "<p>/x</p>\n",
	} {
		theirs, ours, defs := renderBoth(t, src)
		if !defs.reordered {
			t.Errorf("%q: not marked as reordered", src)
		}
		if theirs == ours || !strings.HasPrefix(ours, want) {
			t.Errorf("%q:\ngoldmark: %s\nours:     %s\nwant ours to start with %q", src, theirs, ours, want)
		}
		if !strings.Contains(ours, `<a href="/z">c</a>`) {
			t.Errorf("%q: c is not defined: %s", src, ours)
		}
	}
}

// FuzzLinkDefinitions checks that our link definitions read any input
// as goldmark's do.
func FuzzLinkDefinitions(f *testing.F) {
	for _, src := range linkDefinitionSources() {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if theirs, ours, defs := renderBoth(t, src); theirs != ours && !defs.reordered {
			t.Fatalf("%q:\ngoldmark: %s\nours:     %s", src, theirs, ours)
		}
	})
}

// definitionWork returns how many bytes the link definition reader
// examined to parse src.
func definitionWork(t *testing.T, src string) int {
	t.Helper()
	defs := &linkDefinitions{state: newConvState(newOptions(nil))}
	goldmarkWith(defs).Parser().Parse(text.NewReader([]byte(src)))
	if defs.state.err != nil {
		t.Fatalf("parse: %v", defs.state.err)
	}
	return defs.examined
}

func TestLinkDefinitionWorkIsLinear(t *testing.T) {
	shapes := map[string]func(i int) string{
		"definitions":        func(i int) string { return fmt.Sprintf("[a%d]: /x\n", i) },
		"titles":             func(i int) string { return fmt.Sprintf("[a%d]: /x\n'a\nb'\n", i) },
		"titles then text":   func(i int) string { return fmt.Sprintf("[a%d]: /x\n'a' ", i) },
		"unclosed titles":    func(i int) string { return fmt.Sprintf("[a%d]: /x\n(t (\n", i) },
		"labels over lines":  func(i int) string { return fmt.Sprintf("[a\n%d]:\n/x\n", i) },
		"quoted definitions": func(i int) string { return fmt.Sprintf("> [a%d]: </x> \"t\"\n", i) },
	}
	for name, unit := range shapes {
		var b strings.Builder
		for i := 0; b.Len() < 200_000; i++ {
			b.WriteString(unit(i))
		}
		// One unclosed title at the end makes the last definition read
		// to the end of the paragraph.
		src := b.String() + "[z]: /x\n'" + strings.Repeat("y\n", 1000)
		work := definitionWork(t, src)
		if work > 4*len(src) {
			t.Errorf("%s: %d bytes examined for %d of input, want at most 4 per byte", name, work, len(src))
		}
		if work < len(src)/2 {
			t.Errorf("%s: only %d bytes examined for %d of input: the definitions were not read", name, work, len(src))
		}
	}
}
