package document

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenPage converts a realistic page in the Git file form (heading
// offset 1) and compares the document JSON and the exported Markdown with
// golden files.
func TestGoldenPage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "page.md"))
	if err != nil {
		t.Fatal(err)
	}
	opt := HeadingOffset(1)
	doc := mustFromMarkdown(t, string(src), opt)
	gotJSON := canonicalJSON(t, doc) + "\n"
	gotMD := mustToMarkdown(t, doc, opt)
	jsonPath := filepath.Join("testdata", "page.golden.json")
	mdPath := filepath.Join("testdata", "page.golden.md")
	if *update {
		if err := os.WriteFile(jsonPath, []byte(gotJSON), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mdPath, []byte(gotMD), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantJSON, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	wantMD, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	if gotJSON != string(wantJSON) {
		t.Errorf("document differs from %s (run go test -update)\n%s", jsonPath, diffLines(gotJSON, string(wantJSON)))
	}
	if gotMD != string(wantMD) {
		t.Errorf("Markdown differs from %s (run go test -update)\n%s", mdPath, diffLines(gotMD, string(wantMD)))
	}
	// The exported form is a fixed point.
	again := mustFromMarkdown(t, gotMD, opt)
	if canonicalJSON(t, again) != canonicalJSON(t, doc) {
		t.Error("re-importing the exported Markdown changes the document")
	}
	if md := mustToMarkdown(t, again, opt); md != gotMD {
		t.Errorf("exported Markdown is not stable\n%s", diffLines(md, gotMD))
	}
	if len(doc.Blocks()) < 15 {
		t.Errorf("only %d blocks", len(doc.Blocks()))
	}
}
