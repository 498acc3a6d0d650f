package gitbook

import (
	"strings"

	"quire/internal/content"
)

// pathSlug is the slug a page file's path gives: the file name without
// ".md", or the folder's name for a README.md; the landing README.md at
// the root takes its title's.
func pathSlug(path, title string) string {
	if isReadme(path) {
		if d := dirOf(path); d != "" {
			return content.Slugify(baseOf(d))
		}
		return content.Slugify(title)
	}
	return content.Slugify(stemOf(path))
}

// stemOf returns a file name without its extension.
func stemOf(path string) string {
	b := baseOf(path)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// humanize turns a file or folder name into a title: separators become
// spaces and the first letter is upper case.
func humanize(name string) string {
	s := strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	if s == "" {
		return "Untitled"
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}

// normalizeNewlines turns "\r\n" and lone "\r" line endings into "\n".
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
