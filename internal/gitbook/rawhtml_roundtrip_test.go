package gitbook

import (
	"strings"
	"testing"

	"quire/internal/document"
)

// TestRawConstructsRoundTrip checks that definition lists, a <details>
// closed on a line of content and raw HTML links to pages are written
// back as read, and that the links' targets name pages of the space
// through TargetPath and Paths.
func TestRawConstructsRoundTrip(t *testing.T) {
	guide := "# Setup\n\n" +
		"Term\n: The definition.\n\nOther term\nSecond term\n: One.\n: Two.\n\n" +
		"<details><summary>More</summary>\n\nHidden text.</details>\n\n" +
		"After the details.\n\n" +
		"<div><a href=\"../README.md#intro\">Home</a> <a href=\"linux.md\">Linux</a></div>\n"
	files := Files{
		"SUMMARY.md":      []byte("# Summary\n\n* [Intro](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n"),
		"README.md":       []byte("# Intro\n"),
		"setup/README.md": []byte(guide),
		"setup/linux.md":  []byte("# Linux\n"),
	}
	sp := mustRead(t, files, pathIDs{})
	out := mustWrite(t, sp)
	if got := string(out["setup/README.md"]); got != guide {
		t.Fatalf("setup/README.md changed\n%s\n--- got:\n%s", firstDiff(got, guide), got)
	}
	paths, err := Paths(sp)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for id, p := range paths {
		byPath[p] = id
	}
	var page *Page
	var walk func(ps []*Page)
	walk = func(ps []*Page) {
		for _, p := range ps {
			if p.Path == "setup/README.md" {
				page = p
			}
			walk(p.Children)
		}
	}
	walk(sp.Pages)
	if page == nil || page.Document == nil {
		t.Fatal("setup/README.md is not read as a page")
	}
	var links []string
	for _, n := range page.Document.Nodes {
		if n.Type != document.TypeRaw {
			continue
		}
		src, _ := n.Data["markdown"].(string)
		for _, target := range []string{"../README.md#intro", "linux.md"} {
			if strings.Contains(src, `"`+target+`"`) {
				p, ok := TargetPath(page.Path, target)
				if !ok || byPath[p] == "" {
					t.Errorf("link %q of %s names no page (%q)", target, page.Path, p)
				}
				links = append(links, byPath[p])
			}
		}
	}
	if strings.Join(links, " ") != "page:README.md page:setup/linux.md" {
		t.Fatalf("links lead to %q", links)
	}
}
