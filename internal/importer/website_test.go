package importer_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"quire/internal/importer"
)

// docsSite is a small site: /docs/ with a subfolder, a cycle of links, an
// image, a page robots.txt forbids and a page outside the prefix.
func docsSite(t *testing.T) *site {
	return serve(t, map[string]resource{
		"/robots.txt": {"text/plain", "User-agent: *\nDisallow: /docs/private/\n"},
		"/docs/": html("Home", `<nav><a href="/docs/guide/">Guide</a><a href="about.html">About</a></nav>
			<main><h1>Welcome</h1><p>Read the <a href="guide/">guide</a>, then
			<a href="guide/install.html#steps">install</a> and <a href="about.html#team">meet us</a>.</p>
			<p><img src="img/logo.png" alt="Logo"></p>
			<p><a href="private/secret.html">secret</a> <a href="/outside.html">outside</a>
			<a href="https://example.com/x">elsewhere</a></p></main>`),
		"/docs/guide/": html("Guide", `<main><h1>Guide</h1><p>See <a href="install.html">install</a>
			and go <a href="../index.html">home</a>.</p></main>`),
		"/docs/guide/install.html": html("Install", `<main><h1>Install</h1><h2 id="steps">Steps</h2>
			<ol><li>Up to the <a href="./">guide</a></li><li>Back to <a href="../">home</a></li><li>See <a href="../about.html">about</a></li></ol>
			<pre><code>make install</code></pre></main>`),
		"/docs/about.html": html("About", `<header>Site header</header><nav>Menu</nav>
			<h1>About</h1><h2 id="team">Team</h2><p>We <strong>write</strong> docs.</p>
			<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
			<footer>Footer text</footer><script>alert(1)</script>`),
		"/docs/img/logo.png":        png,
		"/docs/private/secret.html": html("Secret", "<p>secret</p>"),
		"/outside.html":             html("Outside", "<p>outside</p>"),
	})
}

func TestWebsiteCrawl(t *testing.T) {
	s := docsSite(t)
	res := run(t, newImporter(importer.Options{}), importer.SourceWebsite, s.URL+"/docs/")
	want := []string{"README.md", "guide/README.md", "guide/install.md", "about.md", ".gitbook/assets/logo.png", "SUMMARY.md"}
	got := keys(res.Files)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	wantContains(t, res.Files, "README.md",
		"# Welcome\n",
		"[guide](guide/README.md)",
		"[install](guide/install.md#steps)",
		"[meet us](about.md#team)",
		"![Logo](.gitbook/assets/logo.png)",
		"("+s.URL+"/outside.html)",
		"(https://example.com/x)",
		"("+s.URL+"/docs/private/secret.html)",
	)
	if strings.Contains(string(res.Files["README.md"]), "Welcome\n\n# Welcome") {
		t.Error("the title is repeated")
	}
	wantContains(t, res.Files, "guide/README.md", "# Guide\n", "[install](install.md)", "[home](../README.md)")
	wantContains(t, res.Files, "guide/install.md", "# Install\n", "[home](../README.md)", "[about](../about.md)", "[guide](README.md)", "make install")
	wantContains(t, res.Files, "about.md", "# About\n", "**write**", "| a | b |")
	for _, leak := range []string{"Site header", "Menu", "Footer text", "alert"} {
		if strings.Contains(string(res.Files["about.md"]), leak) {
			t.Errorf("about.md holds %q:\n%s", leak, res.Files["about.md"])
		}
	}
	if string(res.Files[".gitbook/assets/logo.png"]) != png.body {
		t.Error("the image bytes differ")
	}
	wantSummary := "# Table of contents\n\n" +
		"* [Welcome](README.md)\n" +
		"* [Guide](guide/README.md)\n" +
		"  * [Install](guide/install.md)\n" +
		"* [About](about.md)\n"
	if got := string(res.Files["SUMMARY.md"]); got != wantSummary {
		t.Errorf("SUMMARY.md:\n%s\nwant:\n%s", got, wantSummary)
	}
	for _, p := range []string{"/docs/private/secret.html", "/outside.html"} {
		if n := s.hit(p); n != 0 {
			t.Errorf("%s was fetched %d times", p, n)
		}
	}
	for _, p := range []string{"/docs/", "/docs/guide/", "/docs/guide/install.html", "/docs/about.html", "/docs/img/logo.png"} {
		if n := s.hit(p); n != 1 {
			t.Errorf("%s was fetched %d times, want once", p, n)
		}
	}
	if res.Imported != 5 || res.Total != 5 {
		t.Errorf("total %d, imported %d; want 5 and 5", res.Total, res.Imported)
	}
}

