package httpapi

import (
	"bytes"
	"net/http"
	"strings"

	"quire/internal/reader"
	"quire/internal/search"
	"quire/internal/service"
)

// searchPage shows search results as a page, for the search form sent
// without script (and for "all results" from the search box).
func (s *Server) searchPage(w http.ResponseWriter, r *http.Request, v *service.SiteVisit, q string, hits []service.SiteSearchHit) {
	p := &reader.SearchPage{Site: reader.Site{Title: v.Site.Title, HomeURL: v.Base, ThemeToggle: true},
		Search:  reader.Search{Action: v.Base + "~search", JSONURL: v.Base + "~search", Query: q},
		Results: make([]reader.SearchResult, 0, len(hits))}
	for _, h := range hits {
		p.Results = append(p.Results, reader.SearchResult{URL: h.URL, Title: textParts(h.TitleParts),
			Section: h.Section, Snippet: textParts(h.Snippet)})
	}
	var buf bytes.Buffer
	if err := s.render.RenderSearch(&buf, p); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a site's search results", "path", r.URL.Path, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	setReaderHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// textParts converts a search's marked fragments for the reader.
func textParts(fs []search.Fragment) []reader.TextPart {
	out := make([]reader.TextPart, len(fs))
	for i, f := range fs {
		out[i] = reader.TextPart{Text: f.Text, Mark: f.Mark}
	}
	return out
}

// refuseSearch answers a search over its rate limit: the reader's page
// of the error to a browser, the API's error body to the search box's
// script (whose JSON it asked for).
func (s *Server) refuseSearch(w http.ResponseWriter, r *http.Request, err error) {
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		s.siteError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeError(w, s.toAPIError(err))
}

// capitalize puts the first letter of a message in upper case.
func capitalize(msg string) string {
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}
