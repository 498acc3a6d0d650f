// Package sitepage maps a page of a site, as the service reads it, to
// the reader's view of it: the published site and the app's preview of a
// site both draw it through here.
package sitepage

import (
	"quire/internal/document"
	"quire/internal/reader"
	"quire/internal/service"
)

// Page is the reader's view of a page of a published site, or of its
// preview: one mapping, so both are drawn alike.
func Page(p *service.SitePage) *reader.Page {
	v := p.Visit
	out := &reader.Page{
		Site: reader.SiteFromCustomization(*v.Customization, reader.SiteOptions{
			Title: v.Site.Title, HomeURL: v.Base, Show: p.Holds,
		}),
		Title:       p.Title,
		Description: p.Description,
		Document:    p.Document,
		Search:      reader.Search{Action: v.Base + "~search", JSONURL: v.Base + "~search"},
		MarkdownURL: p.MarkdownURL,
		NoIndex:     p.NoIndex,
		Empty:       p.Empty,
		Tree:        treeItems(p.Tree),
		Previous:    linkOf(p.Previous),
		Next:        linkOf(p.Next),
	}
	for _, t := range p.Sections {
		sec := reader.Section{Link: link(t.SiteNavLink)}
		for _, c := range t.Children {
			sec.Children = append(sec.Children, link(c))
		}
		out.Sections = append(out.Sections, sec)
	}
	for _, l := range p.Variants {
		out.Variants = append(out.Variants, link(l))
	}
	out.Resolvers = reader.Resolvers{
		Link:      func(ref document.Ref) reader.Target { return reader.Target(p.Link(ref)) },
		Image:     p.Image,
		File:      func(ref document.Ref) reader.Target { return reader.Target(p.File(ref)) },
		Path:      func(path string) reader.Target { return reader.Target(p.Path(path)) },
		Condition: p.Holds,
		OpenAPI: func(n document.Node) *reader.OpenAPICard {
			op := p.Operation(n)
			switch {
			case op == nil:
				return nil
			case op.Card != nil:
				return &reader.OpenAPICard{Operation: op.Card}
			}
			return &reader.OpenAPICard{Method: op.Method, Path: op.Path, Missing: op.Missing}
		},
	}
	if p.Cover != nil {
		out.CoverURL = p.Image(*p.Cover)
	}
	l := p.Layout
	out.Layout = reader.Layout{HideTitle: !l.Title, HideDescription: !l.Description, HideTree: !l.TableOfContents,
		HideOutline: !l.Outline, HidePagination: !l.Pagination, HideCover: !l.Cover,
		FullCover: l.CoverSize == "full", Wide: l.Width == "wide"}
	return out
}

// treeItems is a page tree as the reader's sidebar shows it.
func treeItems(items []service.SiteNavItem) []reader.TreeItem {
	if items == nil {
		return nil
	}
	out := make([]reader.TreeItem, len(items))
	for i, it := range items {
		out[i] = reader.TreeItem{Title: it.Title, URL: it.URL, Group: it.Group, Hidden: it.Hidden,
			Active: it.Active, Children: treeItems(it.Children)}
	}
	return out
}

// link is a link of a site's navigation as the reader shows it.
func link(l service.SiteNavLink) reader.Link {
	return reader.Link{Title: l.Title, URL: l.URL, Active: l.Active}
}

// linkOf is link of an optional link.
func linkOf(l *service.SiteNavLink) *reader.Link {
	if l == nil {
		return nil
	}
	out := link(*l)
	return &out
}
