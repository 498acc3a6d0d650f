package pdf

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// maxRawImages bounds the images one raw HTML block sets.
const maxRawImages = 64

// rawImages sets the images of a raw HTML block (<img>, or the <img> of a
// <picture>) whose source names a file of the space; the rest of the
// block, which the document does not model, leaves no trace.
func (r *renderer) rawImages(n document.Node) {
	src, _ := n.Data["markdown"].(string)
	if r.open == nil || r.fileID == nil || !strings.Contains(src, "<") {
		return
	}
	for _, img := range htmlImages(src) {
		id := r.fileID(img.path)
		if id == "" || !r.placeImage(id) {
			if img.alt != "" {
				r.paragraph(r.plainUnits("["+img.alt+"]", style{face: FaceItalic, size: bodySize, color: colorMuted}), 0)
			}
		}
		r.y += 6
	}
}

// htmlImage is an image of raw HTML: the repository path of its source
// and its alternative text.
type htmlImage struct {
	path, alt string
}

// htmlImages returns the images of a piece of HTML whose sources are
// paths of the repository, unescaped, without query or fragment.
func htmlImages(src string) []htmlImage {
	var out []htmlImage
	z := html.NewTokenizer(strings.NewReader(src))
	for len(out) < maxRawImages {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		t := z.Token()
		if t.DataAtom != atom.Img {
			continue
		}
		var img htmlImage
		for _, a := range t.Attr {
			switch a.Key {
			case "src":
				img.path = repositoryPath(a.Val)
			case "alt":
				img.alt = a.Val
			}
		}
		if img.path != "" {
			out = append(out, img)
		}
	}
	return out
}

// repositoryPath returns the path an address names relative to the page,
// as repositories write them, or "" for a URL, a site path or an anchor.
func repositoryPath(u string) string {
	u = strings.TrimSpace(u)
	if u == "" || document.HasScheme(u) || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "#") ||
		strings.HasPrefix(u, "?") {
		return ""
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if p, err := url.PathUnescape(u); err == nil {
		u = p
	}
	return u
}
