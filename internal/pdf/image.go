package pdf

import (
	"bytes"
	"cmp"
	"image"
	_ "image/gif" // decodes GIF files
	_ "image/jpeg"
	_ "image/png"
	"io"

	"github.com/signintech/gopdf"
	_ "golang.org/x/image/webp" // decodes WebP files

	"quire/internal/document"
)

// Image limits.
const (
	// maxImageBytes is the largest image file set; larger ones are left out.
	maxImageBytes = 32 << 20
	// maxImagePixels bounds the decoded size of an image.
	maxImagePixels = 40_000_000
	// pxToPt is the size of an image pixel, at 96 per inch.
	pxToPt = 0.75
)

// image sets an image block whose source is a file of the space, scaled
// to the column; other sources show their alternative text.
func (r *renderer) image(n document.Node) {
	ref, ok := refOf(n.Data["ref"])
	alt, _ := n.Data["alt"].(string)
	if !ok || ref.Kind != document.RefFile || r.open == nil || !r.placeImage(ref.File) {
		if alt != "" {
			r.paragraph(r.plainUnits("["+alt+"]", style{face: FaceItalic, size: bodySize, color: colorMuted}), 0)
			r.y += 6
		}
		return
	}
	r.y += 6
}

// placeImage reads a file and sets it as an image, reporting whether it
// could.
func (r *renderer) placeImage(id string) bool {
	contentType, rc, err := r.open(r.ctx, id)
	if err != nil {
		return false
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxImageBytes+1))
	if err != nil || len(data) > maxImageBytes {
		return false
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if looksLikeSVG(contentType, data) {
			return r.placeSVG(data)
		}
		return false
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxImagePixels {
		return false
	}
	w, h := r.fitImage(float64(cfg.Width), float64(cfg.Height))
	r.ensure(h)
	rect := &gopdf.Rect{W: w, H: h}
	switch format {
	case "jpeg", "png":
		holder, err := gopdf.ImageHolderByBytes(data)
		if err != nil {
			return false
		}
		if r.gp.ImageByHolder(holder, r.left, r.y, rect) != nil {
			return false
		}
	default:
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil || r.gp.ImageFrom(img, r.left, r.y, rect) != nil {
			return false
		}
	}
	r.y += h + 4
	return true
}

// placeSVG rasterizes an SVG document and sets it as an image, reporting
// whether it could.
func (r *renderer) placeSVG(data []byte) bool {
	info, err := checkSVG(data)
	if err != nil {
		return false
	}
	w, h := r.fitImage(info.width, info.height)
	pw, ph := svgRasterSize(w, h)
	img, err := rasterizeSVG(info, pw, ph, fullSVGBudget())
	if err != nil {
		return false
	}
	r.ensure(h)
	if r.gp.ImageFrom(img, r.left, r.y, &gopdf.Rect{W: w, H: h}) != nil {
		return false
	}
	r.y += h + 4
	return true
}

// fitImage returns the size in points at which an image of w×h CSS
// pixels is set: its own size, made smaller to fit the column and most
// of a page.
func (r *renderer) fitImage(wPx, hPx float64) (float64, float64) {
	w, h := wPx*pxToPt, hPx*pxToPt
	maxH := (pageH - margin - bottomMargin) * 0.7
	if w > r.width {
		w, h = r.width, h*r.width/w
	}
	if h > maxH {
		w, h = w*maxH/h, maxH
	}
	return w, h
}

// fileBlock names an attached file.
func (r *renderer) fileBlock(n document.Node) {
	st := style{face: FaceRegular, size: bodySize, color: colorMuted}
	name := "Attached file"
	for _, f := range n.Fragments {
		if f.Fragment == "caption" {
			for _, b := range f.Nodes {
				if t := plainText(b); t != "" {
					name = t
				}
			}
		}
	}
	if c, _ := n.Data["caption"].(string); c != "" {
		name = c
	}
	r.paragraph(r.plainUnits("Attachment: "+name, st), 0)
	r.y += 6
}

// plainText is the text of a block's inlines.
func plainText(n document.Node) string {
	return document.New(n).PlainText()
}

// titleOf returns the title of a page of the book.
func (r *renderer) titleOf(id string) string {
	return cmp.Or(r.inBook[id], untitled)
}
