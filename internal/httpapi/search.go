package httpapi

import (
	"context"

	"quire/internal/service"
)

// SearchParams are the query parameters of the search operations.
type SearchParams struct {
	Query string `query:"query" required:"true" maxLength:"512" doc:"Text to search for: every word must match, as a word or the start of one"`
	ListParams
}

// searchURLs is the urls member of search results.
type searchURLs struct {
	App string `json:"app" format:"uri"`
}

// searchSectionJSON is the published SearchSectionResult.
type searchSectionJSON struct {
	ID    string     `json:"id"`
	Title string     `json:"title"`
	Path  string     `json:"path"`
	Body  string     `json:"body"`
	URLs  searchURLs `json:"urls"`
}

// searchPageJSON is the published SearchPageResult.
type searchPageJSON struct {
	ID       string              `json:"id"`
	Title    string              `json:"title"`
	Path     string              `json:"path"`
	Sections []searchSectionJSON `json:"sections"`
	URLs     searchURLs          `json:"urls"`
}

// searchSpaceJSON is the published SearchSpaceResult.
type searchSpaceJSON struct {
	ID    string           `json:"id"`
	Title string           `json:"title"`
	Pages []searchPageJSON `json:"pages"`
}

func (s *Server) searchSpace(ctx context.Context, in *struct {
	SpacePath
	SearchParams
}) (*body[listOf[searchPageJSON]], error) {
	l, err := s.svc.SearchSpace(ctx, in.SpaceID, in.Query, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.searchPageOut)), nil
}

func (s *Server) searchOrganization(ctx context.Context, in *struct {
	OrgPath
	SearchParams
}) (*body[listOf[searchSpaceJSON]], error) {
	l, err := s.svc.SearchOrganization(ctx, userFrom(ctx), in.OrganizationID, in.Query, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(h service.SearchSpaceHit) searchSpaceJSON {
		out := searchSpaceJSON{ID: h.Space.ID, Title: h.Space.Title, Pages: make([]searchPageJSON, 0, len(h.Pages))}
		for _, p := range h.Pages {
			out.Pages = append(out.Pages, s.searchPageOut(p))
		}
		return out
	})), nil
}

// searchPageOut converts a page found by a search.
func (s *Server) searchPageOut(p service.SearchPageHit) searchPageJSON {
	out := searchPageJSON{ID: p.ID, Title: p.Title, Path: p.Path,
		Sections: make([]searchSectionJSON, 0, len(p.Sections)), URLs: searchURLs{App: s.urls.appPage(p.SpaceID, p.Path)}}
	for _, sec := range p.Sections {
		out.Sections = append(out.Sections, searchSectionJSON{ID: sec.ID, Title: sec.Title, Path: sec.Path, Body: sec.Body,
			URLs: searchURLs{App: s.urls.appPage(p.SpaceID, sec.Path)}})
	}
	return out
}
