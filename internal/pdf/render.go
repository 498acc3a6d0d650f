package pdf

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/signintech/gopdf"
)

// Page geometry, in points (A4).
const (
	pageW        = 595.28
	pageH        = 841.89
	margin       = 56.0
	bottomMargin = 60.0
	contentW     = pageW - 2*margin
	bodySize     = 10.5
	lineFactor   = 1.45
	// tocLineH is the height of a line of the table of contents.
	tocLineH = 17.0
)

// untitled is the title shown for a page without one.
const untitled = "Untitled"

// rgb is a color, 0xRRGGBB.
type rgb uint32

// Colors of the document.
const (
	colorText  rgb = 0x1f2328
	colorMuted rgb = 0x656d76
	colorLink  rgb = 0x1a5fb4
	colorCode  rgb = 0xa31d52
	colorRule  rgb = 0xd0d7de
	colorShade rgb = 0xf3f4f6
)

// parts returns the red, green and blue parts of c.
func (c rgb) parts() (uint8, uint8, uint8) { return uint8(c >> 16), uint8(c >> 8), uint8(c) }

// renderer holds the state of one rendering.
type renderer struct {
	ctx   context.Context
	gp    *gopdf.GoPdf
	fonts *Fonts
	open  FileOpener
	// operations resolves the operations openapi-operation blocks show.
	operations OperationResolver
	// fileID resolves repository paths of raw HTML images to file ids.
	fileID func(path string) string
	// inBook holds the titles of the book's pages by id; links to them jump to them.
	inBook map[string]string
	// page is the current PDF page, from 1; y the top of the free space.
	page int
	y    float64
	// left and width are the current text column.
	left, width float64
	// fresh tells that nothing was set on the page yet.
	fresh bool
	face  Face
	size  float64
}

// tocEntry is a line of the table of contents whose page number is set
// once the page is placed.
type tocEntry struct {
	id      string
	pdfPage int
	y       float64
}

// Render sets the book as PDF and writes it to w.
func Render(ctx context.Context, w io.Writer, b *Book, fonts *Fonts, open FileOpener) error {
	if err := fonts.load(); err != nil {
		return err
	}
	r := &renderer{ctx: ctx, fonts: fonts, open: open, inBook: map[string]string{}, left: margin, width: contentW, face: -1,
		operations: b.Operations, fileID: b.FileID}
	for _, p := range b.Pages {
		r.inBook[p.ID] = cmp.Or(p.Title, untitled)
	}
	r.gp = &gopdf.GoPdf{}
	r.gp.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}, Unit: gopdf.UnitPT})
	r.gp.SetInfo(gopdf.PdfInfo{Title: b.Title, Creator: "Quire"})
	for face := range faceCount {
		data := fonts.data[face]
		if data == nil {
			continue
		}
		if err := r.gp.AddTTFFontData(face.fontFamily(), data); err != nil {
			return fmt.Errorf("pdf font %s: %w", face.fontFamily(), err)
		}
	}
	toc := r.titlePage(b)
	placed := map[string]int{}
	for i := range b.Pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		placed[b.Pages[i].ID] = r.bookPage(&b.Pages[i])
	}
	last := r.page
	for _, e := range toc {
		if err := r.gp.SetPage(e.pdfPage); err != nil {
			return err
		}
		num := strconv.Itoa(placed[e.id])
		r.setFont(FaceRegular, bodySize)
		r.color(colorMuted)
		w := r.measure(num)
		r.cell(margin+contentW-w, textTop(e.y, tocLineH, bodySize), num)
	}
	if err := r.gp.SetPage(last); err != nil {
		return err
	}
	_, err := r.gp.WriteTo(w)
	return err
}

// titlePage sets the book's title and its table of contents, leaving the
// page numbers to fill in.
func (r *renderer) titlePage(b *Book) []tocEntry {
	r.newPage()
	r.y += 60
	r.paragraph(r.plainUnits(b.Title, style{face: FaceBold, size: 26, color: colorText}), 0)
	if b.Subtitle != "" {
		r.y += 4
		r.paragraph(r.plainUnits(b.Subtitle, style{face: FaceRegular, size: 14, color: colorMuted}), 0)
	}
	r.y += 24
	if len(b.Pages) == 0 {
		return nil
	}
	r.paragraph(r.plainUnits("Contents", style{face: FaceBold, size: 16, color: colorText}), 0)
	r.y += 6
	var toc []tocEntry
	for _, p := range b.Pages {
		r.ensure(tocLineH)
		indent := float64(min(p.Depth, 6)) * 14
		st := style{face: FaceRegular, size: bodySize, color: colorText}
		if p.Depth == 0 {
			st.face = FaceBold
		}
		units := r.plainUnits(cmp.Or(p.Title, untitled), st)
		lines := r.layout(units, contentW-indent-40)
		if len(lines) > 0 {
			r.drawLine(lines[0], margin+indent, r.y, tocLineH)
		}
		r.gp.AddInternalLink(p.ID, margin+indent, r.y, contentW-indent, tocLineH)
		toc = append(toc, tocEntry{id: p.ID, pdfPage: r.page, y: r.y})
		r.y += tocLineH
	}
	return toc
}

// newPage starts a PDF page with its number at the foot.
func (r *renderer) newPage() {
	r.gp.AddPage()
	r.page++
	r.y = margin
	r.fresh = true
	r.setFont(FaceRegular, 8.5)
	r.color(colorMuted)
	num := strconv.Itoa(r.page)
	r.cell((pageW-r.measure(num))/2, pageH-bottomMargin/2-4, num)
}

// ensure starts a new page unless h points fit above the bottom margin.
func (r *renderer) ensure(h float64) {
	if r.y+h > pageH-bottomMargin && !r.fresh {
		r.newPage()
		return
	}
	r.fresh = false
}

// setFont selects a face and size, when not selected already.
func (r *renderer) setFont(f Face, size float64) {
	if r.fonts.data[f] == nil {
		f = FaceRegular
	}
	if f == r.face && size == r.size {
		return
	}
	r.face, r.size = f, size
	_ = r.gp.SetFont(f.fontFamily(), "", size)
}

func (r *renderer) color(c rgb) { r.gp.SetTextColor(c.parts()) }

func (r *renderer) fill(c rgb) { r.gp.SetFillColor(c.parts()) }

func (r *renderer) stroke(c rgb) { r.gp.SetStrokeColor(c.parts()) }

// measure returns the width of s in the selected font.
func (r *renderer) measure(s string) float64 {
	w, err := r.gp.MeasureTextWidth(s)
	if err != nil {
		return 0
	}
	return w
}

// cell sets s with its top left corner at x, y in the selected font.
func (r *renderer) cell(x, y float64, s string) {
	r.gp.SetXY(x, y)
	_ = r.gp.Cell(&gopdf.Rect{W: 1, H: 1}, s)
}

// rect fills a rectangle given by its top left corner.
func (r *renderer) rect(x, y, w, h float64, c rgb) {
	r.fill(c)
	r.gp.RectFromUpperLeftWithStyle(x, y, w, h, "F")
}
