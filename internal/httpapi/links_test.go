package httpapi

import (
	"net/http"
	"slices"
	"testing"
)

// Builders of JSON documents for link tests.

func jText(s string) map[string]any {
	return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}
}

func jLink(ref map[string]any, label string) map[string]any {
	return map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": ref}, "nodes": []any{jText(label)}}
}

func jPara(nodes ...any) map[string]any {
	return map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": nodes}
}

func jImage(ref map[string]any) map[string]any {
	return map[string]any{"object": "block", "type": "images", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "image", "isVoid": true, "data": map[string]any{"ref": ref},
			"nodes": []any{}, "fragments": []any{}}}}
}

func jDoc(blocks ...any) map[string]any {
	return map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": blocks}}
}

// linksFixture is a space whose page Intro links to the page Guide, to
// a heading of it, to a missing anchor and a missing page, to the file
// logo.png and a missing file, to the server's own app and to another
// site.
type linksFixture struct {
	Space, Intro, Guide, Logo string
}

func (ts *testServer) newLinksFixture(t *testing.T) *linksFixture {
	t.Helper()
	f := &linksFixture{Space: ts.newSpace(t, "Links")}
	cr := str(ts.newChangeRequest(t, f.Space, "Pages with links"), "id")
	res := ts.writeContent(t, f.Space, cr,
		insertPage("Intro", "Soon."),
		insertPage("Guide", "## Getting started\n\nRead on.\n"),
		insertFiles(inlineFile("logo.png", pngBytes(t, 2, 2))))
	f.Intro, f.Guide, f.Logo = changedPage(t, res, 0), changedPage(t, res, 1), insertedFileID(t, res, 0)
	ts.writeContent(t, f.Space, cr, updatePage(f.Intro, "document", jDoc(
		jPara(jLink(map[string]any{"kind": "page", "page": f.Guide}, "the guide"),
			jLink(map[string]any{"kind": "anchor", "page": f.Guide, "anchor": "getting-started"}, "start"),
			jLink(map[string]any{"kind": "anchor", "page": f.Guide, "anchor": "nowhere"}, "nowhere")),
		jPara(jLink(map[string]any{"kind": "page", "page": "nosuchpage"}, "gone"),
			jLink(map[string]any{"kind": "url", "url": testBaseURL + "/app/s/" + f.Space}, "in the app"),
			jLink(map[string]any{"kind": "url", "url": "https://example.com/"}, "elsewhere")),
		jImage(map[string]any{"kind": "file", "file": f.Logo}),
		jImage(map[string]any{"kind": "file", "file": "nosuchfile"}),
	)))
	ts.mergeCR(t, f.Space, cr)
	return f
}

// linkLines renders the items of a links list as "status kind page#anchor
// file url" lines.
func linkLines(t *testing.T, list map[string]any) []string {
	t.Helper()
	var out []string
	for _, it := range items(t, list) {
		line := str(it, "status") + " " + str(it, "relation") + " " + str(it, "target.kind")
		for _, k := range []string{"target.page", "target.anchor", "target.file", "target.url"} {
			if v := str(it, k); v != "" {
				line += " " + v
			}
		}
		out = append(out, line)
	}
	return out
}

