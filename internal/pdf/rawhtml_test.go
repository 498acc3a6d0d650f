package pdf

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"testing"

	"quire/internal/document"
)

// TestRenderRawHTMLImages checks that images of raw HTML blocks whose
// source names a file of the space are set, and others are not.
func TestRenderRawHTMLImages(t *testing.T) {
	md := "Before.\n\n" +
		"<picture><source srcset=\".gitbook/assets/dark.png\" media=\"(prefers-color-scheme: dark)\"><img src=\".gitbook/assets/red.png\" alt=\"Red\"></picture>\n\n" +
		"<div class=\"box\"><img src=\"../.gitbook/assets/red%20square.png\" alt=\"Square\"> and <img src=\"https://example.com/x.png\"></div>\n\n" +
		"After.\n"
	doc, err := document.FromMarkdown(md)
	if err != nil {
		t.Fatal(err)
	}
	raws := 0
	for _, n := range doc.Nodes {
		if n.Type == document.TypeRaw {
			raws++
		}
	}
	if raws != 2 {
		t.Fatalf("%d raw blocks, want 2", raws)
	}
	var asked []string
	b := &Book{Title: "Raw", Pages: []Page{{ID: "a", Title: "Raw HTML", Body: doc}},
		FileID: func(p string) string {
			asked = append(asked, p)
			if name := path.Base(p); name == "red.png" || name == "red square.png" {
				return "img"
			}
			return ""
		}}
	var buf bytes.Buffer
	if err := Render(context.Background(), &buf, b, findFonts([]string{t.TempDir()}), openerOf(map[string][]byte{"img": testImage(t)})); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "raw.pdf")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := pdfImageCount(t, p); n != 2 {
		t.Fatalf("%d images, want 2 (asked for %q)", n, asked)
	}
	if want := []string{".gitbook/assets/red.png", "../.gitbook/assets/red square.png"}; len(asked) != 2 || asked[0] != want[0] || asked[1] != want[1] {
		t.Fatalf("asked for %q, want %q", asked, want)
	}
	if text := pdfText(t, p); !bytes.Contains([]byte(text), []byte("After.")) {
		t.Fatalf("text lost: %q", text)
	}
}
