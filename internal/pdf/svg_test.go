package pdf

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"quire/internal/document"
)

// svgDrawing is a text-free SVG: a green square and an orange disc on a
// transparent ground, 200×100 CSS pixels.
const svgDrawing = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 20 10">
  <rect x="1" y="1" width="8" height="8" fill="#00c000"/>
  <circle cx="15" cy="5" r="4" fill="#ff8000" stroke="#000" stroke-width="0.5"/>
</svg>`

// svgOpener serves the given files as SVG documents.
func svgOpener(files map[string]string) FileOpener {
	return func(_ context.Context, id string) (string, io.ReadCloser, error) {
		data, ok := files[id]
		if !ok {
			return "", nil, os.ErrNotExist
		}
		return "image/svg+xml", io.NopCloser(strings.NewReader(data)), nil
	}
}

// svgBook is a book of one page showing the image file "drawing" with
// the alternative text alt.
func svgBook(t *testing.T, alt string) *Book {
	t.Helper()
	doc, err := document.FromMarkdown("Before the drawing.\n\n![" + alt + "](drawing.svg)\n\nAfter the drawing.\n")
	if err != nil {
		t.Fatal(err)
	}
	withImageFile(doc.Nodes, "drawing")
	return &Book{Title: "Drawings", Pages: []Page{{ID: "a", Title: "Page with a drawing", Body: doc}}}
}

// withImageFile points the image blocks of nodes at the file id.
func withImageFile(nodes []document.Node, id string) {
	for i := range nodes {
		if nodes[i].Type == document.TypeImage {
			nodes[i].Data["ref"] = document.Ref{Kind: document.RefFile, File: id}
		}
		withImageFile(nodes[i].Nodes, id)
	}
}

// renderSVGBook renders b with the SVG document svg as its file
// "drawing" and returns the path of the PDF.
func renderSVGBook(t *testing.T, b *Book, svg string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(context.Background(), &buf, b, findFonts([]string{t.TempDir()}), svgOpener(map[string]string{"drawing": svg})); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "drawing.pdf")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pdfImageCount counts the images of a PDF with pdfimages -list.
func pdfImageCount(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command(requireTool(t, "pdfimages"), "-list", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfimages: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return len(lines) - 2 // two lines of header
}

// pagePixels renders the pages of a PDF with pdftoppm and counts, over
// all pages, the pixels for which match holds.
func pagePixels(t *testing.T, path string, match func(r, g, b uint32) bool) int {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command(requireTool(t, "pdftoppm"), "-r", "50", "-png", path, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "page*.png"))
	if len(pages) == 0 {
		t.Fatal("pdftoppm wrote no page")
	}
	n := 0
	for _, p := range pages {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if match(r>>8, g>>8, b>>8) {
					n++
				}
			}
		}
	}
	return n
}

// TestRenderSVGImage checks that an SVG image is drawn in the PDF, not
// replaced by its alternative text.
func TestRenderSVGImage(t *testing.T) {
	requireTool(t, "pdftotext")
	path := renderSVGBook(t, svgBook(t, "the drawing"), svgDrawing)
	text := strings.Join(strings.Fields(pdfText(t, path)), " ")
	if strings.Contains(text, "[the drawing]") {
		t.Errorf("the drawing was replaced by its alternative text: %s", text)
	}
	if !strings.Contains(text, "Before the drawing. After the drawing.") {
		t.Errorf("the text around the drawing is missing: %s", text)
	}
	if n := pdfImageCount(t, path); n != 1 {
		t.Errorf("%d images in the PDF, want 1", n)
	}
	// At 50 dpi the square, 80×80 CSS pixels drawn at 0.75 pt each, is
	// about 42×42 device pixels; the disc about 1380.
	green := pagePixels(t, path, func(r, g, b uint32) bool { return g > 150 && r < 80 && b < 80 })
	orange := pagePixels(t, path, func(r, g, b uint32) bool { return r > 200 && g > 90 && g < 170 && b < 60 })
	if green < 1200 || green > 2200 {
		t.Errorf("%d green pixels on the pages, want the square's 1200 to 2200", green)
	}
	if orange < 900 || orange > 1800 {
		t.Errorf("%d orange pixels on the pages, want the disc's 900 to 1800", orange)
	}
}

// TestRenderSVGPlaceholder checks that an SVG that cannot be drawn
// shows its alternative text and the export goes on.
func TestRenderSVGPlaceholder(t *testing.T) {
	requireTool(t, "pdftotext")
	path := renderSVGBook(t, svgBook(t, "broken drawing"), `<svg xmlns="http://www.w3.org/2000/svg"><rect`)
	text := strings.Join(strings.Fields(pdfText(t, path)), " ")
	if !strings.Contains(text, "[broken drawing]") {
		t.Errorf("no placeholder for the broken drawing: %s", text)
	}
	if !strings.Contains(text, "After the drawing.") {
		t.Errorf("the page stops at the broken drawing: %s", text)
	}
}

// drawSVG takes an SVG through what placeSVG does, at the size a page
// column gives it.
func drawSVG(data []byte) (*image.RGBA, error) {
	return drawSVGWithin(data, fullSVGBudget())
}

// drawSVGWithin is drawSVG with the given budget.
func drawSVGWithin(data []byte, budget svgBudget) (*image.RGBA, error) {
	info, err := checkSVG(data)
	if err != nil {
		return nil, err
	}
	r := &renderer{width: contentW}
	w, h := r.fitImage(info.width, info.height)
	pw, ph := svgRasterSize(w, h)
	return rasterizeSVG(info, pw, ph, budget)
}

// nested returns an SVG of n groups, each inside the one before.
func nested(n int) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">` + strings.Repeat("<g>", n) +
		`<rect width="5" height="5"/>` + strings.Repeat("</g>", n) + `</svg>`
}