func TestLinks(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := ts.newLinksFixture(t)
		reader := ts.token(cRead)
		base := "/v1/spaces/" + f.Space
		all := ts.must(t, http.StatusOK, "GET", base+"/links", reader, nil)
		want := []string{
			"ok reference page " + f.Guide,
			"ok reference anchor " + f.Guide + " getting-started",
			"broken reference anchor " + f.Guide + " nowhere",
			"broken reference page nosuchpage",
			"in-app reference url " + testBaseURL + "/app/s/" + f.Space,
			"ok reference url https://example.com/",
			"ok reference file " + f.Logo,
			"broken reference file nosuchfile",
		}
		if got := linkLines(t, all); !slices.Equal(got, want) {
			t.Fatalf("links:\ngot  %q\nwant %q", got, want)
		}
		wantFields(t, all, map[string]any{"count": 8, "stats.total": 8, "stats.broken.total": 3})
		wantAbsent(t, all, "stats.broken.changeRequest")
		wantAbsent(t, all, "next")

		// Each link tells where it is found, and its target when the
		// revision holds it.
		first := items(t, all)[0]
		wantFields(t, first, map[string]any{
			"targetReference.kind": "page", "targetReference.page.id": f.Guide, "targetReference.page.title": "Guide",
			"targetReference.space.id": f.Space, "targetReference.organization.id": ts.Org,
			"locationReferences.0.kind": "page", "locationReferences.0.page.id": f.Intro,
			"locationReferences.0.page.path": "intro", "locationReferences.0.internalLocation.type": "node",
		})
		wantAbsent(t, first, "locationReferences.0.versionContext")
		anchor := items(t, all)[1]
		wantFields(t, anchor, map[string]any{"targetReference.internalLocation": map[string]any{"type": "anchor", "anchor": "getting-started"}})
		for i, kind := range map[int]string{2: "page", 3: "", 4: "url", 6: "file", 7: ""} {
			it := items(t, all)[i]
			if got := str(it, "targetReference.kind"); got != kind {
				t.Errorf("item %d: targetReference.kind %q, want %q", i, got, kind)
			}
		}
		wantFields(t, items(t, all)[6], map[string]any{"targetReference.file.id": f.Logo, "targetReference.file.name": "logo.png"})

		// The status filter keeps the stats of the whole list.
		broken := ts.must(t, http.StatusOK, "GET", base+"/links?status=broken", reader, nil)
		if got := linkLines(t, broken); !slices.Equal(got, []string{want[2], want[3], want[7]}) {
			t.Errorf("broken links: %q", got)
		}
		wantFields(t, broken, map[string]any{"count": 3, "stats.total": 8, "stats.broken.total": 3})
		inApp := ts.must(t, http.StatusOK, "GET", base+"/links?status=in-app", reader, nil)
		if got := linkLines(t, inApp); !slices.Equal(got, []string{want[4]}) {
			t.Errorf("in-app links: %q", got)
		}

		// Pages of the list.
		var paged []string
		next := base + "/links?limit=3"
		for range 5 {
			l := ts.must(t, http.StatusOK, "GET", next, reader, nil)
			if n := len(items(t, l)); n > 3 {
				t.Fatalf("page of %d items with limit 3", n)
			}
			wantFields(t, l, map[string]any{"count": 8, "stats.total": 8})
			paged = append(paged, linkLines(t, l)...)
			if !has(l, "next") {
				break
			}
			next = base + "/links?limit=3&page=" + str(l, "next.page")
		}
		if !slices.Equal(paged, want) {
			t.Errorf("paged links:\ngot  %q\nwant %q", paged, want)
		}

		// A page's links, and backlinks.
		intro := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+f.Intro+"/links", reader, nil)
		if got := linkLines(t, intro); !slices.Equal(got, want) {
			t.Errorf("links of intro: %q", got)
		}
		guide := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+f.Guide+"/links?status=ok", reader, nil)
		wantFields(t, guide, map[string]any{"items": []any{}, "stats.total": 0, "stats.broken.total": 0})
		back := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+f.Guide+"/backlinks", reader, nil)
		if got := ids(t, back, "page.id"); !slices.Equal(got, []string{f.Intro}) {
			t.Errorf("backlinks of guide: %v", got)
		}
		wantFields(t, items(t, back)[0], map[string]any{"kind": "page", "space.id": f.Space, "organization.id": ts.Org})
		none := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+f.Intro+"/backlinks", reader, nil)
		wantFields(t, none, map[string]any{"items": []any{}, "count": 0})
		files := ts.must(t, http.StatusOK, "GET", base+"/content/files/"+f.Logo+"/backlinks", reader, nil)
		if got := ids(t, files, "page.id"); !slices.Equal(got, []string{f.Intro}) {
			t.Errorf("backlinks of logo.png: %v", got)
		}
		ts.mustError(t, http.StatusNotFound, "GET", base+"/content/files/nosuchfile/backlinks", reader, nil)
		ts.mustError(t, http.StatusNotFound, "GET", base+"/content/page/nosuchpage/backlinks", reader, nil)
		ts.mustError(t, http.StatusNotFound, "GET", base+"/content/page/nosuchpage/links", reader, nil)
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/spaces/nosuchspace/links", reader, nil)
		ts.mustError(t, http.StatusNotFound, "GET", base+"/links", ts.token(cNonMember), nil)
	})
}

