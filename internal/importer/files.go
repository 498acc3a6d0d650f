package importer

import (
	"mime"
	"path"
	"strconv"
	"strings"
)

// Files is a GitBook-format repository: slash-separated path to bytes.
type Files map[string][]byte

// Paths of the repository's fixed files.
const (
	// ReadmePath is the first page of the space.
	ReadmePath = "README.md"
	// SummaryPath is the table of contents that fixes the page order.
	SummaryPath = "SUMMARY.md"
	// AssetsDir holds every file that is not a page.
	AssetsDir = ".gitbook/assets"
)

// relPath is the relative reference from the file at from to the file at
// to, both slash paths from the repository root.
func relPath(from, to string) string {
	fromDir := strings.Split(path.Dir(from), "/")
	if fromDir[0] == "." {
		fromDir = nil
	}
	toParts := strings.Split(to, "/")
	i := 0
	for i < len(fromDir) && i < len(toParts)-1 && fromDir[i] == toParts[i] {
		i++
	}
	return strings.Repeat("../", len(fromDir)-i) + strings.Join(toParts[i:], "/")
}

// assetNames hands out unique file names under AssetsDir.
type assetNames struct {
	used map[string]bool
}

func newAssetNames() *assetNames { return &assetNames{used: map[string]bool{}} }

// reserve marks name as taken and reports whether it was free.
func (a *assetNames) reserve(name string) bool {
	key := strings.ToLower(name)
	if a.used[key] {
		return false
	}
	a.used[key] = true
	return true
}

// claim returns a free asset path for a file first named name (a URL or
// archive base name) of the given content type.
func (a *assetNames) claim(name, contentType string) string {
	name = safeName(name)
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if ext == "" {
		ext = extensionFor(contentType)
	}
	if stem == "" {
		stem = "file"
	}
	for i := 0; ; i++ {
		n := stem + ext
		if i > 0 {
			n = stem + "-" + strconv.Itoa(i) + ext
		}
		if a.reserve(n) {
			return AssetsDir + "/" + n
		}
	}
}

// safeName keeps letters, digits, '.', '-' and '_' of name, turning runs of
// anything else into one '-', and drops leading dots.
func safeName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	s := strings.ReplaceAll(b.String(), "-.", ".")
	s = strings.TrimLeft(strings.Trim(s, "-"), ".")
	if len(s) > 100 {
		ext := path.Ext(s)
		if len(ext) > 10 {
			ext = ""
		}
		s = s[:100-len(ext)] + ext
	}
	return s
}

// extensionFor is the usual file extension of a media type, or "".
func extensionFor(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	switch mt {
	case "image/jpeg":
		return ".jpg"
	case "image/png":
		return ".png"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "image/avif":
		return ".avif"
	}
	if exts, _ := mime.ExtensionsByType(mt); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// isImageName reports whether a file name or URL path ends like an image.
func isImageName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".bmp", ".ico", ".tif", ".tiff":
		return true
	}
	return false
}
