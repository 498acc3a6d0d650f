package gitbook

import (
	"errors"
	"strings"
	"testing"
)

func TestReadRefusesMalformedInput(t *testing.T) {
	deep := strings.Builder{}
	deep.WriteString("# Table of contents\n\n")
	for i := 0; i < 40; i++ {
		deep.WriteString(strings.Repeat("  ", i) + "* [P](p.md)\n")
	}
	cases := []struct {
		name  string
		files Files
		want  string
	}{
		{"bad config YAML", Files{".gitbook.yaml": []byte("root: [unclosed\n")}, ".gitbook.yaml: "},
		{"root escaping", Files{".gitbook.yaml": []byte("root: ../elsewhere/\n")}, `root "../elsewhere/" leaves the project directory`},
		{"summary escaping", Files{".gitbook.yaml": []byte("structure:\n  summary: ../../SUMMARY.md\n")}, "structure.summary"},
		{"redirect escaping", Files{".gitbook.yaml": []byte("redirects:\n  old: ../x.md\n")}, `redirect "old"`},
		{"redirect to a URL", Files{".gitbook.yaml": []byte("redirects:\n  old: https://evil.example/x\n")}, `redirect "old" → "https://evil.example/x": the target must be a file under the root`},
		{"redirect to a protocol-relative URL", Files{".gitbook.yaml": []byte("redirects:\n  old: //evil.example/x.md\n")}, `the target must be a file under the root`},
		{"redirect to a query", Files{".gitbook.yaml": []byte("redirects:\n  old: a.md?x=1\n")}, `the target must be a file under the root`},
		{"redirect from a URL", Files{".gitbook.yaml": []byte("redirects:\n  'https://evil.example/x': README.md\n")}, `redirect "https://evil.example/x": the old path must be a path within the space`},
		{"redirect from dot-dot", Files{".gitbook.yaml": []byte("redirects:\n  a/../../b: README.md\n")}, `redirect "a/../../b": the old path`},
		{"redirect from nothing", Files{".gitbook.yaml": []byte("redirects:\n  '/': README.md\n")}, `redirect "/": the old path`},
		{"redirect given twice", Files{".gitbook.yaml": []byte("redirects:\n  old: README.md\n  /old/: a.md\n")}, `is given twice`},
		{"file path escaping", Files{"../secret.md": []byte("# x")}, "../secret.md: the path leaves the project directory"},
		{"absolute file path", Files{"/etc/passwd": []byte("x")}, "the path leaves the project directory"},
		{"deep summary", Files{"SUMMARY.md": []byte(deep.String())}, "nests more than 32 levels"},
		{"deep folders", Files{strings.Repeat("d/", 40) + "x.md": []byte("# x")}, "folders nest more than 32 levels"},
		{"huge page", Files{"README.md": []byte(strings.Repeat("* [a](b)\n", 120000))}, "README.md: "},
		{"id given twice", Files{"README.md": []byte("# a"), "b.md": []byte("# b")}, "is also given to"},
		{"no id", Files{"README.md": []byte("# a")}, "README.md: no id given"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ids IDs = pathIDs{}
			switch tc.name {
			case "id given twice":
				ids = sameID{}
			case "no id":
				ids = noID{}
			}
			sp, err := Read(tc.files, ids)
			if err == nil {
				t.Fatalf("no error; warnings %q", sp.Warnings)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// noID gives no ids.
type noID struct{}

func (noID) PageID(string) string { return "" }
func (noID) FileID(string) string { return "" }

// sameID gives one id to everything.
type sameID struct{}

func (sameID) PageID(string) string { return "same" }
func (sameID) FileID(string) string { return "same" }

func TestReadDefaultsForEmptyConfig(t *testing.T) {
	for _, cfg := range []string{"", "\n", "# only a comment\n", "root: ./\n"} {
		sp := mustRead(t, Files{".gitbook.yaml": []byte(cfg), "README.md": []byte("# Home\n")}, pathIDs{})
		if sp.Config != (Config{Source: sp.Config.Source}) || len(sp.Pages) != 1 || sp.Pages[0].Title != "Home" {
			t.Errorf("config %q: %+v, %s", cfg, sp.Config, outline(sp.Pages))
		}
	}
}

func TestReadEmptyRepository(t *testing.T) {
	sp := mustRead(t, Files{}, pathIDs{})
	if len(sp.Pages) != 0 || len(sp.Warnings) != 1 || !strings.Contains(sp.Warnings[0], "landing page is missing") {
		t.Errorf("pages %s, warnings %q", outline(sp.Pages), sp.Warnings)
	}
}

func TestWriteRefusesBadTrees(t *testing.T) {
	page := func(id string) *Page { return &Page{ID: id, Kind: "document", Title: id} }
	cases := []struct {
		name string
		sp   *Space
		want string
	}{
		{"nil page", &Space{Pages: []*Page{nil}}, "nil page"},
		{"unknown kind", &Space{Pages: []*Page{{ID: "x", Kind: "sheet"}}}, `unknown kind "sheet"`},
		{"id twice", &Space{Pages: []*Page{page("a"), page("a")}}, `page id "a" is used twice`},
		{"file id twice", &Space{Files: []*File{{ID: "f", Name: "a"}, {ID: "f", Name: "b"}}}, `file id "f" is used twice`},
		{"root escaping", &Space{Config: Config{Root: "../x"}}, "leaves the project directory"},
		{"summary not markdown", &Space{Config: Config{Summary: "toc.txt"}}, "must be a Markdown file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Write(tc.sp); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	deep := page("root")
	p := deep
	for i := 0; i < 40; i++ {
		c := page(strings.Repeat("c", i+1))
		p.Children = []*Page{c}
		p = c
	}
	if _, err := Write(&Space{Pages: []*Page{deep}}); err == nil || !strings.Contains(err.Error(), "nest") {
		t.Errorf("deep tree: %v", err)
	}
}