func TestChangeRequestLinks(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := ts.newLinksFixture(t)
		reader := ts.token(cRead)
		base := "/v1/spaces/" + f.Space
		cr := str(ts.newChangeRequest(t, f.Space, "Drop the guide"), "id")
		ts.writeContent(t, f.Space, cr, deletePage(f.Guide))

		// The change request breaks the link to the guide and to its
		// heading; the missing anchor, page and file were broken before.
		l := ts.must(t, http.StatusOK, "GET", crPath(f.Space, cr, "/links?status=broken"), reader, nil)
		want := []string{
			"broken reference page " + f.Guide,
			"broken reference anchor " + f.Guide + " getting-started",
			"broken reference anchor " + f.Guide + " nowhere",
			"broken reference page nosuchpage",
			"broken reference file nosuchfile",
		}
		if got := linkLines(t, l); !slices.Equal(got, want) {
			t.Fatalf("broken links of the change request:\ngot  %q\nwant %q", got, want)
		}
		wantFields(t, l, map[string]any{"stats.total": 8, "stats.broken.total": 5, "stats.broken.changeRequest": 2})
		loc := items(t, l)[0]
		wantFields(t, loc, map[string]any{"locationReferences.0.versionContext.type": "changeRequest",
			"locationReferences.0.versionContext.changeRequest.id": cr})
		wantAbsent(t, loc, "targetReference")

		byCR := ts.must(t, http.StatusOK, "GET", crPath(f.Space, cr, "/links?brokenContext=change-request"), reader, nil)
		if got := linkLines(t, byCR); !slices.Equal(got, want[:2]) {
			t.Errorf("links the change request broke: %q", got)
		}
		inSpace := ts.must(t, http.StatusOK, "GET", crPath(f.Space, cr, "/links?brokenContext=space"), reader, nil)
		if got := linkLines(t, inSpace); !slices.Equal(got, want[2:]) {
			t.Errorf("links broken in the space too: %q", got)
		}
		page := ts.must(t, http.StatusOK, "GET", crPath(f.Space, cr, "/content/page/"+f.Intro+"/links"), reader, nil)
		wantFields(t, page, map[string]any{"count": 8, "stats.broken.total": 5, "stats.broken.changeRequest": 2})

		// Main is unchanged until the merge.
		main := ts.must(t, http.StatusOK, "GET", base+"/links", reader, nil)
		wantFields(t, main, map[string]any{"items.0.status": "ok", "items.0.target.page": f.Guide, "stats.broken.total": 3})

		ts.mustError(t, http.StatusNotFound, "GET", crPath(f.Space, cr, "/content/page/"+f.Guide+"/backlinks"), reader, nil)
		files := ts.must(t, http.StatusOK, "GET", crPath(f.Space, cr, "/content/files/"+f.Logo+"/backlinks"), reader, nil)
		if got := ids(t, files, "page.id"); !slices.Equal(got, []string{f.Intro}) {
			t.Errorf("backlinks of logo.png in the change request: %v", got)
		}
		wantFields(t, items(t, files)[0], map[string]any{"versionContext.changeRequest.id": cr})
		mainBack := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+f.Guide+"/backlinks", reader, nil)
		if got := ids(t, mainBack, "page.id"); !slices.Equal(got, []string{f.Intro}) {
			t.Errorf("backlinks of guide on main: %v", got)
		}
		ts.mustError(t, http.StatusNotFound, "GET", crPath(f.Space, "nosuchcr", "/links"), reader, nil)

		// After the merge, main shows what the change request broke.
		ts.mergeCR(t, f.Space, cr)
		after := ts.must(t, http.StatusOK, "GET", base+"/links?status=broken", reader, nil)
		if got := linkLines(t, after); !slices.Equal(got, want) {
			t.Errorf("broken links after the merge: %q", got)
		}
	})
}

func TestLinksQueryValues(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := ts.newLinksFixture(t)
		cr := str(ts.newChangeRequest(t, f.Space, "Nothing yet"), "id")
		admin := ts.token(cAdmin)
		base := "/v1/spaces/" + f.Space
		for _, c := range []struct{ path, mention string }{
			{base + "/links?status=fine", "status"},
			{base + "/links?status=OK", "status"},
			{base + "/links?limit=1001", "limit"},
			{base + "/links?limit=x", "limit"},
			{base + "/links?page=not*a*cursor", "page"},
			{base + "/content/page/" + f.Intro + "/links?status=broken,ok", "status"},
			{crPath(f.Space, cr, "/links?brokenContext=main"), "brokenContext"},
			{crPath(f.Space, cr, "/links?status=gone"), "status"},
			{crPath(f.Space, cr, "/content/page/"+f.Intro+"/links?page=***"), "page"},
			{base + "/content/page/" + f.Guide + "/backlinks?limit=-1", "limit"},
			{base + "/content/files/" + f.Logo + "/backlinks?page=!!!", "page"},
			{crPath(f.Space, cr, "/content/files/"+f.Logo+"/backlinks?limit=1.5"), "limit"},
		} {
			r := ts.send(t, "GET", c.path, admin, nil)
			if r.Status != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400: %s", c.path, r.Status, r.Body)
				continue
			}
			wantContains(t, checkErrorBody(t, r), c.mention)
		}
	})
}

