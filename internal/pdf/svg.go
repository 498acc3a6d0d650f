package pdf

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// Limits on rasterizing an SVG.
const (
	// svgPixelsPerPx is the resolution of a rasterized SVG: device
	// pixels per CSS pixel of its drawn size (192 per inch).
	svgPixelsPerPx = 2
	// maxSVGPixels bounds the pixels of a rasterized SVG.
	maxSVGPixels = 4_000_000
	// maxSVGSegments bounds the line segments the rasterizer is handed
	// for one SVG, once curves, strokes and dashes are made of lines.
	maxSVGSegments = 1_000_000
	// maxSVGPaint bounds the pixels painted for one SVG, each shape
	// painting its bounding box; gradientPaintCost weighs gradients.
	maxSVGPaint = 100_000_000
)

// looksLikeSVG tells whether a file is probably an SVG document, by its
// content type or by an <svg tag near its start.
func looksLikeSVG(contentType string, data []byte) bool {
	if strings.HasPrefix(contentType, "image/svg") {
		return true
	}
	head := data[:min(len(data), 4096)]
	return bytes.Contains(head, []byte("<svg"))
}

// svgRasterSize is the size in pixels at which an SVG drawn w×h points
// is rasterized: svgPixelsPerPx per CSS pixel, at most maxSVGPixels.
func svgRasterSize(w, h float64) (int, int) {
	pw, ph := w/pxToPt*svgPixelsPerPx, h/pxToPt*svgPixelsPerPx
	if s := math.Sqrt(maxSVGPixels / (pw * ph)); s < 1 {
		pw, ph = pw*s, ph*s
	}
	return max(1, int(pw)), max(1, int(ph))
}

// rasterizeSVG draws the SVG document checkSVG passed as info
// onto a white w×h image, fitting its user space in the image and
// keeping its shape. A drawing that would take more work than the
// budget allows, or that the library fails on, is an error.
func rasterizeSVG(info svgInfo, w, h int, budget svgBudget) (img *image.RGBA, err error) {
	defer func() {
		if v := recover(); v != nil {
			img, err = nil, fmt.Errorf("svg: drawing failed: %v", v)
		}
	}()
	icon, err := oksvg.ReadIconStream(bytes.NewReader(info.doc))
	if err != nil {
		return nil, fmt.Errorf("svg: %w", err)
	}
	vb := info.viewBox
	if vb[2] <= 0 || vb[3] <= 0 {
		vb = [4]float64{0, 0, info.width, info.height}
	}
	scale := min(float64(w)/vb[2], float64(h)/vb[3])
	dx, dy := (float64(w)-vb[2]*scale)/2, (float64(h)-vb[3]*scale)/2
	icon.Transform = rasterx.Matrix2D{A: scale, D: scale, E: dx - vb[0]*scale, F: dy - vb[1]*scale}
	for i := range icon.SVGPaths {
		scaleStroke(&icon.SVGPaths[i].PathStyle, scale)
	}
	img = image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	icon.Draw(rasterx.NewDasher(w, h, newSVGScanner(img, &budget)), 1)
	return img, nil
}

// scaleStroke brings the stroke of a path, which the library takes in
// device pixels, to the scale of the drawing. Dashes shorter than a
// pixel are drawn as a plain line.
func scaleStroke(st *oksvg.PathStyle, scale float64) {
	st.LineWidth *= scale
	st.DashOffset *= scale
	if len(st.Dash) == 0 {
		return
	}
	dash := make([]float64, len(st.Dash))
	period := 0.0
	for i, d := range st.Dash {
		dash[i] = max(d, 0) * scale
		period += dash[i]
	}
	if !(period >= 1) || math.IsInf(period, 0) {
		dash = nil
	}
	st.Dash = dash
}
