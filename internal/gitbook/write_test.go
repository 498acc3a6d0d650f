package gitbook

import (
	"reflect"
	"strings"
	"testing"

	"quire/internal/quire"
)

func doc(id, title string, children ...*Page) *Page {
	return &Page{ID: id, Kind: quire.PageDocument, Title: title, Children: children}
}

func paths(files Files) []string {
	var out []string
	for _, k := range sortedKeys(files) {
		if k != configFile {
			out = append(out, k)
		}
	}
	return out
}

func TestWritePlacesPagesBySlug(t *testing.T) {
	sp := &Space{Pages: []*Page{
		doc("home", "Home"),
		doc("a", "Getting Started", doc("a1", "Install"), doc("a2", "Install")),
		{ID: "g", Kind: quire.PageGroup, Title: "Reference", Slug: "ref", Children: []*Page{
			doc("r1", "API", doc("r11", "Read me")),
			doc("r2", "readme"),
		}},
	}}
	files := mustWrite(t, sp)
	want := []string{
		"README.md", "SUMMARY.md",
		"getting-started/README.md", "getting-started/install-1.md", "getting-started/install.md",
		"ref/api/README.md", "ref/api/read-me.md", "ref/readme-1.md",
	}
	if got := paths(files); !reflect.DeepEqual(got, want) {
		t.Errorf("paths\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(string(files["SUMMARY.md"]), "## Reference <a href=\"#ref\" id=\"ref\"></a>\n") {
		t.Errorf("group anchor missing:\n%s", files["SUMMARY.md"])
	}
	back := mustRead(t, files, pathIDs{})
	if len(back.Warnings) > 0 || len(back.Unlisted) > 0 {
		t.Errorf("warnings %q, unlisted %q", back.Warnings, back.Unlisted)
	}
	if got := outline(back.Pages); !strings.Contains(got, "group Reference /ref\n") {
		t.Errorf("group slug not read back:\n%s", got)
	}
}

func TestWriteKeepsPathsThatStillFit(t *testing.T) {
	kept := doc("k", "Kept")
	kept.Slug, kept.Path = "old-name", "somewhere/old-name.md"
	renamed := doc("r", "Renamed")
	renamed.Slug, renamed.Path = "new-slug", "docs/old-slug.md"
	clash := doc("c", "Clash")
	clash.Slug, clash.Path = "old-name", "somewhere/old-name.md"
	landing := doc("h", "Home")
	landing.Path = "intro/start.md"
	sp := &Space{Pages: []*Page{landing, kept, renamed, clash}, Redirects: map[string]string{"x": "intro/start.md", "y": "docs/old-slug.md"}}
	files := mustWrite(t, sp)
	want := []string{"README.md", "SUMMARY.md", "new-slug.md", "old-name.md", "somewhere/old-name.md"}
	if got := paths(files); !reflect.DeepEqual(got, want) {
		t.Errorf("paths\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(string(files["somewhere/old-name.md"]), "# Kept") {
		t.Errorf("the first page with a path keeps it")
	}
	cfg := string(files[configFile])
	if !strings.Contains(cfg, "x: README.md") || !strings.Contains(cfg, "y: new-slug.md") {
		t.Errorf("redirects do not follow the pages:\n%s", cfg)
	}
}

func TestWriteFileNames(t *testing.T) {
	sp := &Space{Files: []*File{
		{ID: "1", Name: "image.png"},
		{ID: "2", Name: "image.png"},
		{ID: "3", Name: "image.png", Path: "img/a.png"},
		{ID: "4", Name: "../evil/name.png"},
		{ID: "5", Name: "", Path: "SUMMARY.md"},
		{ID: "6", Name: "page.md", Path: "page.md"},
	}}
	files := mustWrite(t, sp)
	want := []string{
		".gitbook/assets/..-evil-name.png", ".gitbook/assets/5", ".gitbook/assets/image (1).png",
		".gitbook/assets/image.png", ".gitbook/assets/page.md", "SUMMARY.md", "img/a.png",
	}
	if got := paths(files); !reflect.DeepEqual(got, want) {
		t.Errorf("paths\n got %q\nwant %q", got, want)
	}
}

func TestWriteUnderRoot(t *testing.T) {
	sp := &Space{Config: Config{Root: "docs", Readme: "intro.md", Summary: "toc/SUMMARY.md"},
		Pages: []*Page{doc("h", "Home"), doc("a", "A")}}
	files := mustWrite(t, sp)
	want := []string{"docs/a.md", "docs/intro.md", "docs/toc/SUMMARY.md"}
	if got := paths(files); !reflect.DeepEqual(got, want) {
		t.Errorf("paths\n got %q\nwant %q", got, want)
	}
	if s := string(files["docs/toc/SUMMARY.md"]); !strings.Contains(s, "* [Home](../intro.md)\n* [A](../a.md)\n") {
		t.Errorf("summary links are relative to its folder:\n%s", s)
	}
	back := mustRead(t, files, pathIDs{})
	back.Config.Source = ""
	if back.Config != sp.Config || outline(back.Pages) != "document Home /home @intro.md\ndocument A /a @a.md\n" {
		t.Errorf("config %+v, pages\n%s, warnings %q", back.Config, outline(back.Pages), back.Warnings)
	}
}

func TestWriteTitles(t *testing.T) {
	titles := []string{"C#", "a \\ b", "[x] `y` <z> &amp; ok", "# not a heading", "trailing ##", "Tips & tricks"}
	sp := &Space{}
	for i, title := range titles {
		sp.Pages = append(sp.Pages, doc(string(rune('a'+i)), title))
	}
	withEmoji := doc("emoji", "Launch")
	withEmoji.Emoji = "1f680"
	sp.Pages = append(sp.Pages, withEmoji)
	back := mustRead(t, mustWrite(t, sp), pathIDs{})
	for i, p := range back.Pages[:len(titles)] {
		if p.Title != titles[i] || p.Emoji != "" {
			t.Errorf("title %q read back as %q (emoji %q)", titles[i], p.Title, p.Emoji)
		}
	}
	if e := back.Pages[len(titles)]; e.Title != "Launch" || e.Emoji != "1f680" {
		t.Errorf("emoji page read back as %q, %q", e.Title, e.Emoji)
	}
}

// TestWriteConfigAsRead checks .gitbook.yaml is written back as read while
// it says what the space holds, and written anew once it does not.
func TestWriteConfigAsRead(t *testing.T) {
	src := "# Content lives in docs\nroot: ./docs/\nstructure:\n  readme: ./intro.md\nredirects:\n  old: ./intro.md\n"
	files := Files{".gitbook.yaml": []byte(src), "docs/intro.md": []byte("# Home\n")}
	sp := mustRead(t, files, pathIDs{})
	if got := string(mustWrite(t, sp)[".gitbook.yaml"]); got != src {
		t.Errorf("written\n%s\nwant\n%s", got, src)
	}
	sp.Redirects = nil
	want := "root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: SUMMARY.md\n"
	if got := string(mustWrite(t, sp)[".gitbook.yaml"]); got != want {
		t.Errorf("written after a change\n%s\nwant\n%s", got, want)
	}
}

// A repository without .gitbook.yaml is written back without one, until
// the space needs settings other than the defaults.
func TestWriteLeavesOutAnAbsentConfig(t *testing.T) {
	files := Files{"README.md": []byte("# Home\n"), "SUMMARY.md": []byte("# Table of contents\n\n* [Home](README.md)\n")}
	sp := mustRead(t, files, pathIDs{})
	if out, ok := mustWrite(t, sp)[".gitbook.yaml"]; ok {
		t.Errorf("wrote a .gitbook.yaml the repository did not have:\n%s", out)
	}
	sp.Redirects = map[string]string{"old": "page:README.md"}
	if _, ok := mustWrite(t, sp)[".gitbook.yaml"]; !ok {
		t.Error("a redirect is not written")
	}
	sp.Redirects = nil
	sp.Config.Absent = false
	if _, ok := mustWrite(t, sp)[".gitbook.yaml"]; !ok {
		t.Error("a space not read from a repository gets no .gitbook.yaml")
	}
}