func TestLinksFromMarkdown(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Markdown links")
		cr := str(ts.newChangeRequest(t, sp, "A page"), "id")
		res := ts.writeContent(t, sp, cr, insertPage("Setup",
			"## Install the CLI\n\nSee [install](#install-the-cli), [missing](#missing) and [the site](https://example.com).\n\n![logo](nosuchfile.png)\n"))
		page := changedPage(t, res, 0)
		l := ts.must(t, http.StatusOK, "GET", crPath(sp, cr, "/content/page/"+page+"/links"), ts.token(cRead), nil)
		want := []string{
			"ok reference anchor " + page + " install-the-cli",
			"broken reference anchor " + page + " missing",
			"ok reference url https://example.com",
			"broken reference file nosuchfile.png",
		}
		if got := linkLines(t, l); !slices.Equal(got, want) {
			t.Errorf("links of a Markdown page:\ngot  %q\nwant %q", got, want)
		}
		// Both broken links are new in the change request: main has no
		// such page.
		wantFields(t, l, map[string]any{"stats.total": 4, "stats.broken.total": 2, "stats.broken.changeRequest": 2})
		// A page's links to itself are no backlinks.
		back := ts.must(t, http.StatusOK, "GET", crPath(sp, cr, "/content/page/"+page+"/backlinks"), ts.token(cRead), nil)
		wantFields(t, back, map[string]any{"items": []any{}})
	})
}

func TestLinksOfImportedPages(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		url := pushRepo(t, map[string]string{
			"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n" +
				"* [Steps](install.md#steps)\n* [Source](https://example.com/src)\n",
			"README.md":                "---\ncover: .gitbook/assets/logo.png\n---\n\n# Welcome\n\nSee [installing](install.md#steps) and [nowhere](install.md#nowhere).\n",
			"install.md":               "# Install\n\n## Steps\n\nDo it.\n",
			".gitbook/assets/logo.png": string(pngBytes(t, 2, 2)),
		})
		space := ts.newSpace(t, "Imported")
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), ts.token(cAdmin),
			map[string]any{"url": url, "ref": "refs/heads/main"})
		wantFields(t, ts.waitGit(t, space), map[string]any{"operation.state": "success"})
		_, byPath := ts.pageTree(t, space)
		welcome, install := byPath["welcome"], byPath["install"]
		reader := ts.token(cRead)
		base := "/v1/spaces/" + space
		l := ts.must(t, http.StatusOK, "GET", base+"/links", reader, nil)
		its := items(t, l)
		if len(its) != 4 {
			t.Fatalf("links of the imported space: %q", linkLines(t, l))
		}
		logo := str(its[0], "target.file")
		want := []string{
			"ok reference file " + logo,
			"ok reference anchor " + install + " steps",
			"broken reference anchor " + install + " nowhere",
			"ok reference url https://example.com/src",
		}
		if got := linkLines(t, l); !slices.Equal(got, want) || logo == "" {
			t.Errorf("links of the imported space:\ngot  %q\nwant %q", got, want)
		}
		// The cover is the page's own reference: no block.
		wantFields(t, its[0], map[string]any{"locationReferences.0.page.id": welcome})
		wantAbsent(t, its[0], "locationReferences.0.internalLocation")
		// The link page to the anchor is a second location of that target.
		if locs := field(its[1], "locationReferences").([]any); len(locs) != 2 || str(locs[0], "page.id") != welcome {
			t.Errorf("locations of the link to the steps: %v", locs)
		}
		back := ts.must(t, http.StatusOK, "GET", base+"/content/page/"+install+"/backlinks", reader, nil)
		if got := ids(t, back, "page.id"); len(got) != 2 || got[0] != welcome {
			t.Errorf("backlinks of install: %v", got)
		}
		files := ts.must(t, http.StatusOK, "GET", base+"/content/files/"+logo+"/backlinks", reader, nil)
		if got := ids(t, files, "page.id"); !slices.Equal(got, []string{welcome}) {
			t.Errorf("backlinks of the cover: %v", got)
		}
	})
}
