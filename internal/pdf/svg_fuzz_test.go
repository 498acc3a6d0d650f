package pdf

import (
	"math"
	"testing"
)

// FuzzRasterizeSVG draws arbitrary documents as placeSVG does, at a
// small size: the check and the drawing must not panic or run without
// bound, and what the check passes has a size within its limits and
// draws at the size asked, or is refused.
func FuzzRasterizeSVG(f *testing.F) {
	for _, seed := range []string{
		svgDrawing,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M1 1 L9 1 Q9 9 1 9 Z" fill="red" stroke="blue" stroke-dasharray="1 2"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="3em" height="2cm"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="rgb(1,2,3)"/></linearGradient><rect id="r" width="4" height="4"/></defs><use href="#r" x="2"/><ellipse rx="3" ry="2" fill="url(#g)"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="0"><g transform="rotate(30) scale(2,1e6) skewX(10)"><polyline points="0,0 5,5 1e300,2"/></g></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:hsl(120,50%,50%)}</style><circle class="a" r="5"/><image href="http://127.0.0.1:1/x.png"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"><use href="#a"/></g></defs><use href="#a"/></svg>`,
		`<svg><g><g><rect width="1" height="1"></g></svg>`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := checkSVG(data)
		if err != nil {
			return
		}
		for _, v := range []float64{info.width, info.height} {
			if math.IsNaN(v) || v < 1 || v > maxSVGSide {
				t.Fatalf("size %g×%g out of bounds", info.width, info.height)
			}
		}
		r := &renderer{width: 60}
		w, h := r.fitImage(info.width, info.height)
		pw, ph := svgRasterSize(w, h)
		if pw*ph > maxSVGPixels {
			t.Fatalf("rasterized at %d×%d", pw, ph)
		}
		img, err := rasterizeSVG(info, pw, ph, fullSVGBudget())
		if err == nil && (img.Bounds().Dx() != pw || img.Bounds().Dy() != ph) {
			t.Fatalf("drawn at %v, asked %d×%d", img.Bounds(), pw, ph)
		}
	})
}
