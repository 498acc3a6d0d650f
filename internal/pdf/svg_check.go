package pdf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Limits on the SVG documents drawn, checked before the drawing library
// reads them.
const (
	// maxSVGBytes is the largest SVG file drawn.
	maxSVGBytes = 2 << 20
	// maxSVGElements bounds the elements of an SVG, counting each
	// element a <use> copies once per copy.
	maxSVGElements = 20_000
	// maxSVGDepth bounds the nesting of the elements.
	maxSVGDepth = 64
	// maxSVGSide bounds each side of an SVG's own size, in CSS pixels.
	maxSVGSide = 20_000
	// defaultSVGWidth and defaultSVGHeight are the size of an SVG that
	// states none, as browsers take it.
	defaultSVGWidth, defaultSVGHeight = 300, 150
)

// Errors of the SVG check.
var (
	errNotSVG    = errors.New("svg: not an SVG document")
	errSVGLimits = errors.New("svg: document over the limits")
)

// hiddenSVGElements are the SVG elements whose content is not drawn
// where it stands (clip paths, masks, symbols, patterns, markers,
// filters) or not drawn at all. The drawing library knows none of them
// and would draw their shapes as if they stood in the picture, so they
// are removed before it reads the document.
var hiddenSVGElements = map[string]bool{
	"clipPath": true, "mask": true, "symbol": true, "pattern": true, "marker": true, "filter": true,
	"foreignObject": true, "metadata": true, "script": true, "text": true,
}

// svgInfo is what the check learns of an SVG document.
type svgInfo struct {
	// doc is the document without its hidden elements.
	doc []byte
	// width and height are its size in CSS pixels.
	width, height float64
	// viewBox is its user space, x, y, width, height; zero when the
	// document has none.
	viewBox [4]float64
}

// checkSVG reads an SVG document as XML tokens, refusing it when it is
// not an SVG in UTF-8, malformed, nested too deep or too large once its
// <use> elements are expanded, and returns its size and its drawn part.
// A <use> inside <defs> is refused: the drawing library follows those
// references without bound.
func checkSVG(data []byte) (svgInfo, error) {
	var info svgInfo
	if len(data) > maxSVGBytes {
		return info, errSVGLimits
	}
	// Without a CharsetReader the decoder refuses encodings other than
	// UTF-8, so its offsets are offsets into data.
	dec := xml.NewDecoder(bytes.NewReader(data))
	depth, elements, defsDepth, defsElements, uses := 0, 0, 0, 0, 0
	// hidden is the depth of the hidden element being skipped, from
	// hiddenFrom; 0 outside one.
	hidden, hiddenFrom := 0, int64(0)
	var doc bytes.Buffer
	kept := int64(0)
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return info, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			elements++
			if depth > maxSVGDepth || elements > maxSVGElements {
				return info, errSVGLimits
			}
			if depth == 1 {
				if t.Name.Local != "svg" {
					return info, errNotSVG
				}
				info = rootInfo(t.Attr)
			}
			if hidden > 0 {
				continue
			}
			if hiddenSVGElements[t.Name.Local] {
				hidden, hiddenFrom = depth, start
				continue
			}
			if defsDepth > 0 {
				defsDepth++
				defsElements++
				if t.Name.Local == "use" {
					return info, errSVGLimits
				}
			} else if t.Name.Local == "defs" {
				defsDepth = 1
			} else if t.Name.Local == "use" {
				uses++
			}
		case xml.EndElement:
			if hidden == depth {
				doc.Write(data[kept:hiddenFrom])
				kept, hidden = dec.InputOffset(), 0
			} else if hidden == 0 && defsDepth > 0 {
				defsDepth--
			}
			depth--
		}
	}
	if elements == 0 {
		return info, errNotSVG
	}
	if uses > 0 && defsElements > (maxSVGElements-elements)/uses {
		return info, errSVGLimits
	}
	doc.Write(data[kept:])
	info.doc = doc.Bytes()
	return info, nil
}

// rootInfo reads the size and user space of the root <svg> element.
func rootInfo(attrs []xml.Attr) svgInfo {
	var info svgInfo
	w, h := math.NaN(), math.NaN()
	for _, a := range attrs {
		switch a.Name.Local {
		case "width":
			w = cssLength(a.Value)
		case "height":
			h = cssLength(a.Value)
		case "viewBox":
			f := strings.FieldsFunc(a.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
			if len(f) != 4 {
				continue
			}
			var vb [4]float64
			ok := true
			for i, s := range f {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					ok = false
				}
				vb[i] = v
			}
			if ok && vb[2] > 0 && vb[3] > 0 {
				info.viewBox = vb
			}
		}
	}
	vw, vh := info.viewBox[2], info.viewBox[3]
	switch {
	case w > 0 && h > 0:
	case w > 0 && vw > 0:
		h = w * vh / vw
	case h > 0 && vw > 0:
		w = h * vw / vh
	case vw > 0:
		w, h = vw, vh
	default:
		w, h = defaultSVGWidth, defaultSVGHeight
	}
	if math.IsInf(w, 0) || math.IsInf(h, 0) {
		w, h = defaultSVGWidth, defaultSVGHeight
	}
	// Keep the shape while bringing both sides within bounds.
	if s := maxSVGSide / max(w, h); s < 1 {
		w, h = w*s, h*s
	}
	info.width, info.height = max(w, 1), max(h, 1)
	return info
}

// cssLength reads an absolute CSS length as pixels; NaN for a relative
// one (a percentage) or one it cannot read.
func cssLength(s string) float64 {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		px     float64
	}{{"px", 1}, {"pt", 4.0 / 3}, {"pc", 16}, {"mm", 96 / 25.4}, {"cm", 96 / 2.54}, {"in", 96}, {"em", 16}, {"ex", 8}, {"", 1}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return math.NaN()
		}
		return v * u.px
	}
	return math.NaN()
}
