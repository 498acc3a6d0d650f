package importer_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"quire/internal/importer"
)

func TestMarkdownFile(t *testing.T) {
	s := serve(t, map[string]resource{
		"/docs/page.md": {"text/markdown", "---\ndescription: x\n---\n# Page\n\n" +
			"![logo](img/logo.png) and [other](other.md#part), [top](#top), [mail](mailto:a@b.c)\n\n" +
			"```\n![in code](img/code.png)\n```\n\n`[span](img/span.md)`\n\n[ref]: ../ref.html\n"},
		"/docs/img/logo.png": png,
		"/docs/img/code.png": png,
	})
	res := run(t, newImporter(importer.Options{}), importer.SourceMarkdown, s.URL+"/docs/page.md")
	wantContains(t, res.Files, "README.md",
		"---\ndescription: x\n---\n# Page\n",
		"![logo](.gitbook/assets/logo.png)",
		"[other]("+s.URL+"/docs/other.md#part)",
		"[top](#top)",
		"[mail](mailto:a@b.c)",
		"```\n![in code](img/code.png)\n```",
		"`[span](img/span.md)`",
		"[ref]: "+s.URL+"/ref.html",
	)
	wantContains(t, res.Files, ".gitbook/assets/logo.png", "fake image bytes")
	if n := s.hit("/docs/img/code.png"); n != 0 {
		t.Errorf("an image inside a code block was fetched")
	}
	if res.Total != 2 || res.Imported != 2 {
		t.Errorf("total %d, imported %d; want 2 and 2", res.Total, res.Imported)
	}
}

func TestMarkdownFileWithoutTitle(t *testing.T) {
	s := serve(t, map[string]resource{
		"/getting-started.md": {"text/plain", "Some text.\n"},
		"/binary.md":          {"application/octet-stream", "\x00\x01\x02"},
	})
	im := newImporter(importer.Options{})
	res := run(t, im, importer.SourceMarkdown, s.URL+"/getting-started.md")
	if got := string(res.Files["README.md"]); got != "# getting-started\n\nSome text.\n" {
		t.Errorf("README.md = %q", got)
	}
	_, err := im.Import(context.Background(), importer.SourceMarkdown, s.URL+"/binary.md")
	wantInvalid(t, err, "url", "not a UTF-8 text file")
}

func TestHTMLFile(t *testing.T) {
	s := serve(t, map[string]resource{
		"/a/page.html": html("Page", `<article><h1>The page</h1><p>Hello <em>world</em>,
			<a href="next.html">next</a>.</p><img src="/pic.jpg" alt="pic"><img src="missing.png" alt="gone">
			<img src="data:image/png;base64,aW5saW5lIGJ5dGVz" alt="inline"><img src="data:text/html,x" alt="bad"></article>`),
		"/pic.jpg": {"image/jpeg", "jpeg bytes"},
	})
	res := run(t, newImporter(importer.Options{}), importer.SourceHTML, s.URL+"/a/page.html")
	wantContains(t, res.Files, "README.md",
		"# The page\n",
		"Hello *world*",
		"[next]("+s.URL+"/a/next.html)",
		"![pic](.gitbook/assets/pic.jpg)",
		"![gone]("+s.URL+"/a/missing.png)",
		"![inline](.gitbook/assets/image.png)",
	)
	wantContains(t, res.Files, ".gitbook/assets/image.png", "inline bytes")
	if strings.Contains(string(res.Files["README.md"]), "data:") {
		t.Error("a data URL was kept")
	}
	wantContains(t, res.Files, ".gitbook/assets/pic.jpg", "jpeg bytes")
	if res.Total != 4 || res.Imported != 3 {
		t.Errorf("total %d, imported %d; want 4 and 3", res.Total, res.Imported)
	}
}

func TestFetchErrors(t *testing.T) {
	s := serve(t, map[string]resource{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://user:hunter2@" + ln.Addr().String() + "/file.md"
	ln.Close()
	im := newImporter(importer.Options{})
	for _, src := range []importer.Source{importer.SourceWebsite, importer.SourceMarkdown, importer.SourceHTML, importer.SourceZip} {
		_, err := im.Import(context.Background(), src, s.URL+"/gone")
		wantInvalid(t, err, "url", s.URL+"/gone", "404")

		_, err = im.Import(context.Background(), src, closed)
		wantInvalid(t, err, "url", "could not fetch http://"+ln.Addr().String()+"/file.md")
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "user") {
			t.Errorf("%s: the error shows the user information: %v", src, err)
		}
	}
	// The default client refuses loopback addresses: a 400 too.
	_, err = importer.New(guardedClient(), importer.Options{Logger: quiet}).Import(context.Background(), importer.SourceHTML, s.URL+"/x")
	wantInvalid(t, err, "url", "could not fetch")
}

func TestBadInput(t *testing.T) {
	im := newImporter(importer.Options{})
	for _, src := range []importer.Source{importer.SourceDocx, importer.SourceConfluence,
		importer.SourceGitHubWiki, importer.SourceNotion, importer.SourceGoogleDocs, "bogus"} {
		_, err := im.Import(context.Background(), src, "https://example.com/")
		wantInvalid(t, err, "source", `"`+string(src)+`" is not supported`)
	}
	for _, u := range []string{"ftp://example.com/x", "/relative", "http://", "::"} {
		_, err := im.Import(context.Background(), importer.SourceHTML, u)
		wantInvalid(t, err, "url")
	}
	if got := len(importer.Sources()); got != 9 {
		t.Errorf("%d sources, want 9", got)
	}
}

func TestEndedContext(t *testing.T) {
	s := docsSite(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []importer.Source{importer.SourceWebsite, importer.SourceHTML} {
		_, err := newImporter(importer.Options{}).Import(ctx, src, s.URL+"/docs/")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want the context's error", src, err)
		}
	}
}
