package gitbook

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/quire"
)

// pathIDs gives every key an id made from it, so a test can predict ids.
type pathIDs struct{}

func (pathIDs) PageID(path string) string { return "page:" + path }
func (pathIDs) FileID(path string) string { return "file:" + path }

// mapIDs gives the ids of a map, and new ones for keys it does not hold.
type mapIDs struct {
	pages, files map[string]string
}

func (m mapIDs) PageID(path string) string {
	if id, ok := m.pages[path]; ok {
		return id
	}
	return "new:" + path
}

func (m mapIDs) FileID(path string) string {
	if id, ok := m.files[path]; ok {
		return id
	}
	return "new:" + path
}

// mustRead reads files and fails the test on an error.
func mustRead(t testing.TB, files Files, ids IDs) *Space {
	t.Helper()
	sp, err := Read(files, ids)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return sp
}

// mustWrite writes a space and fails the test on an error.
func mustWrite(t testing.TB, sp *Space) Files {
	t.Helper()
	files, err := Write(sp)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return files
}

// symbolicTargets maps "page:ID", "page:ID#anchor" and "file:ID" targets
// to references, to build documents that point at pages and files.
type symbolicTargets struct{}

func (symbolicTargets) RefForTarget(t string, _ document.TargetUse) (document.Ref, bool) {
	switch {
	case strings.HasPrefix(t, "page:"):
		id, anchor, ok := strings.Cut(strings.TrimPrefix(t, "page:"), "#")
		if ok {
			return document.Ref{Kind: document.RefAnchor, Page: id, Anchor: anchor}, true
		}
		return document.Ref{Kind: document.RefPage, Page: id}, true
	case strings.HasPrefix(t, "file:"):
		return document.Ref{Kind: document.RefFile, File: strings.TrimPrefix(t, "file:")}, true
	}
	return document.Ref{}, false
}

func (symbolicTargets) TargetForRef(document.Ref, document.TargetUse) (string, bool) {
	return "", false
}

// mustDoc builds a document from Markdown with symbolic targets.
func mustDoc(t testing.TB, md string) *document.Document {
	t.Helper()
	doc, err := document.FromMarkdown(md, document.WithLinkResolver(symbolicTargets{}))
	if err != nil {
		t.Fatalf("FromMarkdown: %v", err)
	}
	return doc
}

// docJSON is a document's JSON without node keys, for comparisons.
func docJSON(t testing.TB, doc *document.Document) string {
	t.Helper()
	if doc == nil {
		doc = document.New()
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	stripKeys(v)
	out, _ := json.Marshal(v)
	return string(out)
}

func stripKeys(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "key")
		for _, c := range x {
			stripKeys(c)
		}
	case []any:
		for _, c := range x {
			stripKeys(c)
		}
	}
}

// pageView is what a comparison of pages looks at: every field but the
// path, the children and the document, with the layout's default
// spelled out.
type pageView struct {
	ID, Kind, Title, Slug, Description, Emoji, Icon string
	Hidden, NoIndex, NoRobotsIndex                  bool
	Condition                                       string
	Variables                                       map[string]string
	Layout                                          quire.PageLayout
	Cover                                           *quire.PageCover
	Href                                            string
	Target                                          *quire.ContentRef
	Computed                                        *quire.ComputedSource
	Extra                                           map[string]any
	Children                                        int
}

func viewOf(p *Page) pageView {
	v := pageView{ID: p.ID, Kind: p.Kind, Title: p.Title, Slug: p.Slug, Description: p.Description,
		Emoji: p.Emoji, Icon: p.Icon, Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex,
		Condition: p.Condition, Variables: p.Variables, Cover: p.Cover, Href: p.Href, Target: p.Target,
		Computed: p.Computed, Extra: p.Extra, Children: len(p.Children)}
	if p.Kind == quire.PageDocument {
		v.Layout = quire.DefaultPageLayout()
		if p.Layout != nil {
			v.Layout = *p.Layout
		}
	}
	if len(v.Variables) == 0 {
		v.Variables = nil
	}
	if len(v.Extra) == 0 {
		v.Extra = nil
	}
	return v
}

// compareTrees reports the first difference between two page trees,
// documents included.
func compareTrees(t testing.TB, got, want []*Page, where string) {
	t.Helper()
	compareTreesOf(t, got, want, where, true)
}

// compareTreesOf is compareTrees, documents compared or not.
func compareTreesOf(t testing.TB, got, want []*Page, where string, docs bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d pages, want %d: %v vs %v", where, len(got), len(want), titles(got), titles(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		at := fmt.Sprintf("%s/%d(%s)", where, i, w.Title)
		if gv, wv := viewOf(g), viewOf(w); !reflect.DeepEqual(gv, wv) {
			t.Fatalf("%s: page differs\n got: %+v\nwant: %+v", at, gv, wv)
		}
		if w.Kind == quire.PageDocument && docs {
			if gj, wj := docJSON(t, g.Document), docJSON(t, w.Document); gj != wj {
				t.Fatalf("%s: document differs\n got: %s\nwant: %s", at, gj, wj)
			}
		}
		compareTreesOf(t, g.Children, w.Children, at, docs)
	}
}

func titles(pages []*Page) []string {
	out := make([]string, len(pages))
	for i, p := range pages {
		out[i] = p.Kind + ":" + p.Title
	}
	return out
}

// compareFiles reports a difference between two sets of files, ids
// included.
func compareFiles(t testing.TB, got, want []*File) {
	t.Helper()
	key := func(fs []*File) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = fmt.Sprintf("%s|%s|%s|%x", f.ID, f.Name, f.ContentType, f.Data)
		}
		sort.Strings(out)
		return out
	}
	if g, w := key(got), key(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("files differ\n got: %v\nwant: %v", g, w)
	}
}

// idsFor pairs the pages and files read back from an export with the
// pages and files of the space exported, so that a second Read gives
// them their original ids.
func idsFor(t testing.TB, read, orig *Space) mapIDs {
	t.Helper()
	m := mapIDs{pages: map[string]string{}, files: map[string]string{}}
	var walk func(r, o []*Page)
	walk = func(r, o []*Page) {
		if len(r) != len(o) {
			t.Fatalf("tree shape differs: %v vs %v", titles(r), titles(o))
		}
		for i := range r {
			m.pages[strings.TrimPrefix(r[i].ID, "page:")] = o[i].ID
			walk(r[i].Children, o[i].Children)
		}
	}
	walk(read.Pages, orig.Pages)
	byName := map[string]string{}
	for _, f := range orig.Files {
		byName[f.Name] = f.ID
	}
	for _, f := range read.Files {
		m.files[f.Path] = byName[f.Name]
	}
	return m
}
