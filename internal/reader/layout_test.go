package reader

import (
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page's layout decides what it draws: a hidden title stays for
// assistive technology only, hidden parts are left out, the cover is
// drawn over the content or across the page, and a wide page takes the
// whole width.
func TestPageLayout(t *testing.T) {
	p := fixturePage(t)
	p.CoverURL = "/files/cover.png"
	doc, _ := renderFixture(t, p)
	h1 := findAll(doc, byTag(atom.H1))
	if len(h1) != 1 || hasClass(h1[0], "visually-hidden") {
		t.Fatal("the default layout hides the title")
	}
	for _, c := range []string{"description", "outline", "pagination", "sidebar", "cover"} {
		if len(findAll(doc, byClass(c))) == 0 {
			t.Errorf("the default layout leaves out .%s", c)
		}
	}
	cover := findAll(doc, byClass("cover"))
	if len(cover) != 1 || cover[0].Parent.DataAtom != atom.Article {
		t.Error("the cover is not drawn at the top of the article")
	}

	p.Layout = Layout{HideTitle: true, HideDescription: true, HideOutline: true, HidePagination: true, FullCover: true, Wide: true}
	doc, _ = renderFixture(t, p)
	h1 = findAll(doc, byTag(atom.H1))
	if len(h1) != 1 || !hasClass(h1[0], "visually-hidden") || textOf(h1[0]) != p.Title {
		t.Error("a hidden title is not kept for assistive technology only")
	}
	for _, c := range []string{"description", "outline", "pagination"} {
		if n := len(findAll(doc, byClass(c))); n != 0 {
			t.Errorf("a hidden .%s is drawn", c)
		}
	}
	layout := findAll(doc, byClass("layout"))
	if len(layout) != 1 || !hasClass(layout[0], "layout-wide") {
		t.Error("a wide page does not use the wide layout")
	}
	cover = findAll(doc, byClass("cover"))
	if len(cover) != 1 || !hasClass(cover[0], "cover-full") || cover[0].Parent.DataAtom != atom.Body {
		t.Error("a full cover is not drawn across the page")
	}

	p.Layout = Layout{HideCover: true, HideTree: true}
	p.Variants = nil
	doc, _ = renderFixture(t, p)
	if n := len(findAll(doc, byClass("cover"))); n != 0 {
		t.Error("a hidden cover is drawn")
	}
	if n := len(findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == "sidebar" })) + len(findAll(doc, byClass("nav-toggle"))); n != 0 {
		t.Error("a page without its table of contents has a sidebar")
	}
}
