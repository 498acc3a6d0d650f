package httpapi

import (
	"bytes"
	"context"

	"quire/internal/reader"
	"quire/internal/service"
	"quire/internal/sitepage"
)

// renderedPagesSize is how many rendered pages of sites the server keeps,
// by their ETag.
const renderedPagesSize = 512

// renderSitePage renders a page of a site as HTML and keeps it under its
// ETag; a page whose references could not all be read is not kept, and
// answers that failure.
func (s *Server) renderSitePage(p *service.SitePage) ([]byte, error) {
	var buf bytes.Buffer
	if err := s.render.RenderPage(&buf, sitepage.Page(p)); err != nil {
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
	return reader.PageMarkdown(ctx, sitepage.Page(p))
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
