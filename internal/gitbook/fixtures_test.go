package gitbook

import (
	"io/fs"
	"os"
	"path/filepath"
	"quire/internal/document"
	"reflect"
	"strings"
	"testing"

	"quire/internal/quire"
)

// loadFixture reads a folder of testdata as a repository.
func loadFixture(t testing.TB, name string) Files {
	t.Helper()
	dir := filepath.Join("testdata", name)
	files := Files{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// outline renders a page tree one page a line: kind, title, slug, path,
// emoji and link target, indented by depth.
func outline(pages []*Page) string { return outlineOf(pages, true) }

// outlineOf is outline, with or without the paths.
func outlineOf(pages []*Page, withPaths bool) string {
	var b strings.Builder
	var walk func([]*Page, int)
	walk = func(ps []*Page, depth int) {
		for _, p := range ps {
			b.WriteString(strings.Repeat("  ", depth) + p.Kind + " " + p.Title)
			if p.Slug != "" {
				b.WriteString(" /" + p.Slug)
			}
			if p.Path != "" && withPaths {
				b.WriteString(" @" + p.Path)
			}
			if p.Emoji != "" {
				b.WriteString(" emoji=" + p.Emoji)
			}
			if p.Target != nil {
				b.WriteString(" → " + refString(p.Target))
			}
			if p.Computed != nil {
				b.WriteString(" " + p.Computed.Type)
			}
			b.WriteString("\n")
			walk(p.Children, depth+1)
		}
	}
	walk(pages, 0)
	return b.String()
}

func refString(r *quire.ContentRef) string {
	switch r.Kind {
	case "url":
		return r.URL
	case "file":
		return "file " + r.File
	case "page":
		return "page " + r.Page
	case "anchor":
		return "page " + r.Page + "#" + r.Anchor
	}
	return r.Kind
}

// pageAt finds a page by its path.
func pageAt(t testing.TB, sp *Space, path string) *Page {
	t.Helper()
	var found *Page
	var walk func([]*Page)
	walk = func(ps []*Page) {
		for _, p := range ps {
			if p.Path == path {
				found = p
			}
			walk(p.Children)
		}
	}
	walk(sp.Pages)
	if found == nil {
		t.Fatalf("no page at %s", path)
	}
	return found
}

// refsOf lists the references of a document in order: "page ID",
// "anchor ID#x", "file ID", "url U".
func refsOf(doc *document.Document) []string {
	var out []string
	var walk func([]document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			for _, k := range []string{"ref", "refDark"} {
				if r, ok := n.Data[k].(document.Ref); ok {
					switch r.Kind {
					case document.RefPage:
						out = append(out, "page "+r.Page)
					case document.RefAnchor:
						out = append(out, "anchor "+r.Page+"#"+r.Anchor)
					case document.RefFile:
						out = append(out, "file "+r.File)
					case document.RefURL:
						out = append(out, "url "+r.URL)
					}
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	if doc != nil {
		walk(doc.Nodes)
	}
	return out
}

func checkRefs(t *testing.T, sp *Space, path string, want ...string) {
	t.Helper()
	if got := refsOf(pageAt(t, sp, path).Document); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: references\n got %q\nwant %q", path, got, want)
	}
}

func checkOutline(t *testing.T, sp *Space, want string) {
	t.Helper()
	if got := outline(sp.Pages); got != want {
		t.Errorf("outline\n got:\n%s\nwant:\n%s", got, want)
	}
}

// checkReadBack writes a space read from a fixture and reads it again:
// the tree, documents and files come back the same, and no file moves.
func checkReadBack(t *testing.T, files Files, sp *Space) {
	t.Helper()
	out := mustWrite(t, sp)
	back := mustRead(t, out, pathIDs{})
	compareTrees(t, back.Pages, sp.Pages, "")
	compareFiles(t, back.Files, sp.Files)
	if !reflect.DeepEqual(back.Redirects, sp.Redirects) {
		t.Errorf("redirects %v, want %v", back.Redirects, sp.Redirects)
	}
	if got, want := outline(back.Pages), outline(sp.Pages); got != want {
		t.Errorf("paths moved:\n%s\nwant:\n%s", got, want)
	}
	for name := range out {
		if _, ok := files[name]; !ok && name != configFile && !strings.HasSuffix(name, defaultSummary) {
			t.Errorf("export wrote a new file %s", name)
		}
	}
}

func TestReadDocsRoot(t *testing.T) {
	files := loadFixture(t, "docs-root")
	sp := mustRead(t, files, pathIDs{})
	if sp.Config.Root != "docs" || sp.Config.Readme != "" || sp.Config.Summary != "" {
		t.Errorf("config %+v", sp.Config)
	}
	checkOutline(t, sp, `document Welcome to A Product /welcome-to-a-product @README.md emoji=1f44b
group Get Started /getting-started
  document Quickstart /quickstart @getting-started/quickstart.md
  document Install & configure /install @getting-started/install.md
group Create content /create-content
  document Blocks /blocks @create-content/blocks/README.md
    document Hints /hint @create-content/blocks/hint.md
    document Tables /tables @create-content/blocks/tables.md
  link Hint colours → page page:create-content/blocks/hint.md#styles
  document Embedding /embedding @publish/embedding/README.md
  link GitHub examples → https://github.com/GitbookIO/integrations
  computed  builtin:openapi
`)
	if len(sp.Warnings) > 0 {
		t.Errorf("warnings: %q", sp.Warnings)
	}
	if !reflect.DeepEqual(sp.Unlisted, []string{"orphan.md"}) {
		t.Errorf("unlisted %q", sp.Unlisted)
	}
	wantRedirects := map[string]string{
		"getting-started/overview": "README.md",
		"blocks/hints":             "create-content/blocks/hint.md",
		"embed":                    "publish/embedding/README.md",
	}
	if !reflect.DeepEqual(sp.Redirects, wantRedirects) {
		t.Errorf("redirects %v", sp.Redirects)
	}
	var names []string
	for _, f := range sp.Files {
		names = append(names, f.Path+" "+f.ContentType)
	}
	wantFiles := []string{
		".gitbook/assets/Card-example text/plain; charset=utf-8",
		".gitbook/assets/cover image.png image/png",
		".gitbook/assets/image (1).png image/png",
		".gitbook/assets/manual v2.pdf application/pdf",
	}
	if !reflect.DeepEqual(names, wantFiles) {
		t.Errorf("files %q", names)
	}

	home := pageAt(t, sp, "README.md")
	if !strings.HasPrefix(home.Description, "Everything you need") || strings.Contains(home.Description, "\n") {
		t.Errorf("description %q", home.Description)
	}
	wantLayout := quire.DefaultPageLayout()
	wantLayout.Width, wantLayout.CoverSize, wantLayout.Outline = "wide", "full", false
	if home.Layout == nil || *home.Layout != wantLayout {
		t.Errorf("layout %+v", home.Layout)
	}
	if home.Cover == nil || home.Cover.YPos != 48 || home.Cover.Ref == nil ||
		*home.Cover.Ref != (quire.ContentRef{Kind: "file", File: "file:.gitbook/assets/cover image.png"}) {
		t.Errorf("cover %+v", home.Cover)
	}
	checkRefs(t, sp, "README.md",
		"page page:getting-started/quickstart.md",
		"anchor page:create-content/blocks/hint.md#styles",
		"file file:.gitbook/assets/image (1).png",
		"page page:getting-started/quickstart.md")
	if h := home.Document.Nodes[1]; h.Type != document.TypeHeading1 || h.Data["id"] != "jump" {
		t.Errorf("\"## Jump right in\" gives %s %v, want heading-1 with id jump", h.Type, h.Data)
	}
	checkRefs(t, sp, "getting-started/quickstart.md",
		"page page:getting-started/install.md",
		"page page:publish/embedding/README.md",
		"file file:.gitbook/assets/image (1).png",
		"url broken-reference")
	install := pageAt(t, sp, "getting-started/install.md")
	if !install.Hidden || install.Description != "How to install." {
		t.Errorf("install: hidden %v, description %q", install.Hidden, install.Description)
	}
	checkRefs(t, sp, "getting-started/install.md",
		"page page:README.md",
		"anchor page:getting-started/install.md#steps",
		"file file:.gitbook/assets/manual v2.pdf",
		"page page:create-content/blocks/tables.md")
	checkRefs(t, sp, "create-content/blocks/README.md",
		"page page:create-content/blocks/hint.md",
		"page page:create-content/blocks/tables.md",
		"page page:publish/embedding/README.md",
		"file file:.gitbook/assets/manual v2.pdf")
	hint := pageAt(t, sp, "create-content/blocks/hint.md")
	if hint.Icon != "circle-info" || !reflect.DeepEqual(hint.Extra, map[string]any{"name": "hint-block"}) {
		t.Errorf("hint: icon %q, extra %v", hint.Icon, hint.Extra)
	}
	checkRefs(t, sp, "create-content/blocks/hint.md",
		"page page:create-content/blocks/README.md",
		"page page:create-content/blocks/README.md")
	checkRefs(t, sp, "create-content/blocks/tables.md", "anchor page:README.md#jump")
	checkRefs(t, sp, "publish/embedding/README.md", "file file:.gitbook/assets/cover image.png")

	checkReadBack(t, files, sp)
}

func TestReadWithoutSummary(t *testing.T) {
	files := loadFixture(t, "no-summary")
	sp := mustRead(t, files, pathIDs{})
	checkOutline(t, sp, `document Home /home @README.md
document Getting started /getting-started @getting-started/README.md
  document Basics /2-basics @getting-started/2-basics.md
  document 10 advanced /10-advanced @getting-started/10-advanced.md
  document Install guide /install-guide @getting-started/install_guide.md emoji=1f6e0-fe0f
group Reference /reference
  document API /api @reference/api.md
  document CLI /cli @reference/cli.md
  document Internals /internals @reference/deep/internals.md
`)
	if len(sp.Warnings) > 0 || len(sp.Unlisted) > 0 {
		t.Errorf("warnings %q, unlisted %q", sp.Warnings, sp.Unlisted)
	}
	if len(sp.Files) != 1 || sp.Files[0].Path != "images/logo.png" || sp.Files[0].Name != "logo.png" {
		t.Errorf("files %+v", sp.Files)
	}
	checkRefs(t, sp, "README.md", "page page:getting-started/2-basics.md", "file file:images/logo.png")
	checkRefs(t, sp, "getting-started/2-basics.md", "page page:getting-started/10-advanced.md")
	checkRefs(t, sp, "reference/cli.md", "page page:reference/api.md", "page page:reference/deep/internals.md")
	if d := pageAt(t, sp, "getting-started/10-advanced.md").Document; len(d.Nodes) != 1 {
		t.Errorf("a file without a title keeps its first paragraph: %d blocks", len(d.Nodes))
	}
	checkReadBack(t, files, sp)
}

func TestReadNestedReadmes(t *testing.T) {
	files := loadFixture(t, "nested-readme")
	sp := mustRead(t, files, pathIDs{})
	checkOutline(t, sp, `document Intro /intro @README.md
document A /a @a/README.md
  document B /b @a/b/README.md
    document C /c @a/b/c/README.md
      document Leaf /leaf @a/b/c/leaf.md
  document A side /side @a/side.md
`)
	if len(sp.Warnings) > 0 || len(sp.Unlisted) > 0 {
		t.Errorf("warnings %q, unlisted %q", sp.Warnings, sp.Unlisted)
	}
	checkRefs(t, sp, "README.md", "page page:a/b/c/README.md", "anchor page:a/b/c/leaf.md#top")
	checkRefs(t, sp, "a/README.md", "page page:a/b/README.md", "page page:README.md")
	checkRefs(t, sp, "a/b/README.md", "page page:a/README.md", "page page:a/b/c/README.md")
	checkRefs(t, sp, "a/b/c/README.md", "page page:a/b/c/leaf.md", "anchor page:a/b/c/README.md#c")
	checkRefs(t, sp, "a/b/c/leaf.md", "page page:a/b/README.md", "page page:a/side.md")
	checkReadBack(t, files, sp)
}

func TestReadBrokenRepository(t *testing.T) {
	files := loadFixture(t, "broken")
	sp := mustRead(t, files, pathIDs{})
	checkOutline(t, sp, `document Home /home @README.md
document Missing page /missing @guide/missing.md
  document Child of missing /child @guide/child.md
link Outside → ../outside.md
document Plain text item /plain-text-item
  document Lifted /lifted @guide/lifted.md
link Twice → page page:guide/child.md
group Group /group
`)
	if !reflect.DeepEqual(sp.Unlisted, []string{"guide/unlisted.md"}) {
		t.Errorf("unlisted %q", sp.Unlisted)
	}
	for _, want := range []string{
		"README.md: front matter ignored",
		"SUMMARY.md: line 4: page file guide/missing.md is missing",
		"guide/child.md: front matter key hidden",
		"guide/child.md: front matter key coverY",
		`SUMMARY.md: line 6: link "../outside.md" is not a file under the root`,
		`README.md: link "guide/nothing.md" leads to no file`,
		`README.md: link ".gitbook/assets/none.png" leads to no file`,
		`README.md: link "../../etc/passwd" leaves the root`,
		`.gitbook.yaml: redirect "gone" leads to guide/nowhere.md, which is not a page`,
	} {
		found := false
		for _, w := range sp.Warnings {
			found = found || strings.HasPrefix(w, want)
		}
		if !found {
			t.Errorf("no warning %q in %q", want, sp.Warnings)
		}
	}
	child := pageAt(t, sp, "guide/child.md")
	if child.Hidden || child.Extra["hidden"] != "sometimes" || child.Extra["coverY"] != "high" {
		t.Errorf("a key of the wrong type is kept as read: hidden %v, extra %v", child.Hidden, child.Extra)
	}
	// Unresolved targets keep their text.
	checkRefs(t, sp, "README.md", "url guide/nothing.md", "file .gitbook/assets/none.png", "url ../../etc/passwd")
	if d := pageAt(t, sp, "guide/missing.md").Document; d == nil || len(d.Nodes) != 0 {
		t.Errorf("missing page file: document %v", d)
	}
}
