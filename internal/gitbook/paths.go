package gitbook

import (
	"net/url"
	"path"
	"strings"

	"quire/internal/document"
)

// File and folder names of the layout.
const (
	configFile     = ".gitbook.yaml"
	defaultReadme  = "README.md"
	defaultSummary = "SUMMARY.md"
	gitbookDir     = ".gitbook"
	assetsDir      = ".gitbook/assets"
	readmeName     = "README.md"
	mdExt          = ".md"
)

// cleanPath normalises a relative slash path: "./" and duplicate slashes
// go, "a/../b" becomes "b". It reports false for an absolute path, a
// path leaving its base through "..", or one with a backslash or NUL.
// The empty path and "." give "".
func cleanPath(p string) (string, bool) {
	if strings.ContainsAny(p, "\\\x00") || strings.HasPrefix(p, "/") {
		return "", false
	}
	c := path.Clean(p)
	if c == "." {
		return "", true
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// joinPath joins a folder and a relative path and cleans the result; see
// cleanPath. A path starting with "/" is taken from the root instead.
func joinPath(dir, rel string) (string, bool) {
	if strings.HasPrefix(rel, "/") {
		return cleanPath(strings.TrimLeft(rel, "/"))
	}
	if dir == "" {
		return cleanPath(rel)
	}
	return cleanPath(dir + "/" + rel)
}

// dirOf returns the folder of a slash path, "" at the top.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// baseOf returns the last element of a slash path.
func baseOf(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// relPath returns the path of target relative to the folder dir, both
// relative to the same root: "../b/c.md" from "a" to "b/c.md".
func relPath(dir, target string) string {
	if dir == "" {
		return target
	}
	from := strings.Split(dir, "/")
	to := strings.Split(target, "/")
	n := 0
	for n < len(from) && n < len(to)-1 && from[n] == to[n] {
		n++
	}
	var b strings.Builder
	for range len(from) - n {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(to[n:], "/"))
	return b.String()
}

// isMarkdown reports whether a file name is a Markdown page file.
func isMarkdown(p string) bool {
	return strings.HasSuffix(strings.ToLower(p), mdExt)
}

// isReadme reports whether a path names a folder's README.md.
func isReadme(p string) bool {
	return strings.EqualFold(baseOf(p), readmeName)
}

// underDir reports whether p lies in the folder dir ("" is the root).
func underDir(p, dir string) bool {
	return dir == "" || strings.HasPrefix(p, dir+"/")
}

// splitTarget splits a Markdown link target into its path and fragment.
// A "?query" is dropped from the path.
func splitTarget(t string) (p, fragment string, hasFragment bool) {
	p = t
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p, fragment, hasFragment = p[:i], p[i+1:], true
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p, fragment, hasFragment
}

// unescapePath decodes %XX escapes in a path; invalid escapes leave it
// as written.
func unescapePath(p string) string {
	if !strings.Contains(p, "%") {
		return p
	}
	u, err := url.PathUnescape(p)
	if err != nil {
		return p
	}
	return u
}

// escapeTarget escapes the characters of a file path that would read
// back as something else in a link target: "#" and "?" start a fragment
// and a query, and "%" escapes are decoded on read.
func escapeTarget(p string) string {
	if !strings.ContainsAny(p, "#?%") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '%':
			b.WriteString("%25")
		case '#':
			b.WriteString("%23")
		case '?':
			b.WriteString("%3F")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TargetPath returns the path, relative to the content root as Page.Path
// is, that a link target written in the page file at pagePath names
// (other-page.md, ../dir/README.md): its fragment and query dropped, its
// escapes decoded. It reports false for a URL, an anchor of the page, or
// a path leaving the root. Site readers use it with Paths to find the
// page that raw HTML links of a page name.
func TargetPath(pagePath, target string) (string, bool) {
	if target == "" || document.HasScheme(target) {
		return "", false
	}
	p, _, _ := splitTarget(target)
	if p == "" {
		return "", false
	}
	out, ok := joinPath(dirOf(pagePath), unescapePath(p))
	return out, ok && out != ""
}
