package httpapi

import (
	"bytes"
	"context"

	"quire/internal/document"
	"quire/internal/reader"
	"quire/internal/service"
)

// renderedPagesSize is how many rendered pages of sites the server keeps,
// by their ETag.
const renderedPagesSize = 512

// renderSitePage renders a page of a site as HTML and keeps it under its
// ETag; a page whose references could not all be read is not kept, and
// answers that failure.
func (s *Server) renderSitePage(p *service.SitePage) ([]byte, error) {
	var buf bytes.Buffer
	if err := s.render.RenderPage(&buf, readerPage(p)); err != nil {
		return nil, err
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	s.pages.Add(p.ETag, buf.Bytes())
	return buf.Bytes(), nil
}

// pageMarkdown writes a page of a site as Markdown.
func pageMarkdown(ctx context.Context, p *service.SitePage) (string, error) {
	return reader.PageMarkdown(ctx, readerPage(p))
}

// readerPage is the reader's view of a page of a site.
func readerPage(p *service.SitePage) *reader.Page {
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
		Previous:    readerLinkOf(p.Previous),
		Next:        readerLinkOf(p.Next),
	}
	for _, t := range p.Sections {
		sec := reader.Section{Link: readerLink(t.SiteNavLink)}
		for _, c := range t.Children {
			sec.Children = append(sec.Children, readerLink(c))
		}
		out.Sections = append(out.Sections, sec)
	}
	for _, l := range p.Variants {
		out.Variants = append(out.Variants, readerLink(l))
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

// readerLink is a link of a site's navigation as the reader shows it.
func readerLink(l service.SiteNavLink) reader.Link {
	return reader.Link{Title: l.Title, URL: l.URL, Active: l.Active}
}

// readerLinkOf is readerLink of an optional link.
func readerLinkOf(l *service.SiteNavLink) *reader.Link {
	if l == nil {
		return nil
	}
	out := readerLink(*l)
	return &out
}

// siteLLMsTxt is a site's llms.txt for a visitor: its pages, each as
// Markdown.
func siteLLMsTxt(ctx context.Context, sites *service.SiteReader, v *service.SiteVisit) (string, error) {
	pages, err := sites.Pages(ctx, v)
	if err != nil {
		return "", err
	}
	links := make([]reader.Link, len(pages))
	for i, p := range pages {
		links[i] = reader.Link{Title: p.Title, URL: p.URL + ".md"}
	}
	title := v.Customization.Title
	if title == "" {
		title = v.Site.Title
	}
	return reader.LLMsTxt(title, "", links), nil
}

// SiteList lists the public published sites for the start page.
type SiteList struct {
	Sites *service.SiteReader
}

// PublishedSites implements reader.SiteLister.
func (l SiteList) PublishedSites(ctx context.Context) ([]reader.SiteEntry, error) {
	sites, err := l.Sites.PublishedSites(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]reader.SiteEntry, len(sites))
	for i, s := range sites {
		out[i] = reader.SiteEntry{Title: s.Title, URL: s.URL}
	}
	return out, nil
}
