package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/document"
)

// longMarkdown has blocks that run over PDF pages (a long hint, a long
// table, a long code line) and the container blocks.
func longMarkdown() string {
	var b strings.Builder
	b.WriteString("{% hint style=\"info\" %}\n")
	for i := range 45 {
		fmt.Fprintf(&b, "Hint paragraph number %d goes on for a while to fill the line with words.\n\n", i)
	}
	b.WriteString("{% endhint %}\n\n| Key | Description | Note |\n| --- | --- | --- |\n")
	for i := range 60 {
		fmt.Fprintf(&b, "| key%d | description of row %d, long enough to wrap inside its narrow column | n%d |\n", i, i, i)
	}
	b.WriteString("\n```\n" + strings.Repeat("averyveryverylongidentifier_", 8) + "end\n```\n\n")
	b.WriteString("{% tabs %}\n{% tab title=\"First tab\" %}\nInside the first tab.\n{% endtab %}\n{% tab title=\"Second tab\" %}\nInside the second tab.\n{% endtab %}\n{% endtabs %}\n\n")
	b.WriteString("<details>\n<summary>Expand me</summary>\n\nHidden body text.\n\n</details>\n\n")
	b.WriteString("{% stepper %}\n{% step %}\n### Step heading\n\nDo the step.\n{% endstep %}\n{% endstepper %}\n\n")
	b.WriteString("3. third\n4. fourth\n\n")
	b.WriteString(strings.Repeat("長い日本語の文章が続きます。", 30) + "\n")
	return b.String()
}

func TestRenderBlocksAcrossPages(t *testing.T) {
	requireTool(t, "pdftotext")
	fonts := requireCJK(t)
	doc, err := document.FromMarkdown(longMarkdown())
	if err != nil {
		t.Fatal(err)
	}
	b := &Book{Title: "Long", Pages: []Page{
		{ID: "g", Title: "A group"},
		{ID: "l", Title: "Long page", Emoji: "1f4d8", Depth: 1, Body: doc},
		{ID: "x", Title: "Elsewhere", Depth: 1, Href: "https://example.com/elsewhere"},
	}}
	path := renderBook(t, b, fonts)
	text := strings.Join(strings.Fields(pdfText(t, path)), " ")
	want := []string{"A group", "Long page", "Elsewhere", "https://example.com/elsewhere", "Hint paragraph number 44",
		"First tab", "Inside the second tab.", "Expand me", "Hidden body text.", "Step heading", "Do the step.",
		"3. third", "4. fourth", "end"}
	for i := range 60 {
		want = append(want, fmt.Sprintf("key%d", i), fmt.Sprintf("n%d", i))
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%q missing from the PDF", w)
		}
	}
	if n := strings.Count(text, "Key Description Note"); n < 2 {
		t.Errorf("table header shown %d times, want it repeated on each PDF page", n)
	}
	if got := strings.Count(strings.ReplaceAll(text, " ", ""), "長い日本語の文章が続きます。"); got != 30 {
		t.Errorf("CJK sentence found %d times, want 30", got)
	}
	if dir := os.Getenv("QUIRE_PDF_KEEP"); dir != "" {
		data, _ := os.ReadFile(path)
		_ = os.WriteFile(filepath.Join(dir, "long.pdf"), data, 0o644)
	}
}

// TestRenderEdgeCases checks that an empty space, a space of groups and
// the document package's golden page (every node kind it writes) render.
func TestRenderEdgeCases(t *testing.T) {
	fonts := findFonts([]string{t.TempDir()})
	golden, err := os.ReadFile(filepath.Join("..", "document", "testdata", "page.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := document.ParseStored(golden)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*Book{
		"empty":  {Title: "Empty"},
		"groups": {Title: "Groups", Pages: []Page{{ID: "a", Title: "One"}, {ID: "b", Title: "Two", Depth: 1}}},
		"golden": {Title: "", Pages: []Page{{ID: "g", Body: doc}, {ID: "e", Title: "Empty body", Body: document.New()}}},
	} {
		t.Run(name, func(t *testing.T) {
			path := renderBook(t, b, fonts)
			if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Fatalf("no PDF written: %v", err)
			}
		})
	}
}
