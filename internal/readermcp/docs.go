package readermcp

import (
	"context"
	"errors"
	"net/http"
)

// ErrNotFound is returned by [Docs] for a page that does not exist or that
// the visitor may not see; the two are not told apart.
var ErrNotFound = errors.New("readermcp: not found")

// Docs answers questions about one published site for one visitor. The
// visitor is already authorized for the site; every method answers only
// what that visitor may see.
type Docs interface {
	// Info describes the site.
	Info(ctx context.Context) (SiteInfo, error)
	// Search returns at most limit hits for query, best first.
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
	// Page returns the page at path (relative to the site URL, no leading
	// slash, "" for the site's first page) as Markdown, or ErrNotFound.
	Page(ctx context.Context, path string) (Page, error)
	// Pages lists the page tree depth first: parents before their children.
	Pages(ctx context.Context) ([]PageRef, error)
}

// SiteInfo describes a published site.
type SiteInfo struct {
	// Name identifies the site; it is the MCP server name ("docs" when
	// empty).
	Name string
	// Title is the site's title as readers see it; it is the MCP server
	// title.
	Title string
	// Version is the MCP server version, e.g. the published revision
	// ("unversioned" when empty).
	Version string
	// URL is the absolute URL of the site's root, used to read page URLs
	// given to get_page.
	URL string
}

// Hit is one search result.
type Hit struct {
	Path    string
	Title   string
	URL     string
	Snippet string
}

// Page is one page as Markdown.
type Page struct {
	Path     string
	Title    string
	URL      string
	Markdown string
}

// PageRef is one entry of the page tree.
type PageRef struct {
	Path  string
	Title string
	URL   string
	// Depth is 0 for top-level pages, 1 for their children, and so on.
	Depth int
}

// StatusError is an error a getDocs function returns to answer the HTTP
// request itself, before any MCP exchange: 401 for a visitor who must sign
// in, 404 for a site the visitor may not know about, and so on.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// Message is shown to the client.
	Message string
	// Header holds headers to add to the answer (e.g. WWW-Authenticate).
	Header http.Header
}

// Error returns the message.
func (e *StatusError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return http.StatusText(e.Status)
}
