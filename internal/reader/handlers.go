package reader

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"sync"
)

// NoSites lists no sites: the start page of a server that publishes
// none says so.
type NoSites struct{}

// PublishedSites returns no sites.
func (NoSites) PublishedSites(context.Context) ([]SiteEntry, error) { return nil, nil }

// writeHTML sends a rendered page, or a plain 500 when rendering failed
// (nothing is sent before the page is whole).
func writeHTML(w http.ResponseWriter, r *http.Request, log *slog.Logger, render func(*bytes.Buffer) error) {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		log.ErrorContext(r.Context(), "rendering a reader page", "path", r.URL.Path, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	_, _ = w.Write(buf.Bytes())
}

// StartHandler serves the start page: what the server is, the sites the
// visitor may read, and links to the API reference.
func (r *Renderer) StartHandler(sites SiteLister, page StartPage, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		list, err := sites.PublishedSites(req.Context())
		if err != nil {
			log.ErrorContext(req.Context(), "listing published sites", "err", err)
			http.Error(w, "the list of sites could not be read", http.StatusInternalServerError)
			return
		}
		p := page
		p.Sites = list
		writeHTML(w, req, log, func(b *bytes.Buffer) error { return r.RenderStart(b, p) })
	})
}

// APIDocsHandler serves the OpenAPI document that spec returns as an
// HTML reference. The document does not change while the server runs,
// so it is read and rendered once, on the first request that succeeds.
func (r *Renderer) APIDocsHandler(spec func(context.Context) ([]byte, error), openAPIURL string, log *slog.Logger) http.Handler {
	var mu sync.Mutex
	var page []byte
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		cached := page
		mu.Unlock()
		if cached == nil {
			doc, err := spec(req.Context())
			if err != nil {
				log.ErrorContext(req.Context(), "reading the OpenAPI document", "err", err)
				http.Error(w, "the API reference could not be built", http.StatusInternalServerError)
				return
			}
			ref, err := ReadAPIReference(doc)
			if err != nil {
				log.ErrorContext(req.Context(), "reading the OpenAPI document", "err", err)
				http.Error(w, "the API reference could not be built", http.StatusInternalServerError)
				return
			}
			var buf bytes.Buffer
			if err := r.RenderAPIReference(&buf, ref, openAPIURL); err != nil {
				log.ErrorContext(req.Context(), "rendering the API reference", "err", err)
				http.Error(w, "the API reference could not be built", http.StatusInternalServerError)
				return
			}
			cached = buf.Bytes()
			mu.Lock()
			page = cached
			mu.Unlock()
		}
		writeHTML(w, req, log, func(b *bytes.Buffer) error { _, err := b.Write(cached); return err })
	})
}

// ServePage renders a documentation page and sends it with the reader's
// headers (HTML, a content security policy allowing only the page's own
// inline style and script); a page that fails to render is a 500.
func (r *Renderer) ServePage(w http.ResponseWriter, req *http.Request, p *Page, log *slog.Logger) {
	writeHTML(w, req, log, func(b *bytes.Buffer) error { return r.RenderPage(b, p) })
}
