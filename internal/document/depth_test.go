package document

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// nestedMarkdown returns Markdown shapes nested n levels deep.
func nestedMarkdown() map[string]func(n int) string {
	return map[string]func(n int) string{
		"list":  func(n int) string { return strings.Repeat("- ", n) + "x\n" },
		"quote": func(n int) string { return strings.Repeat("> ", n) + "x\n" },
		"hint": func(n int) string {
			return strings.Repeat("{% hint style=\"info\" %}\n", n) + "x\n" + strings.Repeat("{% endhint %}\n", n)
		},
		"details": func(n int) string {
			return strings.Repeat("<details>\n<summary>s</summary>\n\n", n) + "x\n" + strings.Repeat("\n</details>\n", n)
		},
		"tabs": func(n int) string {
			return strings.Repeat("{% tabs %}\n{% tab title=\"t\" %}\n", n) + "x\n" +
				strings.Repeat("{% endtab %}\n{% endtabs %}\n", n)
		},
	}
}

// nestedJSON returns a JSON document of blockquotes nested n deep.
func nestedJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"object":"document","data":{},"nodes":[`)
	for range n {
		b.WriteString(`{"object":"block","type":"blockquote","nodes":[`)
	}
	b.WriteString(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`)
	b.WriteString(strings.Repeat("]}", n))
	b.WriteString("]}")
	return b.String()
}

func depth(nodes []Node) int {
	d := 0
	for _, n := range nodes {
		d = max(d, 1+depth(n.Nodes), 1+depth(n.Fragments))
	}
	return d
}

func TestFromMarkdownRefusesDeepNesting(t *testing.T) {
	for name, shape := range nestedMarkdown() {
		for _, n := range []int{MaxDepth, 3000} {
			_, err := FromMarkdown(shape(n))
			if !errors.Is(err, ErrTooDeep) {
				t.Errorf("%s × %d: err = %v, want ErrTooDeep", name, n, err)
			}
		}
	}
}

func TestFromMarkdownKeepsNestingWithinLimit(t *testing.T) {
	for name, shape := range nestedMarkdown() {
		doc, err := FromMarkdown(shape(8))
		if err != nil {
			t.Fatalf("%s × 8: %v", name, err)
		}
		if d := depth(doc.Nodes); d < 9 || d > MaxDepth {
			t.Errorf("%s × 8: depth %d", name, d)
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Errorf("%s × 8: marshal: %v", name, err)
		}
	}
}

// A list nested as deeply as the limit allows converts, and one more
// level is refused.
func TestFromMarkdownDepthBoundary(t *testing.T) {
	ok := false
	for n := 1; n <= MaxDepth; n++ {
		doc, err := FromMarkdown(strings.Repeat("> ", n) + "x\n")
		if errors.Is(err, ErrTooDeep) {
			ok = true
			break
		}
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		if d := depth(doc.Nodes); d > MaxDepth {
			t.Fatalf("%d levels convert to depth %d", n, d)
		}
	}
	if !ok {
		t.Fatal("no quote nesting up to MaxDepth was refused")
	}
}

func TestParseRefusesDeepNesting(t *testing.T) {
	_, err := Parse([]byte(nestedJSON(3000)))
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrTooDeep) {
		t.Fatalf("err = %v, want a ParseError wrapping ErrTooDeep", err)
	}
	if !strings.HasPrefix(pe.Path, "nodes[0].nodes[0]") {
		t.Errorf("path = %q", pe.Path)
	}
	if _, err := Parse([]byte(nestedJSON(MaxDepth - 2))); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
	if _, err := Parse([]byte(nestedJSON(MaxDepth - 1))); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("text one level past the limit: %v", err)
	}
}

func TestConversionsStopWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := strings.Repeat("para\n\n", 5000)
	if _, err := FromMarkdown(src, WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Fatalf("FromMarkdown: err = %v, want context.Canceled", err)
	}
	doc, err := FromMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ToMarkdown(doc, WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Fatalf("ToMarkdown: err = %v, want context.Canceled", err)
	}
}

func TestLiquidTagEndsBeforeNextTag(t *testing.T) {
	if _, _, ok := parseLiquidTag([]byte(`{% a {% b %}`)); ok {
		t.Error(`"{% a {% b %}" parsed as one tag`)
	}
	if tag, size, ok := parseLiquidTag([]byte(`{% hint style="info" %}x`)); !ok || tag.name != "hint" || size != 23 {
		t.Errorf("hint: %v %d %v", tag, size, ok)
	}
}

// The tag index agrees with a scan from each opening tag.
func TestTagIndexMatchesScan(t *testing.T) {
	src := []byte("{% hint %}\n{% hint %}\n{% endhint %}\n{% embed url=\"a\" %}\n{% embed url=\"b\" %}\n{% endembed %}\n" +
		"{% tabs %}\n{% tab %}\n\\{% endtab %}\n{% endtab %}\n{% hint %}\n{% endtabs %}\n")
	x := indexTags(src)
	for off := range x.opens {
		i := strings.LastIndex(string(src[:off]), "{%")
		tag, _, _ := parseLiquidTag(src[i:])
		for _, stop := range []bool{false, true} {
			want := hasEndTag(src[off:], tag.name, stop)
			got := x.closed[off]
			if stop {
				got = x.endNext[off]
			}
			if got != want {
				t.Errorf("%q at %d, stopAtOpen %v: index %v, scan %v", tag.name, off, stop, got, want)
			}
		}
	}
}
