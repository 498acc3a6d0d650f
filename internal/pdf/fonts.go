package pdf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// Fonts are the TrueType fonts documents are set in: found when the
// server starts, read on first use and shared by every rendering.
type Fonts struct {
	paths [faceCount]string
	once  sync.Once
	err   error
	data  [faceCount][]byte
	cover [faceCount]*coverage
}

// LoadFonts finds the fonts in dir, when given, then in the default
// directories; a Latin face found nowhere falls back to the Go fonts, and
// without CJK fonts CJK characters cannot be shown. The files are read
// when the first document is set.
func LoadFonts(dir string) (*Fonts, error) {
	dirs := DefaultFontDirs()
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("pdf font directory %q: not a readable directory", dir)
		}
		dirs = append([]string{dir}, dirs...)
	}
	return findFonts(dirs), nil
}

// findFonts finds each face in dirs, falling back to the Go fonts.
func findFonts(dirs []string) *Fonts {
	f := &Fonts{}
	for face := range faceCount {
		for _, name := range fontFiles(face) {
			if p := findFont(dirs, name); p != "" {
				f.paths[face] = p
				break
			}
		}
		if f.paths[face] == "" && goFont(face) != nil {
			f.paths[face] = goFontPrefix + face.fontFamily()
		}
	}
	return f
}

// goFontPrefix marks the Go fonts in Sources.
const goFontPrefix = "go:"

// load reads the fonts found, once.
func (f *Fonts) load() error {
	f.once.Do(func() {
		for face := range faceCount {
			p := f.paths[face]
			switch {
			case p == "":
				continue
			case strings.HasPrefix(p, goFontPrefix):
				f.data[face] = goFont(face)
			default:
				data, err := os.ReadFile(p)
				if err != nil {
					f.err = fmt.Errorf("pdf font: %w", err)
					return
				}
				f.data[face] = data
			}
			c, err := newCoverage(f.data[face])
			if err != nil {
				f.err = fmt.Errorf("pdf font %s: %w", p, err)
				return
			}
			f.cover[face] = c
		}
	})
	return f.err
}

// findFont returns the path of the first regular file called name in
// dirs, or "".
func findFont(dirs []string, name string) string {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// HasCJK reports whether fonts for Chinese, Japanese and Korean were
// found.
func (f *Fonts) HasCJK() bool { return f.paths[FaceCJK] != "" && f.paths[FaceHangul] != "" }

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
