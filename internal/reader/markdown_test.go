package reader

import (
	"context"
	"strings"
	"testing"
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
