package reader

import (
	"context"
	"io"
)

// SiteEntry is a published site listed on the start page.
type SiteEntry struct {
	Title       string
	URL         string
	Description string
}

// SiteLister lists the published sites a visitor may read; the start
// page asks it on every visit.
type SiteLister interface {
	PublishedSites(ctx context.Context) ([]SiteEntry, error)
}

// StartPage is the view model of the server's start page.
type StartPage struct {
	// ServerName names the server ("Quire" when empty).
	ServerName string
	// Sites are the published sites the visitor may read.
	Sites []SiteEntry
	// APIDocsURL is the API reference's address.
	APIDocsURL string
	// OpenAPIURL is the OpenAPI document's address.
	OpenAPIURL string
}

type startData struct {
	chrome
	StartPage
}

// RenderStart writes the start page.
func (r *Renderer) RenderStart(w io.Writer, p StartPage) error {
	if p.ServerName == "" {
		p.ServerName = "Quire"
	}
	c := r.chrome(Site{Title: p.ServerName, ThemeToggle: true}, "en", p.ServerName)
	c.Description = p.ServerName + " serves documentation: published sites for readers, and an API to write them."
	return r.tmpl.ExecuteTemplate(w, "start", startData{chrome: c, StartPage: p})
}

type apiRefData struct {
	chrome
	Ref        *APIReference
	OpenAPIURL string
}

// RenderAPIReference writes an OpenAPI document as an HTML reference.
func (r *Renderer) RenderAPIReference(w io.Writer, ref *APIReference, openAPIURL string) error {
	title := ref.Title
	if title == "" {
		title = "API"
	}
	c := r.chrome(Site{Title: title, ThemeToggle: true}, "en", title+" reference")
	c.Description = "Every operation of the " + title + ", with its parameters, request body and responses."
	return r.tmpl.ExecuteTemplate(w, "apiref", apiRefData{chrome: c, Ref: ref, OpenAPIURL: openAPIURL})
}
