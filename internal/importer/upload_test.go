package importer_test

import (
	"context"
	"slices"
	"testing"

	"quire/internal/importer"
)

// importFile imports an uploaded file and fails the test on error.
func importFile(t *testing.T, im *importer.Importer, name, data string) *importer.Result {
	t.Helper()
	res, err := im.ImportFile(context.Background(), name, []byte(data))
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

func TestSourceOfFile(t *testing.T) {
	for name, want := range map[string]importer.Source{
		"notes.md": importer.SourceMarkdown, "Notes.MARKDOWN": importer.SourceMarkdown, "a.mdown": importer.SourceMarkdown,
		"page.html": importer.SourceHTML, "page.HTM": importer.SourceHTML, "page.xhtml": importer.SourceHTML,
		"export.zip": importer.SourceZip,
	} {
		if got, ok := importer.SourceOfFile(name); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"report.docx", "notes.txt", "zip", "md", ""} {
		if got, ok := importer.SourceOfFile(name); ok {
			t.Errorf("%s: %q, want none", name, got)
		}
	}
}

func TestImportMarkdownUpload(t *testing.T) {
	s := serve(t, map[string]resource{"/logo.png": png})
	res := importFile(t, newImporter(importer.Options{}), "getting-started.md", "\xef\xbb\xbfSome text, [a page](other.md), "+
		"[away]("+s.URL+"/away) and ![logo]("+s.URL+"/logo.png) ![local](img/local.png).\n")
	wantContains(t, res.Files, "README.md", "# getting-started\n\nSome text", "[a page](other.md)",
		"[away]("+s.URL+"/away)", "![logo](.gitbook/assets/logo.png)", "![local](img/local.png)")
	wantContains(t, res.Files, ".gitbook/assets/logo.png", "fake image bytes")
	if res.Total != 2 || res.Imported != 2 {
		t.Errorf("total %d, imported %d; want 2 and 2", res.Total, res.Imported)
	}
	res = importFile(t, newImporter(importer.Options{}), "titled.md", "# Release notes\n\nWhat changed.\n")
	if got := string(res.Files["README.md"]); got != "# Release notes\n\nWhat changed.\n" {
		t.Errorf("README.md = %q", got)
	}
}

func TestImportHTMLUpload(t *testing.T) {
	s := serve(t, map[string]resource{"/pic.jpg": {"image/jpeg", "jpeg bytes"}})
	res := importFile(t, newImporter(importer.Options{}), "page.html", `<!doctype html><html><head><title>Page</title></head>
		<body><main><h1>The page</h1><p>Hello <a href="next.html">next</a>, <a href="https://example.com/x">away</a>.</p>
		<img src="`+s.URL+`/pic.jpg" alt="pic"><img src="local.png" alt="local"></main></body></html>`)
	wantContains(t, res.Files, "README.md", "# The page\n", "[next](next.html)", "[away](https://example.com/x)",
		"![pic](.gitbook/assets/pic.jpg)", "![local](local.png)")
	wantContains(t, res.Files, ".gitbook/assets/pic.jpg", "jpeg bytes")
	if n := s.hit("/local.png"); n != 0 {
		t.Error("a relative image of an uploaded page was fetched")
	}
	if res.Total != 2 || res.Imported != 2 {
		t.Errorf("total %d, imported %d; want 2 and 2", res.Total, res.Imported)
	}
	res = importFile(t, newImporter(importer.Options{}), "untitled.htm", "<p>Just text.</p>")
	wantContains(t, res.Files, "README.md", "# untitled\n", "Just text.")
}

func TestImportZipUpload(t *testing.T) {
	z := makeZip(t,
		zipEntry{name: "a.md", body: "# A\n\n[B](b.html)\n"},
		zipEntry{name: "b.html", body: "<h1>B</h1><p><a href=\"a.md\">A</a></p>"},
	)
	res := importFile(t, newImporter(importer.Options{}), "my-docs.zip", z)
	got := keys(res.Files)
	slices.Sort(got)
	if want := []string{"README.md", "a.md", "b.md"}; !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	wantContains(t, res.Files, "README.md", "# my-docs\n")
	wantContains(t, res.Files, "a.md", "[B](b.md)")
	wantContains(t, res.Files, "b.md", "[A](a.md)")
	if res.Total != 2 || res.Imported != 2 {
		t.Errorf("total %d, imported %d; want 2 and 2", res.Total, res.Imported)
	}
}

func TestImportUploadRefused(t *testing.T) {
	im := newImporter(importer.Options{MaxZipFiles: 3, MaxBytes: 1 << 20})
	for _, c := range []struct{ name, data, want string }{
		{"report.docx", "PK\x03\x04", `"report.docx" is not a Markdown, HTML or zip file`},
		{"notes", "# Notes\n", `"notes" is not a Markdown, HTML or zip file`},
		{"binary.md", "\x00\x01\x02", "binary.md is not a UTF-8 text file"},
		{"latin1.html", "<p>caf\xe9</p>", "latin1.html is not a UTF-8 text file"},
		{"notzip.zip", "this is not a zip archive", "notzip.zip is not a valid zip archive"},
		{"slip.zip", makeZip(t, zipEntry{name: "../evil.md", body: "x"}), `slip.zip: the zip entry "../evil.md" has an unsafe path`},
		{"many.zip", makeZip(t, zipEntry{name: "1.md"}, zipEntry{name: "2.md"}, zipEntry{name: "3.md"}, zipEntry{name: "4.md"}),
			"many.zip holds 4 entries, more than the 3 allowed"},
		{"huge.md", noise(1<<20 + 1), "huge.md is larger than the import's limit of 1048576 bytes"},
	} {
		_, err := im.ImportFile(context.Background(), c.name, []byte(c.data))
		wantInvalid(t, err, "file", c.want)
	}
}