// shapes returns an SVG of n copies of shape, viewBox 0 0 100 100.
func shapes(n int, shape string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">` +
		strings.Repeat(shape, n) + `</svg>`
}

// TestSVGHostile checks that SVG documents made to exhaust the server
// finish, either drawn within the pixel bound or refused.
func TestSVGHostile(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_ = png.Encode(w, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	}))
	defer srv.Close()
	u := srv.URL
	cases := []struct {
		name string
		svg  string
		// drawn tells whether the document is to be drawn (true) or
		// refused (false).
		drawn bool
		// paint, when not 0, is the budget of painted pixels: the
		// cases made to spend it are drawn at a twentieth, so that
		// they take a twentieth of the time.
		paint int
	}{
		{"huge size", `<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="4e300"><rect width="1e300" height="1e300" fill="red"/></svg>`, true, 0},
		{"huge view box", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1e308 -1e308 1e308 1e308"><circle r="1e307"/></svg>`, true, 0},
		{"thin huge size", `<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="0.001"><rect width="5" height="5"/></svg>`, true, 0},
		{"1 MB of nested groups", nested(150_000), false, 0},
		{"nested within bounds", nested(maxSVGDepth - 2), true, 0},
		{"1 MB of groups side by side", shapes(150_000, "<g></g>"), false, 0},
		{"external image", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">` +
			`<image href="` + u + `/a.png" width="10" height="10"/><image xlink:href="` + u + `/b.png"/>` +
			`<use href="` + u + `/c.svg#x"/><rect width="5" height="5" fill="url(` + u + `/d.svg#g)"/>` +
			`<style>@import url(` + u + `/e.css); rect { fill: url(` + u + `/f.svg#g) }</style>` +
			`<linearGradient id="g" xlink:href="` + u + `/g.svg#h"/><rect width="5" height="5" fill="url(#g)"/></svg>`, true, 0},
		{"external entity", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "` + u + `/x">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>`, false, 0},
		{"entity expansion", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><title>&b;</title></svg>`, false, 0},
		{"malformed", `<svg xmlns="http://www.w3.org/2000/svg"><g><rect></g></svg>`, false, 0},
		{"truncated", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="4"`, false, 0},
		{"not XML", "\x00\x01<svg", false, 0},
		{"not an SVG", `<html><svg></svg></html>`, false, 0},
		{"empty", ``, false, 0},
		{"use of itself", `<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"><use href="#a"/></g></defs><use href="#a"/></svg>`, false, 0},
		{"use multiplied", `<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a">` + strings.Repeat(`<rect width="1" height="1"/>`, 1000) +
			`</g></defs>` + strings.Repeat(`<use href="#a"/>`, 1000) + `</svg>`, false, 0},
		{"use within bounds", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><rect id="a" width="1" height="1"/></defs>` +
			strings.Repeat(`<use href="#a" x="2"/>`, 50) + `</svg>`, true, 0},
		{"bad color panics the library", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" fill="hsl(1,,)"/></svg>`, false, 0},
		{"ends groups it did not open", `<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"></g></g></defs><use href="#a"/></svg>`, false, 0},
		{"full-page shapes", shapes(maxSVGElements-10, `<rect width="100" height="100" fill="#123"/>`), false, maxSVGPaint / 20},
		// 100×100 CSS pixels are 200×200 device pixels.
		{"full-page shapes within the budget", shapes(maxSVGPaint/20/(200*200)-1, `<rect width="100" height="100" fill="#123"/>`), true, maxSVGPaint / 20},
		{"full-page gradients", `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>` +
			strings.Repeat(`<rect width="2000" height="2000" fill="url(#g)"/>`, 300) + `</svg>`, false, maxSVGPaint / 20},
		{"tiny dashes on a long line", shapes(1, `<path d="M0 0 L1e6 1e6 L0 1e6 L1e6 0" stroke="#000" stroke-dasharray="0.01 0.01"/>`), true, 0},
		{"dashes on a line made long", shapes(200, `<path transform="scale(1000)" d="M0 0 L100 100 L0 100 L100 0" stroke="#000" stroke-dasharray="1 1"/>`), false, 0},
		{"huge curves", shapes(2000, `<path d="M0 0 C1e7 -1e7 -1e7 1e7 100 100 C1e7 -1e7 -1e7 1e7 0 0" stroke="#000" stroke-width="3"/>`), false, 0},
		{"huge stroke", shapes(1, `<path d="M0 0 L100 100" stroke="#000" stroke-width="1e30" stroke-linecap="round" stroke-linejoin="round"/>`), true, 0},
		{"NaN and infinity", shapes(1, `<path d="M0 0 L1e400 NaN L-1e400 5 Z" transform="scale(1e308) rotate(1e308)" stroke="#000" stroke-width="Inf"/>`), true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			budget := fullSVGBudget()
			if c.paint != 0 {
				budget.paint = c.paint
			}
			img, err := drawSVGWithin([]byte(c.svg), budget)
			if c.drawn && err != nil {
				t.Errorf("refused: %v", err)
			}
			if !c.drawn && err == nil {
				t.Error("drawn, want it refused")
			}
			if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > maxSVGPixels {
				t.Errorf("drawn at %v, more than %d pixels", img.Bounds(), maxSVGPixels)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests to the address the documents name, want none", n)
	}
}

// TestSVGRasterSize checks the resolution of a rasterized SVG: two
// pixels per CSS pixel drawn, within maxSVGPixels.
func TestSVGRasterSize(t *testing.T) {
	for _, c := range []struct {
		w, h   float64
		pw, ph int
	}{
		{150, 75, 400, 200},
		{1500, 1500, 2000, 2000},
		{contentW, 600, 1288, 1600},
		{7.5, 7.5, 20, 20},
		{0.1, 0.1, 1, 1},
	} {
		pw, ph := svgRasterSize(c.w, c.h)
		if pw != c.pw || ph != c.ph {
			t.Errorf("%g×%g points rasterized at %d×%d, want %d×%d", c.w, c.h, pw, ph, c.pw, c.ph)
		}
		if pw*ph > maxSVGPixels {
			t.Errorf("%g×%g points rasterized at %d×%d, over %d pixels", c.w, c.h, pw, ph, maxSVGPixels)
		}
	}
}

// TestCheckSVGSize checks the size read from an SVG's root element.
func TestCheckSVGSize(t *testing.T) {
	for _, c := range []struct {
		attrs string
		w, h  float64
	}{
		{`width="200" height="100"`, 200, 100},
		{`width="72pt" height="1in"`, 96, 96},
		{`width="2.54cm" height="25.4mm"`, 96, 96},
		{`viewBox="0 0 40 30"`, 40, 30},
		{`width="80" viewBox="0,0,40,30"`, 80, 60},
		{`height="60" viewBox="0 0 40 30"`, 80, 60},
		{`width="100%" height="100%" viewBox="0 0 40 30"`, 40, 30},
		{``, defaultSVGWidth, defaultSVGHeight},
		{`width="-5" height="abc"`, defaultSVGWidth, defaultSVGHeight},
		{`width="1e9" height="1e8"`, maxSVGSide, maxSVGSide / 10},
	} {
		info, err := checkSVG([]byte(`<svg xmlns="http://www.w3.org/2000/svg" ` + c.attrs + `/>`))
		if err != nil {
			t.Errorf("%s: %v", c.attrs, err)
			continue
		}
		if fmt.Sprintf("%.3f×%.3f", info.width, info.height) != fmt.Sprintf("%.3f×%.3f", c.w, c.h) {
			t.Errorf("%s: size %g×%g, want %g×%g", c.attrs, info.width, info.height, c.w, c.h)
		}
	}
}

// TestSVGHiddenElements checks that the shapes of elements not drawn
// where they stand (clip paths, masks, symbols, markers, patterns) stay
// out of the picture, and that the rest of the document is drawn.
func TestSVGHiddenElements(t *testing.T) {
	full := `<rect width="100" height="100"/>`
	img, err := drawSVG([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
<defs><clipPath id="c">` + full + `</clipPath><mask id="m"><g>` + full + `</g></mask><pattern id="p"/></defs>
<symbol id="s">` + full + `</symbol><marker id="k"><use href="#s"/>` + full + `</marker>
<filter id="f"><feFlood/></filter><text x="0" y="50">label</text><foreignObject><svg>` + full + `</svg></foreignObject>
<rect x="40" y="40" width="20" height="20" fill="#00c000" clip-path="url(#c)"/>
</svg>`))
	if err != nil {
		t.Fatal(err)
	}
	dark, green := 0, 0
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			c := img.RGBAAt(x, y)
			switch {
			case c.R < 100 && c.G < 100 && c.B < 100:
				dark++
			case c.G > 150 && c.R < 80 && c.B < 80:
				green++
			}
		}
	}
	if dark != 0 {
		t.Errorf("%d dark pixels: shapes of hidden elements were drawn", dark)
	}
	// 20×20 CSS pixels drawn at 0.75 pt, rasterized at 2 per CSS pixel.
	if green < 38*38 || green > 42*42 {
		t.Errorf("%d green pixels, want the 40×40 square", green)
	}
}

// TestCheckSVGEncoding checks that documents in UTF-8 are read and
// others refused.
func TestCheckSVGEncoding(t *testing.T) {
	for decl, ok := range map[string]bool{
		`<?xml version="1.0"?>`:                       true,
		`<?xml version="1.0" encoding="UTF-8"?>`:      true,
		`<?xml version="1.0" encoding="utf-8"?>`:      true,
		`<?xml version="1.0" encoding="ISO-8859-1"?>`: false,
		`<?xml version="1.0" encoding="UTF-16"?>`:     false,
	} {
		_, err := checkSVG([]byte(decl + `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`))
		if ok != (err == nil) {
			t.Errorf("%s: error %v", decl, err)
		}
	}
}
