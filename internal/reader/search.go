package reader

import "io"

// TextPart is a run of text, marked where it matched a search's terms.
// The text is escaped when rendered, and a mark is the only markup
// added.
type TextPart struct {
	Text string
	Mark bool
}

// SearchResult is a page found by a search.
type SearchResult struct {
	// URL leads to the page or to its section that matched.
	URL string
	// Title is the page's title.
	Title []TextPart
	// Section is the heading of the section that matched; empty for the
	// page's first section.
	Section string
	// Snippet is the part of the section's text around the match.
	Snippet []TextPart
}

// SearchPage is the view model of a site's search results page.
type SearchPage struct {
	// Lang is the site's language (BCP 47); "en" when empty.
	Lang string
	Site Site
	// Search configures the search box; its Query is the query the
	// results answer.
	Search  Search
	Results []SearchResult
}

// searchData is the template data of a search results page.
type searchData struct {
	chrome
	Query   string
	Results []SearchResult
}

// RenderSearch writes a search results page.
func (r *Renderer) RenderSearch(w io.Writer, p *SearchPage) error {
	title := "Search"
	if p.Search.Query != "" {
		title = "Search: " + p.Search.Query
	}
	if p.Site.Title != "" {
		title += " | " + p.Site.Title
	}
	c := r.chrome(p.Site, p.Lang, title)
	c.NoIndex = true
	c.Search = p.Search
	return r.tmpl.ExecuteTemplate(w, "search", searchData{chrome: c, Query: p.Search.Query, Results: p.Results})
}
