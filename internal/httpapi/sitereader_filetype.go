package httpapi

import (
	"path"
	"strings"
)

// imageTypes are the media types of the image formats browsers show, by
// file extension.
var imageTypes = map[string]string{
	".png":  "image/png",
	".apng": "image/apng",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".avif": "image/avif",
	".bmp":  "image/bmp",
	".ico":  "image/x-icon",
	".svg":  svgType,
}

// svgType is the media type of SVG images.
const svgType = "image/svg+xml"

// Content-Security-Policy of the files of a site: nothing in a file runs
// or loads anything when it is opened directly; an SVG image keeps its
// inline styles.
const (
	fileCSP = "default-src 'none'; sandbox"
	svgCSP  = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
)

// siteFileType returns the Content-Type and Content-Security-Policy a
// file of a site is served with. An image is served as its kind by its
// name's extension, whatever type was guessed when it was stored (an
// SVG sniffed as text/xml, say), so that browsers show it; any other
// markup or script is served as bytes to download.
func siteFileType(name, stored string) (contentType, csp string) {
	ct, ok := imageTypes[strings.ToLower(path.Ext(name))]
	if !ok {
		ct = strings.ToLower(strings.TrimSpace(stored))
		if media, _, _ := strings.Cut(ct, ";"); strings.TrimSpace(media) == svgType {
			ct = svgType
		}
	}
	switch {
	case ct == svgType:
		return svgType, svgCSP
	case ct == "" || strings.Contains(ct, "html") || strings.Contains(ct, "xml") || strings.Contains(ct, "javascript"):
		return "application/octet-stream", fileCSP
	}
	return ct, fileCSP
}
