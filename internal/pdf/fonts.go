package pdf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// Face names one of the typefaces a document is set in.
type Face int

// The faces of a document.
const (
	FaceRegular Face = iota
	FaceBold
	FaceItalic
	FaceBoldItalic
	FaceMono
	// FaceCJK sets the characters the faces above lack (Chinese,
	// Japanese); it is optional.
	FaceCJK
	// FaceHangul sets the Korean characters FaceCJK lacks; it is
	// optional.
	FaceHangul
	faceCount
)

// fontFamily is the family name a face is registered under in a PDF.
func (f Face) fontFamily() string {
	return [...]string{"regular", "bold", "italic", "bolditalic", "mono", "cjk", "hangul"}[f]
}

// DefaultFontDirs returns the directories searched for fonts after the
// configured one: where Debian's fonts-dejavu-core and
// fonts-droid-fallback and fonts-nanum install them.
func DefaultFontDirs() []string {
	return []string{"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/droid",
		"/usr/share/fonts/truetype/nanum", "/usr/local/share/fonts"}
}

// fontFiles returns the file names tried for a face, best first. Only
// TrueType outlines (glyf) can be embedded, so OpenType/CFF collections
// such as Noto CJK are not among them.
func fontFiles(face Face) []string {
	switch face {
	case FaceRegular:
		return []string{"DejaVuSans.ttf"}
	case FaceBold:
		return []string{"DejaVuSans-Bold.ttf"}
	case FaceItalic:
		return []string{"DejaVuSans-Oblique.ttf"}
	case FaceBoldItalic:
		return []string{"DejaVuSans-BoldOblique.ttf"}
	case FaceMono:
		return []string{"DejaVuSansMono.ttf"}
	case FaceCJK:
		return []string{"DroidSansFallbackFull.ttf", "DroidSansFallback.ttf"}
	case FaceHangul:
		return []string{"NanumGothic.ttf"}
	}
	return nil
}

// goFont returns the Go font standing in for a Latin face when no system
// font is found; the module carries them. They have no CJK glyphs.
func goFont(face Face) []byte {
	switch face {
	case FaceRegular:
		return goregular.TTF
	case FaceBold:
		return gobold.TTF
	case FaceItalic:
		return goitalic.TTF
	case FaceBoldItalic:
		return gobolditalic.TTF
	case FaceMono:
		return gomono.TTF
	}
	return nil
}

// Fonts are the TrueType fonts documents are set in, read once and
// shared by every rendering.
type Fonts struct {
	data  [faceCount][]byte
	paths [faceCount]string
	cover [faceCount]*coverage
}

// LoadFonts reads the fonts from dir, when given, then from the default
// directories; a Latin face found nowhere falls back to the Go fonts, and
// without a CJK font CJK characters cannot be shown.
func LoadFonts(dir string) (*Fonts, error) {
	dirs := DefaultFontDirs()
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("pdf font directory %q: not a readable directory", dir)
		}
		dirs = append([]string{dir}, dirs...)
	}
	f := &Fonts{}
	for face := range faceCount {
		for _, name := range fontFiles(face) {
			if p, data := findFont(dirs, name); data != nil {
				f.data[face], f.paths[face] = data, p
				break
			}
		}
		if f.data[face] == nil && goFont(face) != nil {
			f.data[face], f.paths[face] = goFont(face), "go:"+face.fontFamily()
		}
		if f.data[face] == nil {
			continue
		}
		c, err := newCoverage(f.data[face])
		if err != nil {
			return nil, fmt.Errorf("pdf font %s: %w", f.paths[face], err)
		}
		f.cover[face] = c
	}
	return f, nil
}

// findFont returns the path and bytes of the first file called name in
// dirs.
func findFont(dirs []string, name string) (string, []byte) {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if data, err := os.ReadFile(p); err == nil {
			return p, data
		}
	}
	return "", nil
}

// HasCJK reports whether fonts for Chinese, Japanese and Korean were
// found.
func (f *Fonts) HasCJK() bool { return f.data[FaceCJK] != nil && f.data[FaceHangul] != nil }

// Sources tells where each face was read from: a file path, or "go:…"
// for the Go fonts.
func (f *Fonts) Sources() map[string]string {
	out := map[string]string{}
	for face := range faceCount {
		if f.paths[face] != "" {
			out[face.fontFamily()] = f.paths[face]
		}
	}
	return out
}

// has reports whether face has a glyph for r.
func (f *Fonts) has(face Face, r rune) bool {
	c := f.cover[face]
	return c != nil && c.has(r)
}

// coverage answers which characters a font has glyphs for, remembering
// the answers.
type coverage struct {
	mu   sync.Mutex
	font *sfnt.Font
	buf  sfnt.Buffer
	seen map[rune]bool
}

func newCoverage(data []byte) (*coverage, error) {
	fnt, err := sfnt.Parse(data)
	if err != nil {
		return nil, err
	}
	return &coverage{font: fnt, seen: map[rune]bool{}}, nil
}

func (c *coverage) has(r rune) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.seen[r]; ok {
		return v
	}
	i, err := c.font.GlyphIndex(&c.buf, r)
	v := err == nil && i != 0
	if err != nil && !errors.Is(err, sfnt.ErrNotFound) {
		v = false
	}
	c.seen[r] = v
	return v
}
