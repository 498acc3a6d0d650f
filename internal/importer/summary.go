package importer

import (
	"strings"
)

// summaryOf is the SUMMARY.md of crawled pages: the first page first, then
// each page under the nearest page whose path is a prefix of its own,
// siblings in crawl order.
func summaryOf(pages []*crawled) []byte {
	index := map[string]int{}
	for i, cr := range pages {
		index[strings.Join(cr.segs, "/")] = i
	}
	children := make([][]int, len(pages))
	var top []int
	for i, cr := range pages {
		if i == 0 {
			continue
		}
		parent := -1
		for k := len(cr.segs) - 1; k > 0 && parent < 0; k-- {
			if j, ok := index[strings.Join(cr.segs[:k], "/")]; ok {
				parent = j
			}
		}
		if parent <= 0 {
			top = append(top, i)
		} else {
			children[parent] = append(children[parent], i)
		}
	}
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	var write func(i, depth int)
	write = func(i, depth int) {
		b.WriteString(strings.Repeat("  ", depth) + "* [" + escapeLinkText(pages[i].title) + "](" + linkDest(pages[i].path) + ")\n")
		for _, c := range children[i] {
			write(c, depth+1)
		}
	}
	if len(pages) > 0 {
		write(0, 0)
	}
	for _, i := range top {
		write(i, 0)
	}
	return []byte(b.String())
}

// escapeLinkText escapes what would end or break a Markdown link text.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, "\n", " ").Replace(s)
}

// linkDest writes a link destination, in angle brackets when it holds
// characters a bare destination cannot.
func linkDest(dest string) string {
	if strings.ContainsAny(dest, " ()<>\t") {
		return "<" + strings.NewReplacer("<", `\<`, ">", `\>`).Replace(dest) + ">"
	}
	return dest
}
