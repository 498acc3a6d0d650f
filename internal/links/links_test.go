package links

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// fakeSource is a revision held in memory.
type fakeSource struct {
	tree  []*content.TreeNode
	files []*quire.File
	docs  map[string]string // page id → document JSON
	reads int
}

func (f *fakeSource) Tree(context.Context) ([]*content.TreeNode, error) {
	f.reads++
	return f.tree, nil
}
func (f *fakeSource) Files(context.Context) ([]*quire.File, error) { return f.files, nil }
func (f *fakeSource) Document(_ context.Context, p *quire.RevisionPage) ([]byte, error) {
	d, ok := f.docs[p.ID]
	if !ok {
		return nil, nil
	}
	return []byte(d), nil
}

// docJSON builds a stored document from top-level blocks.
func docJSON(t *testing.T, blocks ...any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"object": "document", "data": map[string]any{}, "nodes": blocks})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := document.ParseStored(b); err != nil {
		t.Fatalf("test document does not parse: %v\n%s", err, b)
	}
	return string(b)
}

func text(s string) map[string]any {
	return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}
}

func para(key string, nodes ...any) map[string]any {
	return map[string]any{"object": "block", "type": "paragraph", "key": key, "data": map[string]any{}, "nodes": nodes}
}

func heading(key, title string, data map[string]any) map[string]any {
	if data == nil {
		data = map[string]any{}
	}
	return map[string]any{"object": "block", "type": "heading-2", "key": key, "data": data, "nodes": []any{text(title)}}
}

func link(ref map[string]any, label string) map[string]any {
	return map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": ref}, "nodes": []any{text(label)}}
}

func image(key string, ref map[string]any) map[string]any {
	return map[string]any{"object": "block", "type": "images", "key": key, "data": map[string]any{}, "nodes": []any{
		voidBlock("image", key+"i", map[string]any{"ref": ref})}}
}

// voidBlock is a block without children.
func voidBlock(typ, key string, data map[string]any) map[string]any {
	return map[string]any{"object": "block", "type": typ, "key": key, "isVoid": true, "data": data,
		"nodes": []any{}, "fragments": []any{}}
}

func page(id, slug string, kids ...*content.TreeNode) *content.TreeNode {
	return &content.TreeNode{Page: &quire.RevisionPage{ID: id, Type: quire.PageDocument, Title: id, Slug: slug}, Path: slug, Children: kids}
}

// fixture is a revision: intro links to guide, to a heading of guide, to
// a missing page, to a missing anchor, to a file and a missing file, and
// to in-app and outside URLs; guide links to itself by anchor.
func fixture(t *testing.T) *fakeSource {
	guide := page("guide", "guide")
	return &fakeSource{
		tree:  []*content.TreeNode{page("intro", "intro"), guide},
		files: []*quire.File{{ID: "logo", Name: "logo.png"}},
		docs: map[string]string{
			"intro": docJSON(t,
				para("p1", link(map[string]any{"kind": "page", "page": "guide"}, "guide"),
					link(map[string]any{"kind": "anchor", "page": "guide", "anchor": "getting-started"}, "start"),
					link(map[string]any{"kind": "anchor", "page": "guide", "anchor": "custom"}, "custom"),
					link(map[string]any{"kind": "anchor", "page": "guide", "anchor": "nowhere"}, "nowhere")),
				para("p2", link(map[string]any{"kind": "page", "page": "gone"}, "gone"),
					link(map[string]any{"kind": "url", "url": "https://Docs.Example.test:443/app/s/x"}, "app"),
					link(map[string]any{"kind": "url", "url": "https://docs.example.test/docs/x"}, "published"),
					link(map[string]any{"kind": "url", "url": "https://elsewhere.test/"}, "out")),
				image("i1", map[string]any{"kind": "file", "file": "logo"}),
				image("i2", map[string]any{"kind": "file", "file": "missing"}),
				voidBlock("reusable-content", "rc", map[string]any{
					"ref": map[string]any{"kind": "reusable-content", "reusableContent": "r1"}}),
			),
			"guide": docJSON(t,
				heading("h1", "Getting Started!", nil),
				heading("h2", "Other", map[string]any{"id": "custom"}),
				para("p3", link(map[string]any{"kind": "anchor", "anchor": "h2"}, "self"),
					link(map[string]any{"kind": "anchor", "anchor": "absent"}, "self missing"),
					link(map[string]any{"kind": "page", "page": "intro", "space": "sp"}, "intro")),
			),
		},
	}
}

