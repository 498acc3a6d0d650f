package gitbook

import (
	"fmt"
	"testing"

	"quire/internal/content"
	"quire/internal/quire"
)

// genSpace builds a space of about n document pages covering what the
// format carries: groups (one whose slug is not its title's), nesting,
// link and computed pages, front matter, emoji, assets and links between
// pages.
func genSpace(t testing.TB, n int) *Space {
	t.Helper()
	sp := &Space{Redirects: map[string]string{"old/welcome": "README.md"}}
	sp.Files = []*File{
		{ID: "f-img", Name: "image.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nimage")},
		{ID: "f-img1", Name: "image (1).png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nother")},
		{ID: "f-pdf", Name: "manual v2.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 manual")},
		{ID: "f-svg", Name: "diagram.svg", ContentType: "image/svg+xml", Data: []byte("<svg/>")},
		{ID: "f-csv", Name: "data#1.csv", ContentType: "text/csv", Data: []byte("a,b\n1,2\n")},
	}
	seq := 0
	newPage := func(title string) *Page {
		seq++
		return &Page{ID: fmt.Sprintf("p%04d", seq), Kind: quire.PageDocument, Title: title, Slug: content.Slugify(title)}
	}
	var all []*Page
	body := func(p *Page, i int) {
		other := "p0001"
		if len(all) > 0 {
			other = all[(i*7)%len(all)].ID
		}
		md := fmt.Sprintf("Intro of **%s**, see [the start](page:p0001) and [a section](page:%s#details).\n\n"+
			"# Details\n\n"+
			"A list:\n\n* one\n* two with `code`\n\n"+
			"![](file:f-img)\n\n"+
			"{%% hint style=\"info\" %%}\nA hint about [this page](page:%s#details).\n{%% endhint %%}\n\n"+
			"## Files\n\n"+
			"{%% file src=\"file:f-pdf\" %%}\nThe manual.\n{%% endfile %%}\n\n"+
			"```go\nfmt.Println(%d)\n```\n\n"+
			"| a | b |\n| - | - |\n| 1 | [csv](file:f-csv) |\n\n"+
			"{%% content-ref url=\"page:%s\" %%}\n[link](page:%s)\n{%% endcontent-ref %%}\n\n"+
			"### Figure\n\n<figure><img src=\"file:f-img1\" alt=\"pic\"><figcaption><p>Caption</p></figcaption></figure>\n",
			p.Title, other, p.ID, i, other, other)
		p.Document = mustDoc(t, md)
		switch {
		case i%5 == 1:
			p.Hidden = true
		case i%5 == 2:
			p.Icon = "book-open"
		case i%5 == 3:
			l := quire.DefaultPageLayout()
			l.Width, l.Outline, l.CoverSize = "wide", false, "full"
			p.Layout = &l
		}
		if i%4 == 1 {
			p.Description = fmt.Sprintf("What page %d is about: a description long enough to be folded by some writers, %s.", i, p.Title)
		}
		if i%6 == 2 {
			p.Cover = &quire.PageCover{Ref: &quire.ContentRef{Kind: "file", File: "f-svg"}, YPos: 120}
		}
		if i%9 == 4 {
			p.Extra = map[string]any{"metadata": map[string]any{"owner": "docs", "weight": 3}}
			p.Variables = map[string]string{"version": "2.0"}
			p.NoIndex, p.Condition = true, "visitor.claims.unsigned.beta == true"
		}
		all = append(all, p)
	}

	welcome := newPage("Welcome to Quire")
	welcome.Emoji = "1f44b"
	body(welcome, 0)
	welcome.Description = "The landing page."
	sp.Pages = append(sp.Pages, welcome)

	quick := newPage("Quick start")
	body(quick, 1)
	for _, title := range []string{"Install", "Tips & [tricks] *fast*", "C#"} {
		c := newPage(title)
		body(c, seq)
		quick.Children = append(quick.Children, c)
	}
	sp.Pages = append(sp.Pages, quick)

	guides := &Page{ID: "g-guides", Kind: quire.PageGroup, Title: "Guides", Slug: "guides"}
	api := &Page{ID: "g-api", Kind: quire.PageGroup, Title: "API Reference", Slug: "api", Emoji: "1f680"}
	sp.Pages = append(sp.Pages, guides, api)

	// Chapters of three levels until n pages exist.
	for chapter := 1; seq < n; chapter++ {
		parent := guides
		if chapter%3 == 0 {
			parent = api
		}
		ch := newPage(fmt.Sprintf("Chapter %d", chapter))
		body(ch, seq)
		for s := 1; s <= 3 && seq < n; s++ {
			sec := newPage(fmt.Sprintf("Section %d.%d", chapter, s))
			body(sec, seq)
			for k := 1; k <= 2 && s%2 == 1 && seq < n; k++ {
				leaf := newPage(fmt.Sprintf("Topic %d.%d.%d", chapter, s, k))
				body(leaf, seq)
				sec.Children = append(sec.Children, leaf)
			}
			ch.Children = append(ch.Children, sec)
		}
		parent.Children = append(parent.Children, ch)
	}
	renamed := newPage("A page renamed later")
	renamed.Slug = "custom-slug"
	body(renamed, seq)
	guides.Children = append(guides.Children, renamed)

	api.Children = append(api.Children,
		&Page{ID: "l-ext", Kind: quire.PageLink, Title: "GitHub", Href: "https://github.com/example/quire",
			Target: &quire.ContentRef{Kind: "url", URL: "https://github.com/example/quire"}},
		&Page{ID: "l-anchor", Kind: quire.PageLink, Title: "Quick start details",
			Target: &quire.ContentRef{Kind: "anchor", Page: quick.ID, Anchor: "details"}},
		&Page{ID: "l-file", Kind: quire.PageLink, Title: "The manual",
			Target: &quire.ContentRef{Kind: "file", File: "f-pdf"}},
		&Page{ID: "c-openapi", Kind: quire.PageComputed, Computed: &quire.ComputedSource{
			Type:         "builtin:openapi",
			Props:        map[string]any{"models": false, "downloadLink": true, "grouping": "by-operation"},
			Dependencies: map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}},
		}},
	)
	return sp
}
