package importer

import (
	"net/url"
	"strings"
	"testing"
)

func TestRelPath(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"README.md", "guide/a.md", "guide/a.md"},
		{"guide/a.md", "README.md", "../README.md"},
		{"guide/a.md", "guide/b.md", "b.md"},
		{"guide/deep/a.md", "other/b.md", "../../other/b.md"},
		{"guide/a.md", ".gitbook/assets/x.png", "../.gitbook/assets/x.png"},
		{"a.md", "a.md", "a.md"},
	} {
		if got := relPath(c.from, c.to); got != c.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

func TestRewriteLinks(t *testing.T) {
	lr := newLinkRewriter()
	var seen []string
	fn := func(dest string, image bool) (string, bool) {
		kind := "link"
		if image {
			kind = "image"
		}
		seen = append(seen, kind+":"+dest)
		if dest == "keep" {
			return "", false
		}
		return "NEW " + dest, true
	}
	src := strings.Join([]string{
		`[a](x.md) ![b](y.png "title") [keep](keep)`,
		`[![badge](b.svg)](target.md)`,
		`[p](<with space.md>) [q](u(1).md) \[not](n.md) ` + "`[code](c.md)`",
		"```js",
		"[fenced](f.md)",
		"```",
		"   [ref]: r.md \"t\"",
		`<img src="i.png" alt=""> <a href='h.md'>h</a>`,
		`{% file src="doc.pdf" %}x{% endfile %}`,
		"~~~~",
		"[fenced2](f2.md)",
		"~~~",
		"~~~~",
		"[after](z.md)",
	}, "\n")
	got := lr.rewrite(src, fn)
	want := strings.Join([]string{
		`[a](<NEW x.md>) ![b](<NEW y.png> "title") [keep](keep)`,
		`[![badge](<NEW b.svg>)](<NEW target.md>)`,
		`[p](<NEW with space.md>) [q](<NEW u(1).md>) \[not](n.md) ` + "`[code](c.md)`",
		"```js",
		"[fenced](f.md)",
		"```",
		"   [ref]: <NEW r.md> \"t\"",
		`<img src="NEW i.png" alt=""> <a href='NEW h.md'>h</a>`,
		`{% file src="NEW doc.pdf" %}x{% endfile %}`,
		"~~~~",
		"[fenced2](f2.md)",
		"~~~",
		"~~~~",
		"[after](<NEW z.md>)",
	}, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	wantSeen := "link:x.md image:y.png link:keep image:b.svg link:target.md link:with space.md link:u(1).md link:r.md image:i.png link:h.md link:doc.pdf link:z.md"
	if s := strings.Join(seen, " "); s != wantSeen {
		t.Errorf("seen %s\nwant %s", s, wantSeen)
	}
}

func TestCanonicalAndScope(t *testing.T) {
	for in, want := range map[string]string{
		"HTTP://Example.COM:80/a/./b/../c/index.html#x": "http://example.com/a/c/",
		"https://example.com:443":                       "https://example.com/",
		"https://u:p@example.com/a?b=2&a=1":             "https://example.com/a?a=1&b=2",
	} {
		u, _ := url.Parse(in)
		if got := canonical(u).String(); got != want {
			t.Errorf("canonical(%s) = %s, want %s", in, got, want)
		}
	}
	for start, prefix := range map[string]string{
		"https://x.com":                 "/",
		"https://x.com/docs":            "/docs/",
		"https://x.com/docs/":           "/docs/",
		"https://x.com/docs/intro.html": "/docs/",
		"https://x.com/a.html":          "/",
	} {
		u, _ := url.Parse(start)
		if got := scopeOf(u).prefix; got != prefix {
			t.Errorf("scopeOf(%s).prefix = %s, want %s", start, got, prefix)
		}
	}
	u, _ := url.Parse("https://x.com/docs")
	sc := scopeOf(u)
	for in, want := range map[string]bool{
		"https://x.com/docs": true, "https://x.com/docs/a": true, "https://x.com/docsx": false,
		"http://x.com/docs/a": false, "https://y.com/docs/a": false, "https://x.com/": false,
	} {
		v, _ := url.Parse(in)
		if got := sc.contains(canonical(v)); got != want {
			t.Errorf("contains(%s) = %v", in, got)
		}
	}
	v, _ := url.Parse("https://x.com/docs/Getting%20Started/Read%20Me.HTML?page=2")
	if got := strings.Join(sc.segments(canonical(v)), "/"); got != "getting-started/read-me-page-2" {
		t.Errorf("segments = %s", got)
	}
}