// summary renders usages as "relation status target" lines.
func summary(us []Usage) []string {
	var out []string
	for _, u := range us {
		b, _ := json.Marshal(u.Target)
		line := string(u.Relation) + " " + string(u.Status) + " " + string(b)
		for _, l := range u.Locations {
			line += " @" + l.Page + "/" + l.Node
		}
		out = append(out, line)
	}
	return out
}

func TestIndexStatuses(t *testing.T) {
	ctx := context.Background()
	x := NewIndexer(Options{AppURLs: []string{"https://docs.example.test/app", "https://docs.example.test/v1"}})
	ix, err := x.Index(ctx, "sp", "r1", fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	us, st := ix.Usages(Filter{})
	want := []string{
		`reference ok {"kind":"page","page":"guide"} @intro/p1`,
		`reference ok {"kind":"anchor","page":"guide","anchor":"getting-started"} @intro/p1`,
		`reference ok {"kind":"anchor","page":"guide","anchor":"custom"} @intro/p1`,
		`reference broken {"kind":"anchor","page":"guide","anchor":"nowhere"} @intro/p1`,
		`reference broken {"kind":"page","page":"gone"} @intro/p2`,
		`reference in-app {"kind":"url","url":"https://Docs.Example.test:443/app/s/x"} @intro/p2`,
		`reference ok {"kind":"url","url":"https://docs.example.test/docs/x"} @intro/p2`,
		`reference ok {"kind":"url","url":"https://elsewhere.test/"} @intro/p2`,
		`reference ok {"kind":"file","file":"logo"} @intro/i1i`,
		`reference broken {"kind":"file","file":"missing"} @intro/i2i`,
		`dependsOn broken {"kind":"reusable-content","reusableContent":"r1"} @intro/rc`,
		`reference ok {"kind":"anchor","page":"guide","anchor":"h2"} @guide/p3`,
		`reference broken {"kind":"anchor","page":"guide","anchor":"absent"} @guide/p3`,
		`reference ok {"kind":"page","page":"intro"} @guide/p3`,
	}
	if got := summary(us); !slices.Equal(got, want) {
		t.Errorf("usages:\ngot  %q\nwant %q", got, want)
	}
	if st.Total != 14 || st.Broken != 5 || st.BrokenByChangeRequest != nil {
		t.Errorf("stats = %+v, want 14 total, 5 broken, no change request count", st)
	}
	broken, st2 := ix.Usages(Filter{Status: StatusBroken})
	if len(broken) != 5 || st2 != st {
		t.Errorf("broken filter: %d usages, stats %+v", len(broken), st2)
	}
	inGuide, st3 := ix.Usages(Filter{Page: "guide"})
	if len(inGuide) != 3 || st3.Total != 3 || st3.Broken != 1 {
		t.Errorf("guide's links: %q, stats %+v", summary(inGuide), st3)
	}

	back, err := ix.PageBacklinks("guide")
	if err != nil || len(back) != 1 || back[0].Page.ID != "intro" {
		t.Errorf("backlinks of guide = %v, %v; want intro", back, err)
	}
	back, err = ix.PageBacklinks("intro")
	if err != nil || len(back) != 1 || back[0].Page.ID != "guide" {
		t.Errorf("backlinks of intro = %v, %v; want guide (the same space named)", back, err)
	}
	files, err := ix.FileBacklinks("logo")
	if err != nil || len(files) != 1 || files[0].Page.ID != "intro" {
		t.Errorf("backlinks of logo = %v, %v", files, err)
	}
	if _, err := ix.FileBacklinks("missing"); !quire.IsNotFound(err) {
		t.Errorf("backlinks of a file not in the revision: %v, want not found", err)
	}
	if _, err := ix.PageBacklinks("gone"); !quire.IsNotFound(err) {
		t.Errorf("backlinks of a page not in the revision: %v, want not found", err)
	}
}

func TestIndexComparesWithBase(t *testing.T) {
	ctx := context.Background()
	x := NewIndexer(Options{})
	mainSrc := fixture(t)
	base, err := x.Index(ctx, "sp", "main", mainSrc)
	if err != nil {
		t.Fatal(err)
	}
	// The change request deletes guide: every link to it breaks.
	crSrc := fixture(t)
	crSrc.tree = crSrc.tree[:1]
	cr, err := x.Index(ctx, "sp", "cr", crSrc)
	if err != nil {
		t.Fatal(err)
	}
	_, st := cr.Usages(Filter{Base: base})
	if st.Broken != 7 || st.BrokenByChangeRequest == nil || *st.BrokenByChangeRequest != 3 {
		t.Fatalf("stats = %+v (by CR %v), want 7 broken, 3 by the change request", st, st.BrokenByChangeRequest)
	}
	byCR, _ := cr.Usages(Filter{Base: base, Context: BrokenInChangeRequest})
	want := []string{
		`reference broken {"kind":"page","page":"guide"} @intro/p1`,
		`reference broken {"kind":"anchor","page":"guide","anchor":"getting-started"} @intro/p1`,
		`reference broken {"kind":"anchor","page":"guide","anchor":"custom"} @intro/p1`,
	}
	if got := summary(byCR); !slices.Equal(got, want) {
		t.Errorf("broken by the change request:\ngot  %q\nwant %q", got, want)
	}
	inSpace, _ := cr.Usages(Filter{Base: base, Context: BrokenInSpace})
	if len(inSpace) != 4 {
		t.Errorf("broken in the space too: %q", summary(inSpace))
	}
	mainUsages, _ := base.Usages(Filter{Status: StatusOK})
	if summary(mainUsages)[0] != `reference ok {"kind":"page","page":"guide"} @intro/p1` {
		t.Errorf("main: %q", summary(mainUsages))
	}
}

func TestIndexerCachesPerRevision(t *testing.T) {
	ctx := context.Background()
	x := NewIndexer(Options{CacheSize: 1})
	src := fixture(t)
	for range 3 {
		if _, err := x.Index(ctx, "sp", "r1", src); err != nil {
			t.Fatal(err)
		}
	}
	if src.reads != 1 || !x.Cached("sp", "r1") {
		t.Fatalf("read the revision %d times, want once", src.reads)
	}
	if _, err := x.Index(ctx, "sp", "r2", src); err != nil {
		t.Fatal(err)
	}
	if x.Cached("sp", "r1") || !x.Cached("sp", "r2") {
		t.Error("a cache of one revision kept the older one")
	}
}

func TestPageRefs(t *testing.T) {
	link := &quire.RevisionPage{Type: quire.PageLink, Target: &quire.ContentRef{Kind: "page", Page: "p"}}
	href := &quire.RevisionPage{Type: quire.PageLink, Href: "https://x.test"}
	cover := &quire.RevisionPage{Type: quire.PageDocument, Cover: &quire.PageCover{
		Ref: &quire.ContentRef{Kind: "file", File: "f"}, RefDark: &quire.ContentRef{Kind: "url", URL: "https://y.test/d.png"}}}
	for _, c := range []struct {
		p    *quire.RevisionPage
		want []document.Ref
	}{
		{link, []document.Ref{{Kind: "page", Page: "p"}}},
		{href, []document.Ref{{Kind: "url", URL: "https://x.test"}}},
		{cover, []document.Ref{{Kind: "file", File: "f"}, {Kind: "url", URL: "https://y.test/d.png"}}},
	} {
		var got []document.Ref
		for _, f := range PageRefs(c.p) {
			got = append(got, f.Ref)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("PageRefs = %v, want %v", got, c.want)
		}
	}
}

func TestDocumentRefsInTablesAndEmbeds(t *testing.T) {
	raw := docJSON(t,
		voidBlock("table", "t", map[string]any{
			"view": map[string]any{"type": "cards", "columns": []any{"a"}, "targetDefinition": "b"},
			"definition": map[string]any{
				"a": map[string]any{"id": "a", "type": "files", "title": "Files"},
				"b": map[string]any{"id": "b", "type": "content-ref", "title": "Target"},
				"c": map[string]any{"id": "c", "type": "image", "title": "Cover"},
			},
			"records": map[string]any{
				"r2": map[string]any{"orderIndex": "a1", "values": map[string]any{"a": []any{"f2", "https://z.test/f"}}},
				"r1": map[string]any{"orderIndex": "a0", "values": map[string]any{
					"b": map[string]any{"kind": "page", "page": "p1"}, "c": map[string]any{"kind": "file", "file": "f1"}}},
			}}),
		voidBlock("embed", "e", map[string]any{"url": "https://video.test/1"}),
		voidBlock("openapi-operation", "o", map[string]any{
			"ref": map[string]any{"kind": "openapi", "spec": "petstore"}, "path": "/pets", "method": "get"}),
	)
	doc, err := document.ParseStored([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range DocumentRefs(doc) {
		b, _ := json.Marshal(f.Ref)
		got = append(got, f.Node+" "+string(f.Relation)+" "+string(b))
	}
	want := []string{
		`t reference {"kind":"page","page":"p1"}`,
		`t reference {"kind":"file","file":"f1"}`,
		`t reference {"kind":"file","file":"f2"}`,
		`t reference {"kind":"url","url":"https://z.test/f"}`,
		`e reference {"kind":"url","url":"https://video.test/1"}`,
		`o dependsOn {"kind":"openapi","spec":"petstore"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("refs:\ngot  %q\nwant %q", got, want)
	}
}

func TestAnchorSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Getting Started!":      "getting-started",
		"  API  v2 — Overview ": "api-v2-overview",
		"Ünïcode Titel":         "ünïcode-titel",
		"!!!":                   "",
	} {
		if got := AnchorSlug(in); got != want {
			t.Errorf("AnchorSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInApp(t *testing.T) {
	a := newInApp([]string{"http://quire.test:8080/app", "http://quire.test:8080/v1/", "not a url"})
	for raw, want := range map[string]bool{
		"http://quire.test:8080/app":         true,
		"http://QUIRE.test:8080/app/s/1":     true,
		"http://quire.test:8080/v1/spaces/x": true,
		"http://quire.test:8080/application": false,
		"http://quire.test/app/s/1":          false,
		"https://quire.test:8080/app/s/1":    false,
		"http://quire.test:8080/docs/s":      false,
		"/app/s/1":                           false,
		"http://other.test:8080/app/s/1":     false,
	} {
		if got := a.match(raw); got != want {
			t.Errorf("match(%q) = %v, want %v", raw, got, want)
		}
	}
}

// slowSource is a revision whose first read waits until released, so
// that concurrent requests overlap.
type slowSource struct {
	*fakeSource
	release chan struct{}
}

func (s *slowSource) Tree(ctx context.Context) ([]*content.TreeNode, error) {
	<-s.release
	return s.fakeSource.Tree(ctx)
}

func TestIndexerBuildsOnceUnderConcurrency(t *testing.T) {
	x := NewIndexer(Options{})
	src := &slowSource{fakeSource: fixture(t), release: make(chan struct{})}
	const n = 8
	errs := make(chan error, n)
	results := make(chan *Index, n)
	for range n {
		go func() {
			ix, err := x.Index(context.Background(), "sp", "r1", src)
			errs <- err
			results <- ix
		}()
	}
	close(src.release)
	var first *Index
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		ix := <-results
		if first == nil {
			first = ix
		} else if ix != first {
			t.Error("two indexes of one revision")
		}
	}
	if src.reads != 1 {
		t.Errorf("read the revision %d times, want once", src.reads)
	}
}