func TestWebsitePageCap(t *testing.T) {
	files := map[string]resource{}
	var links strings.Builder
	for i := range 10 {
		fmt.Fprintf(&links, `<a href="p%d.html">p%d</a> `, i, i)
		files[fmt.Sprintf("/p%d.html", i)] = html(fmt.Sprintf("P%d", i), `<a href="/">home</a>`)
	}
	files["/"] = html("Index", links.String())
	s := serve(t, files)
	res := run(t, newImporter(importer.Options{MaxPages: 3}), importer.SourceWebsite, s.URL)
	var pages []string
	for k := range res.Files {
		if strings.HasSuffix(k, ".md") && k != "SUMMARY.md" {
			pages = append(pages, k)
		}
	}
	slices.Sort(pages)
	if want := []string{"README.md", "p0.md", "p1.md"}; !slices.Equal(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	fetched := 0
	for i := range 10 {
		fetched += s.hit(fmt.Sprintf("/p%d.html", i))
	}
	if fetched != 2 {
		t.Errorf("%d pages fetched past the index, want 2", fetched)
	}
	// Links to pages past the cap stay absolute.
	wantContains(t, res.Files, "README.md", "[p0](p0.md)", "[p5]("+s.URL+"/p5.html)")
}

func TestWebsiteByteCap(t *testing.T) {
	big := strings.Repeat("x", 2000)
	s := serve(t, map[string]resource{
		"/":       html("Index", `<a href="a.html">a</a><a href="b.html">b</a>`),
		"/a.html": html("A", "<p>"+big+"</p>"),
		"/b.html": html("B", "<p>"+big+"</p>"),
	})
	res := run(t, newImporter(importer.Options{MaxBytes: 3000}), importer.SourceWebsite, s.URL+"/")
	if _, ok := res.Files["a.md"]; !ok {
		t.Errorf("a.md missing: %v", keys(res.Files))
	}
	if _, ok := res.Files["b.md"]; ok {
		t.Error("b.md imported past the byte cap")
	}
}

func TestWebsiteStartPage(t *testing.T) {
	s := docsSite(t)
	im := newImporter(importer.Options{})

	// A start page robots.txt forbids is refused.
	_, err := im.Import(context.Background(), importer.SourceWebsite, s.URL+"/docs/private/secret.html")
	wantInvalid(t, err, "url", "robots.txt")

	// Starting at a page inside a folder crawls that folder: the start
	// page is README.md.
	res := run(t, im, importer.SourceWebsite, s.URL+"/docs/guide/install.html")
	wantContains(t, res.Files, "README.md", "# Install\n", "[about]("+s.URL+"/docs/about.html)")
	wantContains(t, res.Files, "index.md", "# Guide\n", "[install](README.md)")
	if _, ok := res.Files["about.md"]; ok {
		t.Error("a page outside the folder was imported")
	}

	// A page that is not HTML is refused as the start.
	_, err = im.Import(context.Background(), importer.SourceWebsite, s.URL+"/docs/img/logo.png")
	wantInvalid(t, err, "url", "/docs/img/logo.png")
}

func TestWebsiteCanonicalDedup(t *testing.T) {
	s := serve(t, map[string]resource{
		"/": html("Index", `<a href="a.html">a</a> <a href="a.html?ref=nav">a again</a>
			<a href="/index.html">self</a> <a href="/#top">self again</a>`),
		"/a.html": {"text/html", `<html><head><link rel="canonical" href="/a.html"></head><body><h1>A</h1></body></html>`},
	})
	res := run(t, newImporter(importer.Options{}), importer.SourceWebsite, s.URL)
	if n := s.hit("/"); n != 1 {
		t.Errorf("the index was fetched %d times", n)
	}
	if n := s.hit("/a.html"); n != 2 {
		// a.html and a.html?ref=nav are two URLs; the second names the
		// first as canonical and is dropped.
		t.Errorf("a.html was fetched %d times, want 2", n)
	}
	if _, ok := res.Files["a-ref-nav.md"]; ok {
		t.Errorf("a duplicate page was kept: %v", keys(res.Files))
	}
	wantContains(t, res.Files, "README.md", "[a](a.md)", "[a again](a.md)", "[self](README.md)")
}

func TestWebsiteMetaRobots(t *testing.T) {
	meta := func(content, body string) resource {
		return resource{"text/html", `<html><head><meta name="robots" content="` + content + `"></head><body>` + body + `</body></html>`}
	}
	s := serve(t, map[string]resource{
		"/":            html("Index", `<a href="hidden.html">hidden</a> <a href="stop.html">stop</a> <a rel="nofollow" href="skip.html">skip</a>`),
		"/hidden.html": meta("noindex, follow", `<a href="found.html">found</a>`),
		"/stop.html":   meta("nofollow", `<h1>Stop</h1><a href="unseen.html">unseen</a>`),
		"/found.html":  html("Found", "<h1>Found</h1>"),
		"/unseen.html": html("Unseen", "<h1>Unseen</h1>"),
		"/skip.html":   html("Skip", "<h1>Skip</h1>"),
	})
	res := run(t, newImporter(importer.Options{}), importer.SourceWebsite, s.URL)
	got := keys(res.Files)
	slices.Sort(got)
	if want := []string{"README.md", "SUMMARY.md", "found.md", "stop.md"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for _, p := range []string{"/unseen.html", "/skip.html"} {
		if s.hit(p) != 0 {
			t.Errorf("%s was fetched", p)
		}
	}
}
