package pdf

import (
	"errors"
	"image"
	"image/color"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// errSVGTooComplex reports a drawing that needs more work than an image
// is given.
var errSVGTooComplex = errors.New("svg: drawing too complex")

// svgBudget is the work left for one SVG drawing, counted in line
// segments handed to the rasterizer and in pixels painted.
type svgBudget struct {
	segments int
	paint    int
}

// fullSVGBudget is the budget of an SVG image of a PDF.
func fullSVGBudget() svgBudget {
	return svgBudget{segments: maxSVGSegments, paint: maxSVGPaint}
}

// gradientPaintCost is how many plain pixels painting one pixel of a
// gradient counts for: its color is computed pixel by pixel.
const gradientPaintCost = 16

// svgScanner is a rasterx.Scanner that rasterizes each path within its
// own bounding box (not the whole image, as rasterx's own scanner does)
// and stops the drawing with a panic of errSVGTooComplex once its
// budget is spent. The panic is recovered by rasterizeSVG.
type svgScanner struct {
	dst    *image.RGBA
	z      vector.Rasterizer
	budget *svgBudget
	// path holds the points of the path being built; starts marks which
	// begin a new contour.
	path   []fixed.Point26_6
	starts []bool
	min    fixed.Point26_6
	max    fixed.Point26_6
	src    image.Image
	cost   int
}

var _ rasterx.Scanner = (*svgScanner)(nil)

// newSVGScanner returns a scanner drawing onto dst.
func newSVGScanner(dst *image.RGBA, budget *svgBudget) *svgScanner {
	s := &svgScanner{dst: dst, budget: budget, src: image.NewUniform(color.Black), cost: 1}
	s.Clear()
	return s
}

// add records a point of the path, charging it to the budget.
func (s *svgScanner) add(p fixed.Point26_6, start bool) {
	s.budget.segments--
	if s.budget.segments < 0 {
		panic(errSVGTooComplex)
	}
	s.path = append(s.path, p)
	s.starts = append(s.starts, start)
	s.min.X, s.min.Y = min(s.min.X, p.X), min(s.min.Y, p.Y)
	s.max.X, s.max.Y = max(s.max.X, p.X), max(s.max.Y, p.Y)
}

// Start begins a contour at a.
func (s *svgScanner) Start(a fixed.Point26_6) { s.add(a, true) }

// Line adds a segment to b.
func (s *svgScanner) Line(b fixed.Point26_6) { s.add(b, false) }

// Draw paints the path, within its bounding box, with the current color.
func (s *svgScanner) Draw() {
	if len(s.path) == 0 {
		return
	}
	box := image.Rect(s.min.X.Floor(), s.min.Y.Floor(), s.max.X.Ceil()+1, s.max.Y.Ceil()+1).Intersect(s.dst.Bounds())
	if box.Empty() {
		return
	}
	s.budget.paint -= box.Dx() * box.Dy() * s.cost
	if s.budget.paint < 0 {
		panic(errSVGTooComplex)
	}
	s.z.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for i, p := range s.path {
		x, y := float32(p.X)/64-ox, float32(p.Y)/64-oy
		if s.starts[i] {
			s.z.MoveTo(x, y)
		} else {
			s.z.LineTo(x, y)
		}
	}
	s.z.Draw(s.dst, box, s.src, box.Min)
}

// GetPathExtent returns the bounds of the path being built.
func (s *svgScanner) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: s.min, Max: s.max}
}

// SetBounds is part of rasterx.Scanner; the bounds are the image's.
func (s *svgScanner) SetBounds(int, int) {}

// SetColor sets the paint of the next Draw: a color.Color or a
// rasterx.ColorFunc (gradients).
func (s *svgScanner) SetColor(c any) {
	switch c := c.(type) {
	case color.Color:
		s.src, s.cost = image.NewUniform(c), 1
	case rasterx.ColorFunc:
		s.src, s.cost = funcImage(c), gradientPaintCost
	}
}

// SetWinding is part of rasterx.Scanner; the vector rasterizer always
// fills by the non-zero rule.
func (s *svgScanner) SetWinding(bool) {}

// SetClip is part of rasterx.Scanner; SVG clips are not drawn.
func (s *svgScanner) SetClip(image.Rectangle) {}

// Clear forgets the path being built.
func (s *svgScanner) Clear() {
	s.path, s.starts = s.path[:0], s.starts[:0]
	s.min = fixed.Point26_6{X: math.MaxInt32, Y: math.MaxInt32}
	s.max = fixed.Point26_6{X: math.MinInt32, Y: math.MinInt32}
}

// funcImage is an image whose colors a function gives.
type funcImage rasterx.ColorFunc

// ColorModel is part of image.Image.
func (f funcImage) ColorModel() color.Model { return color.RGBA64Model }

// Bounds is part of image.Image: the function covers the plane.
func (f funcImage) Bounds() image.Rectangle {
	return image.Rect(math.MinInt32/2, math.MinInt32/2, math.MaxInt32/2, math.MaxInt32/2)
}

// At is part of image.Image.
func (f funcImage) At(x, y int) color.Color { return f(x, y) }
