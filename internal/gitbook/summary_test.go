package gitbook

import (
	"quire/internal/quire"
	"strings"
	"testing"
)

func TestSummaryDialects(t *testing.T) {
	files := Files{
		"SUMMARY.md": []byte("# Summary\n\n" +
			"- [Intro](README.md)\n" +
			"- [Setup](setup/README.md)\n" +
			"\t- [Linux](setup/linux.md)\n" +
			"\t\t- [Debian](setup/debian.md 'Debian and Ubuntu')\n" +
			"    - [Mac (Intel)](<setup/mac (intel).md>)\n" +
			"1. [Numbered](numbered.md) trailing words\n" +
			"* [Escaped \\[brackets\\]](escaped.md (title))\n" +
			"* [Encoded](my%20page.md)\n" +
			"\n***\n\n" +
			"### Third-level heading\n\n" +
			"+ [Plus](plus.md)\n"),
		"README.md":            []byte("# Intro\n"),
		"setup/README.md":      []byte("# Setup\n"),
		"setup/linux.md":       []byte("# Linux\n"),
		"setup/debian.md":      []byte("# Debian\n"),
		"setup/mac (intel).md": []byte("# Mac\n"),
		"numbered.md":          []byte("# N\n"),
		"escaped.md":           []byte("# E\n"),
		"my page.md":           []byte("# M\n"),
		"plus.md":              []byte("# P\n"),
	}
	sp := mustRead(t, files, pathIDs{})
	want := `document Intro /intro @README.md
document Setup /setup @setup/README.md
  document Linux /linux @setup/linux.md
    document Debian /debian @setup/debian.md
  document Mac (Intel) /mac-intel @setup/mac (intel).md
document Numbered /numbered @numbered.md
document Escaped [brackets] /escaped @escaped.md
document Encoded /my-page @my page.md
group Third-level heading /third-level-heading
  document Plus /plus @plus.md
`
	if got := outline(sp.Pages); got != want {
		t.Errorf("outline\n got:\n%s\nwant:\n%s", got, want)
	}
	if len(sp.Warnings) != 1 || !strings.Contains(sp.Warnings[0], "SUMMARY.md:8: text after the link ignored") {
		t.Errorf("warnings %q", sp.Warnings)
	}
	checkReadBack(t, files, sp)
}

func TestSummaryLinkedTwice(t *testing.T) {
	files := Files{
		"SUMMARY.md": []byte("* [Home](README.md)\n" +
			"* [Jump to setup](guide.md#setup)\n" +
			"* [Guide](guide.md)\n" +
			"* [Guide again](guide.md)\n" +
			"* [Only anchors](other.md#a)\n" +
			"* [Only anchors b](other.md#b)\n"),
		"README.md": []byte("# Home\n"),
		"guide.md":  []byte("# Guide\n"),
		"other.md":  []byte("# Other\n"),
	}
	sp := mustRead(t, files, pathIDs{})
	want := `document Home /home @README.md
link Jump to setup → page page:guide.md#setup
document Guide /guide @guide.md
link Guide again → page page:guide.md
document Only anchors /other @other.md
link Only anchors b → page page:other.md#b
`
	if got := outline(sp.Pages); got != want {
		t.Errorf("outline\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseLink(t *testing.T) {
	cases := []struct{ in, text, dest, rest string }{
		{"[a](b.md)", "a", "b.md", ""},
		{"[a](b.md \"T\") x", "a", "b.md", " x"},
		{"[a [b] c](d(e).md)", "a [b] c", "d(e).md", ""},
		{"[a](<b c.md>)", "a", "b c.md", ""},
		{"[a\\]](b\\).md)", "a]", "b).md", ""},
		{"[&amp; x](b.md)", "& x", "b.md", ""},
	}
	for _, tc := range cases {
		text, dest, rest, ok := parseLink(tc.in)
		if !ok || text != tc.text || dest != tc.dest || rest != tc.rest {
			t.Errorf("parseLink(%q) = %q, %q, %q, %v", tc.in, text, dest, rest, ok)
		}
	}
	for _, bad := range []string{"[a]", "[a](b", "[a](<b)", "[a](b \"t)", "[a", "[a] (b)"} {
		if _, _, _, ok := parseLink(bad); ok {
			t.Errorf("parseLink(%q) accepted", bad)
		}
	}
}

func TestSummaryLinkBeforeItsPage(t *testing.T) {
	guide := doc("guide", "Guide")
	sp := &Space{Pages: []*Page{
		doc("home", "Home"),
		{ID: "l", Kind: quire.PageLink, Title: "Guide first", Target: &quire.ContentRef{Kind: "page", Page: "guide"}},
		guide,
	}}
	files := mustWrite(t, sp)
	if s := string(files["SUMMARY.md"]); !strings.Contains(s, "* [Guide first](guide.md#)\n") {
		t.Errorf("summary:\n%s", s)
	}
	back := mustRead(t, files, pathIDs{})
	want := "document Home /home @README.md\nlink Guide first → page page:guide.md\ndocument Guide /guide @guide.md\n"
	if got := outline(back.Pages); got != want {
		t.Errorf("outline\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSummaryGroupsOfOneSlug(t *testing.T) {
	files := Files{
		"SUMMARY.md": []byte("* [Home](README.md)\n\n## Guides\n\n* [A](a.md)\n\n## Guides\n\n* [B](b.md)\n"),
		"README.md":  []byte("# Home\n"), "a.md": []byte("# A\n"), "b.md": []byte("# B\n"),
	}
	sp := mustRead(t, files, pathIDs{})
	if sp.Pages[1].ID != "page:guides/" || sp.Pages[2].ID != "page:guides/#1" || sp.Pages[2].Slug != "guides-1" {
		t.Errorf("groups: %+v %+v", sp.Pages[1], sp.Pages[2])
	}
}

// TestSummaryItemsWithoutLink checks that list items without a link keep
// their children under them, at every depth, and are written back as
// they were listed, without a file.
func TestSummaryItemsWithoutLink(t *testing.T) {
	summary := "# Table of contents\n\n* [Home](README.md)\n* Getting started\n  * [Install](getting-started/install.md)\n  * Advanced\n    * [Tuning](getting-started/advanced/tuning.md)\n\n## Reference\n\n* [Later](<>)\n  * [API](reference/later/api.md)\n"
	files := Files{"SUMMARY.md": []byte(summary), "README.md": []byte("# Home\n"),
		"getting-started/install.md":         []byte("# Install\n"),
		"getting-started/advanced/tuning.md": []byte("# Tuning\n"),
		"reference/later/api.md":             []byte("# API\n")}
	sp := mustRead(t, files, pathIDs{})
	want := "document Home /home @README.md\ndocument Getting started /getting-started\n  document Install /install @getting-started/install.md\n" +
		"  document Advanced /advanced\n    document Tuning /tuning @getting-started/advanced/tuning.md\n" +
		"group Reference /reference\n  document Later /later\n    document API /api @reference/later/api.md\n"
	if got := outline(sp.Pages); got != want {
		t.Fatalf("tree\n%s\nwant\n%s", got, want)
	}
	if len(sp.Warnings) > 0 {
		t.Errorf("warnings %q", sp.Warnings)
	}
	out := mustWrite(t, sp)
	for name, data := range files {
		if string(out[name]) != string(data) {
			t.Errorf("%s written\n%s\nwant\n%s", name, out[name], data)
		}
	}
	if len(out) != len(files) {
		t.Errorf("files written %q", paths(out))
	}
}
