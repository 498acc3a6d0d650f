package importer_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"quire/internal/importer"
)

// zipEntry is one file to put in a test zip.
type zipEntry struct {
	name string
	body string
	mode fs.FileMode // 0 for a regular file
}

// makeZip builds a zip of entries.
func makeZip(t *testing.T, entries ...zipEntry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// serveZip serves each zip at /name.zip and returns the base URL.
func serveZip(t *testing.T, zips map[string]string) string {
	files := map[string]resource{}
	for name, z := range zips {
		files["/"+name+".zip"] = resource{"application/zip", z}
	}
	return serve(t, files).URL
}

func TestZip(t *testing.T) {
	z := makeZip(t,
		zipEntry{name: "export/"},
		zipEntry{name: "export/README.md", body: "# Home\n\nSee [setup](guide/setup.md#run), [the guide](guide/), " +
			"[page](page.html) and [away](https://example.com/).\n\n![pic](images/pic.png)\n"},
		zipEntry{name: "export/guide/index.md", body: "# Guide\n\n[Setup](./setup.md)\n"},
		zipEntry{name: "export/guide/setup.md", body: "# Setup\n\n[Home](../README.md) ![pic](../images/pic.png) [none](nowhere.md)\n"},
		zipEntry{name: "export/page.html", body: `<html><head><title>Page</title></head><body><h1>A page</h1>
			<p><a href="guide/setup.md">setup</a> <a href="missing.html">missing</a></p><img src="images/pic.png" alt="p"></body></html>`},
		zipEntry{name: "export/images/pic.png", body: png.body},
		zipEntry{name: "export/.DS_Store", body: "junk"},
		zipEntry{name: "__MACOSX/export/._README.md", body: "junk"},
	)
	base := serveZip(t, map[string]string{"docs": z})
	res := run(t, newImporter(importer.Options{}), importer.SourceZip, base+"/docs.zip")
	got := keys(res.Files)
	slices.Sort(got)
	want := []string{".gitbook/assets/pic.png", "README.md", "guide/README.md", "guide/setup.md", "page.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	wantContains(t, res.Files, "README.md", "[setup](guide/setup.md#run)", "[the guide](guide/README.md)",
		"[page](page.md)", "[away](https://example.com/)", "![pic](.gitbook/assets/pic.png)")
	wantContains(t, res.Files, "guide/README.md", "[Setup](setup.md)")
	wantContains(t, res.Files, "guide/setup.md", "[Home](../README.md)", "![pic](../.gitbook/assets/pic.png)", "[none](nowhere.md)")
	wantContains(t, res.Files, "page.md", "# A page\n", "[setup](guide/setup.md)", "[missing](missing.html)",
		"![p](.gitbook/assets/pic.png)")
	if res.Total != 5 || res.Imported != 5 {
		t.Errorf("total %d, imported %d; want 5 and 5", res.Total, res.Imported)
	}
}

func TestZipKeepsGitBookLayout(t *testing.T) {
	z := makeZip(t,
		zipEntry{name: "README.md", body: "# Home\n"},
		zipEntry{name: "SUMMARY.md", body: "# Table of contents\n\n* [Home](README.md)\n* [Intro](intro/index.md)\n"},
		zipEntry{name: "intro/index.md", body: "# Intro\n\n![](<../.gitbook/assets/image (1).png>)\n"},
		zipEntry{name: ".gitbook/assets/image (1).png", body: png.body},
		zipEntry{name: "other/image (1).png", body: "another image"},
		zipEntry{name: ".gitbook/includes/note.md", body: "Note.\n"},
	)
	base := serveZip(t, map[string]string{"book": z})
	res := run(t, newImporter(importer.Options{}), importer.SourceZip, base+"/book.zip")
	wantContains(t, res.Files, "SUMMARY.md", "* [Intro](intro/README.md)")
	wantContains(t, res.Files, "intro/README.md", "![](<../.gitbook/assets/image (1).png>)")
	wantContains(t, res.Files, ".gitbook/assets/image (1).png", png.body)
	wantContains(t, res.Files, ".gitbook/assets/image-1.png", "another image")
	wantContains(t, res.Files, ".gitbook/includes/note.md", "Note.")
}

func TestZipWithoutReadme(t *testing.T) {
	z := makeZip(t, zipEntry{name: "a.md", body: "# A\n"})
	base := serveZip(t, map[string]string{"my-docs": z})
	res := run(t, newImporter(importer.Options{}), importer.SourceZip, base+"/my-docs.zip")
	if got := string(res.Files["README.md"]); got != "# my-docs\n" {
		t.Errorf("README.md = %q", got)
	}
	wantContains(t, res.Files, "a.md", "# A")
}

// lyingZip is a zip whose one entry declares 100 bytes and inflates to
// 4 MiB.
func lyingZip(t *testing.T) string {
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestCompression)
	_, _ = fw.Write(make([]byte, 4<<20))
	_ = fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "liar.md", Method: zip.Deflate,
		CompressedSize64: uint64(raw.Len()), UncompressedSize64: 100})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(raw.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// noise is n letters that barely compress.
func noise(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}

func TestZipRefused(t *testing.T) {
	bomb := strings.Repeat("\x00", 8<<20)
	zips := map[string]string{
		"slip":     makeZip(t, zipEntry{name: "ok.md", body: "x"}, zipEntry{name: "../../etc/evil.md", body: "x"}),
		"slip2":    makeZip(t, zipEntry{name: "docs/../../evil.md", body: "x"}),
		"absolute": makeZip(t, zipEntry{name: "/etc/evil.md", body: "x"}),
		"windows":  makeZip(t, zipEntry{name: `..\evil.md`, body: "x"}),
		"link":     makeZip(t, zipEntry{name: "link.md", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}),
		"bomb":     makeZip(t, zipEntry{name: "zeros.md", body: bomb}),
		"many":     makeZip(t, zipEntry{name: "1.md"}, zipEntry{name: "2.md"}, zipEntry{name: "3.md"}, zipEntry{name: "4.md"}),
		"large":    makeZip(t, zipEntry{name: "a.md", body: noise(1200 << 10)}),
		"notzip":   "this is not a zip archive",
		"liar":     lyingZip(t),
	}
	base := serveZip(t, zips)
	im := newImporter(importer.Options{MaxZipFiles: 3, MaxBytes: 1 << 20})
	for name, want := range map[string]string{
		"slip":     `"../../etc/evil.md" has an unsafe path`,
		"slip2":    "unsafe path",
		"absolute": "unsafe path",
		"windows":  "unsafe path",
		"link":     "is a symbolic link",
		"bomb":     "expands more than 100 times",
		"many":     "holds 4 entries, more than the 3 allowed",
		"large":    "more than the import's limit",
		"notzip":   "is not a valid zip archive",
		"liar":     `the entry "liar.md" is damaged`,
	} {
		_, err := im.Import(context.Background(), importer.SourceZip, base+"/"+name+".zip")
		wantInvalid(t, err, "url", base+"/"+name+".zip", want)
	}
}
