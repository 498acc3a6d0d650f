package gitbook

import (
	"reflect"
	"strings"
	"testing"

	"quire/internal/quire"
)

func TestFrontMatterRoundTrip(t *testing.T) {
	texts := []string{"true", "2.0", "- x", ": y", "#z", "a: b", "line one\nline two", "'quoted'", "null", "", "  padded  "}
	sp := &Space{}
	for i, s := range texts {
		p := doc(string(rune('a'+i)), "Page "+string(rune('a'+i)))
		p.Description, p.Icon, p.Condition = strings.TrimSpace(s), s, s
		sp.Pages = append(sp.Pages, p)
	}
	back := mustRead(t, mustWrite(t, sp), pathIDs{})
	for i, p := range back.Pages {
		want := sp.Pages[i]
		if p.Description != want.Description || p.Icon != want.Icon || p.Condition != want.Condition {
			t.Errorf("%q read back as description %q, icon %q, if %q", texts[i], p.Description, p.Icon, p.Condition)
		}
	}
}

func TestFrontMatterLayout(t *testing.T) {
	src := "---\nlayout:\n  width: wide\n  cover:\n    visible: false\n    size: background\n    mask: radial\n" +
		"  title:\n    visible: false\n  tags:\n    visible: true\n  metadata:\n    visible: false\n---\n# T\n"
	sp := mustRead(t, Files{"README.md": []byte(src)}, pathIDs{})
	p := sp.Pages[0]
	want := quire.DefaultPageLayout()
	want.Width, want.Cover, want.Title, want.Metadata = "wide", false, false, false
	if p.Layout == nil || *p.Layout != want {
		t.Errorf("layout %+v", p.Layout)
	}
	wantExtra := map[string]any{"layout": map[string]any{
		"cover": map[string]any{"size": "background", "mask": "radial"},
		"tags":  map[string]any{"visible": true},
	}}
	if !reflect.DeepEqual(p.Extra, wantExtra) {
		t.Errorf("extra %v", p.Extra)
	}
	// The front matter read is written back as it was.
	if out, want := string(mustWrite(t, sp)["README.md"]), strings.Replace(src, "---\n#", "---\n\n#", 1); out != want {
		t.Errorf("written\n%s\nwant\n%s", out, want)
	}
	p.FrontMatter = ""
	out := string(mustWrite(t, sp)["README.md"])
	wantOut := "---\nlayout:\n  width: wide\n  cover:\n    mask: radial\n    size: background\n    visible: false\n" +
		"  title:\n    visible: false\n  metadata:\n    visible: false\n  tags:\n    visible: true\n---\n\n# T\n"
	if out != wantOut {
		t.Errorf("written\n%s\nwant\n%s", out, wantOut)
	}
}

func TestFrontMatterWithoutClosingLine(t *testing.T) {
	src := "---\ntitle: not closed\n\n# Heading\n"
	sp := mustRead(t, Files{"README.md": []byte(src)}, pathIDs{})
	if p := sp.Pages[0]; p.Description != "" || len(p.Document.Nodes) == 0 {
		t.Errorf("an unclosed front matter is body text: %+v", p)
	}
}

func TestDefaultLayoutIsNotWritten(t *testing.T) {
	p := doc("a", "A")
	l := quire.DefaultPageLayout()
	p.Layout = &l
	out := string(mustWrite(t, &Space{Pages: []*Page{p}})["README.md"])
	if out != "# A\n" {
		t.Errorf("written %q", out)
	}
}

func TestFrontMatterRewrittenWhenChanged(t *testing.T) {
	src := "---\ndescription:   'Old: text'\nname: kept\nicon: book\n---\n\n# T\n"
	sp := mustRead(t, Files{"README.md": []byte(src)}, pathIDs{})
	if got := string(mustWrite(t, sp)["README.md"]); got != src {
		t.Fatalf("unchanged page written\n%s\nwant\n%s", got, src)
	}
	p := sp.Pages[0]
	p.Description, p.Extra = "A new description that is long enough to be folded by the exporter at eighty columns.", nil
	want := "---\ndescription: >-\n  A new description that is long enough to be folded by the exporter at eighty\n  columns.\nicon: book\nname: kept\n---\n\n# T\n"
	if got := string(mustWrite(t, sp)["README.md"]); got != want {
		t.Fatalf("changed page written\n%s\nwant\n%s", got, want)
	}
}
