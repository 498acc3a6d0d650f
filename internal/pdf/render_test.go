package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/document"

	"quire/internal/testutil"
)

// sampleMarkdown is a page body holding every kind of block the renderer
// sets; n makes its words unique to the page.
func sampleMarkdown(n int) string {
	return fmt.Sprintf(`# Heading one %[1]d

A paragraph with **bold %[1]d**, *italic %[1]d*, `+"`code%[1]d`"+`, ~~struck~~ and a [link %[1]d](https://example.com/p%[1]d).

## Heading two %[1]d

* bullet alpha%[1]d
* bullet beta%[1]d
  1. nested one%[1]d
  2. nested two%[1]d

- [x] task done%[1]d
- [ ] task open%[1]d

### Heading three %[1]d

`+"```go\nfunc main%[1]d() {\n\tprintln(\"hello %[1]d\")\n}\n```"+`

{%% hint style="warning" %%}
Hint text %[1]d, mind the gap.
{%% endhint %%}

> Quoted words %[1]d.

| Name | Value |
| ---- | ----- |
| row%[1]da | cell%[1]da |
| row%[1]db | cell%[1]db |

![diagram %[1]d](files/diagram.png)

---

漢字のテキスト%[1]d 中文段落%[1]d 한국어%[1]d

$$E = mc^%[1]d$$
`, n)
}

// sampleBook is a book of n pages, every other one below the one before.
func sampleBook(t testing.TB, n int) *Book {
	t.Helper()
	b := &Book{Title: "Sample space", Subtitle: "All the blocks"}
	for i := 1; i <= n; i++ {
		doc, err := document.FromMarkdown(sampleMarkdown(i))
		if err != nil {
			t.Fatal(err)
		}
		withImage(doc.Nodes)
		doc.Nodes = append(doc.Nodes, document.Block(document.TypeParagraph, nil,
			document.Text(document.PlainLeaf("See ")),
			document.Inline(document.InlineLink, map[string]any{"ref": map[string]any{"kind": "page", "page": "p1"}},
				document.Text(document.PlainLeaf(fmt.Sprintf("the first page from %d", i))))))
		b.Pages = append(b.Pages, Page{ID: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("Page title %d", i),
			Description: fmt.Sprintf("About page %d", i), Depth: (i + 1) % 2, Body: doc})
	}
	return b
}

// withImage points the image blocks of nodes at the test's image file.
func withImage(nodes []document.Node) {
	for i := range nodes {
		if nodes[i].Type == document.TypeImage {
			nodes[i].Data["ref"] = document.Ref{Kind: document.RefFile, File: "img"}
		}
		withImage(nodes[i].Nodes)
	}
}

