package gitbook

import (
	"testing"
)

// FuzzRead reads repositories made of a table of contents, a
// configuration and page files: Read must not panic, and what it reads
// must export and read back as the same tree. Files may move: a page
// whose slug Read had to change is written at its new slug.
func FuzzRead(f *testing.F) {
	seeds := []struct{ summary, config, page string }{
		{"# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/page.md)\n", "", "# Page\n\nText [home](../README.md).\n"},
		{"## Group <a href=\"#g\" id=\"g\"></a>\n\n* [A](guide/page.md#x)\n  * [B](https://example.com)\n", "root: ./\n", "---\nicon: book\nhidden: true\n---\n# 👋 Hi\n"},
		{"* ```yaml\n  type: builtin:openapi\n  ```\n", "structure:\n  readme: guide/page.md\n", "---\nlayout:\n  width: wide\n---\n"},
		{"\t- [a](<guide/page.md>)\n\t\t- [b](./)\n", "redirects:\n  a/b: guide/page.md\n", "![x](../.gitbook/assets/a.png) <img src=\"../README.md\">"},
		{"* [x](../../y.md)\n* text\n    * [c](c.md 'z')", "root: [", "---\ncover: x\ncoverY: [\n---\n# T #\n"},
	}
	for _, s := range seeds {
		f.Add(s.summary, s.config, s.page)
	}
	f.Fuzz(func(t *testing.T, summary, config, page string) {
		files := Files{
			"SUMMARY.md":            []byte(summary),
			".gitbook.yaml":         []byte(config),
			"README.md":             []byte(page),
			"guide/page.md":         []byte(page),
			".gitbook/assets/a.png": []byte("\x89PNG"),
			"guide/README.md":       []byte("# Guide\n"),
		}
		sp, err := Read(files, pathIDs{})
		if err != nil {
			return
		}
		out, err := Write(sp)
		if err != nil {
			t.Fatalf("Write of what Read gave: %v", err)
		}
		back, err := Read(out, pathIDs{})
		if err != nil {
			t.Fatalf("Read of what Write gave: %v", err)
		}
		if got, want := outlineOf(back.Pages, false), outlineOf(sp.Pages, false); got != want {
			t.Fatalf("tree changed:\n%s\nwant:\n%s", got, want)
		}
		// With the ids of the first Read, the pages are the same. (Their
		// documents are the Markdown dialect's own round trip, which its
		// package tests.)
		again, err := Read(out, idsFor(t, back, sp))
		if err != nil {
			t.Fatalf("Read of what Write gave: %v", err)
		}
		compareTreesOf(t, again.Pages, sp.Pages, "", false)
	})
}
