package reader

import (
	"context"
	"strings"
	"testing"

	"quire/internal/document"
)

func TestPageMarkdown(t *testing.T) {
	p := fixturePage(t)
	md, err := PageMarkdown(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Every block\n\n> A page holding one of each block kind.\n\n",
		"{% hint style=\"info\" %}",
		"[quickstart](/docs/getting-started/quickstart)",
		"/files/handbook.pdf",
		"```bash\ncurl -fsSL",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "javascript:") {
		t.Error("an unsafe address reached the Markdown")
	}
}

func TestLLMsTxt(t *testing.T) {
	got := LLMsTxt("Quire Docs", "How to run\nQuire.", []Link{
		{Title: "Quick [start]", URL: "/docs/quick start.md"},
		{Title: "Bad", URL: "javascript:alert(1)"},
	})
	want := "# Quire Docs\n\n> How to run Quire.\n\n## Pages\n\n- [Quick \\[start\\]](/docs/quick%20start.md)\n- [Bad]()\n"
	if got != want {
		t.Errorf("LLMsTxt =\n%s\nwant\n%s", got, want)
	}
}

// References to files of the repository left in a page's Markdown (raw
// HTML, Liquid attributes) lead to the site's files; fenced code stays
// as written.
func TestPageMarkdownResolvesRepositoryFiles(t *testing.T) {
	src := "<p align=\"center\"><picture><source srcset=\".gitbook/assets/dark.svg 2x\"><img src=\"../.gitbook/assets/light.png\"></picture></p>\n\n" +
		"Inline <img src=\".gitbook/assets/icon.svg\" width=\"16\"> icon and <a href=\".gitbook/assets/guide.pdf\">the guide</a>.\n\n" +
		"```md\n![](.gitbook/assets/example.png)\n```\n"
	doc, err := document.FromMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	md, err := PageMarkdown(context.Background(), &Page{Title: "Files", Document: doc, Resolvers: importedResolvers()})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`srcset="/files/dark.svg 2x"`, `src="/files/light.png"`, `src="/files/icon.svg"`,
		"/files/guide.pdf", "![](.gitbook/assets/example.png)"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %s:\n%s", want, md)
		}
	}
	if n := strings.Count(md, ".gitbook/assets/"); n != 1 {
		t.Errorf("%d repository paths left, want the one in code:\n%s", n, md)
	}
}