// testImage is a PNG of a red square on blue.
func testImage(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 240, 120))
	for y := range 120 {
		for x := range 240 {
			c := color.RGBA{0x20, 0x40, 0xc0, 0xff}
			if x > 80 && x < 160 && y > 20 && y < 100 {
				c = color.RGBA{0xd0, 0x20, 0x20, 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openerOf(files map[string][]byte) FileOpener {
	return func(_ context.Context, id string) (string, io.ReadCloser, error) {
		data, ok := files[id]
		if !ok {
			return "", nil, errors.New("no such file")
		}
		return "image/png", io.NopCloser(bytes.NewReader(data)), nil
	}
}

// requireTool returns the path of a poppler tool, skipping the test when
// it is not installed (.ci/run installs it).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testutil.Missing(t, name+" is not installed (Debian package poppler-utils); .ci/run installs it")
	}
	return p
}

// requireCJK loads the fonts, skipping the test when no CJK font is
// installed (.ci/run installs fonts-droid-fallback).
func requireCJK(t *testing.T) *Fonts {
	t.Helper()
	f, err := LoadFonts("")
	if err != nil {
		t.Fatal(err)
	}
	if !f.HasCJK() {
		testutil.Missing(t, "no CJK fonts found in "+strings.Join(DefaultFontDirs(), ", ")+" (Debian packages fonts-droid-fallback, fonts-nanum); .ci/run installs them")
	}
	return f
}

func renderBook(t *testing.T, b *Book, fonts *Fonts) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(context.Background(), &buf, b, fonts, openerOf(map[string][]byte{"img": testImage(t)})); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", buf.Bytes()[:min(20, buf.Len())])
	}
	p := filepath.Join(t.TempDir(), "book.pdf")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pdfText extracts the text of a PDF with pdftotext.
func pdfText(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command(requireTool(t, "pdftotext"), "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

func TestRenderFiftyPagesEveryBlock(t *testing.T) {
	requireTool(t, "pdftotext")
	fonts := requireCJK(t)
	path := renderBook(t, sampleBook(t, 50), fonts)
	text := pdfText(t, path)
	compact := strings.Join(strings.Fields(text), " ")
	for i := 1; i <= 50; i++ {
		for _, want := range []string{
			fmt.Sprintf("Page title %d", i), fmt.Sprintf("About page %d", i),
			fmt.Sprintf("Heading one %d", i), fmt.Sprintf("Heading two %d", i), fmt.Sprintf("Heading three %d", i),
			fmt.Sprintf("bold %d", i), fmt.Sprintf("italic %d", i), fmt.Sprintf("code%d", i), fmt.Sprintf("link %d", i),
			fmt.Sprintf("bullet alpha%d", i), fmt.Sprintf("nested two%d", i), fmt.Sprintf("task open%d", i),
			fmt.Sprintf("func main%d()", i), fmt.Sprintf(`println("hello %d")`, i),
			fmt.Sprintf("Hint text %d", i), fmt.Sprintf("Quoted words %d", i),
			fmt.Sprintf("row%da", i), fmt.Sprintf("cell%db", i), "Name", "Value",
			fmt.Sprintf("漢字のテキスト%d", i), fmt.Sprintf("中文段落%d", i), fmt.Sprintf("한국어%d", i),
			fmt.Sprintf("E = mc^%d", i), fmt.Sprintf("See the first page from %d", i),
		} {
			if !strings.Contains(compact, want) {
				t.Errorf("page %d: text %q missing from the PDF", i, want)
			}
		}
	}
	if t.Failed() {
		t.Logf("extracted text starts: %.3000s", compact)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// 50 bookmarks, 50 lines of contents and 50 links to the first page
	// jump within.
	if n := bytes.Count(data, []byte("/Dest [")); n != 150 {
		t.Errorf("%d destinations within the PDF, want 150", n)
	}
	if n := bytes.Count(data, []byte("/URI (https://example.com/p")); n != 50 {
		t.Errorf("%d links to web pages, want 50", n)
	}
	if !strings.Contains(compact, "Contents") {
		t.Error("no table of contents")
	}
	if dir := os.Getenv("QUIRE_PDF_KEEP"); dir != "" {
		data, _ := os.ReadFile(path)
		_ = os.WriteFile(filepath.Join(dir, "book.pdf"), data, 0o644)
	}
}

// TestRenderGoFontsFallback checks that without system fonts a document
// is set in the Go fonts, its Latin text extractable.
func TestRenderGoFontsFallback(t *testing.T) {
	fonts := findFonts([]string{t.TempDir()})
	for face, src := range fonts.Sources() {
		if !strings.HasPrefix(src, goFontPrefix) {
			t.Errorf("%s read from %s, want a Go font", face, src)
		}
	}
	if fonts.HasCJK() {
		t.Error("the Go fonts claim CJK")
	}
	doc, err := document.FromMarkdown("Plain **bold** and `mono` words.\n\n- [x] done item\n\n" +
		"A very long address https://example.com/" + strings.Repeat("segment/", 40) + " ends here.")
	if err != nil {
		t.Fatal(err)
	}
	path := renderBook(t, &Book{Title: "Fallback", Pages: []Page{{ID: "a", Title: "Only page", Body: doc}}}, fonts)
	text := strings.Join(strings.Fields(pdfText(t, path)), " ")
	for _, want := range []string{"Fallback", "Only page", "Plain bold and mono words.", "[x] done item", "ends here."} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing from %s", want, text)
		}
	}
}

// TestLoadFontsDir checks that a configured directory must exist and is
// searched first.
func TestLoadFontsDir(t *testing.T) {
	if _, err := LoadFonts(filepath.Join(t.TempDir(), "nothing")); err == nil {
		t.Error("a missing font directory was accepted")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(DefaultFontDirs()[0], "DejaVuSansMono.ttf"))
	if err != nil {
		testutil.Missing(t, "DejaVu fonts are not installed (Debian package fonts-dejavu-core); .ci/run installs them")
	}
	if err := os.WriteFile(filepath.Join(dir, "DejaVuSans.ttf"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	fonts, err := LoadFonts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := fonts.Sources()["regular"]; got != filepath.Join(dir, "DejaVuSans.ttf") {
		t.Errorf("regular face read from %s, want the configured directory", got)
	}
}
