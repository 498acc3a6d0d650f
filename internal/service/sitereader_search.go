package service

import (
	"context"
	"strings"

	"quire/internal/search"
)

// SiteSearchHit is a page found by a site search. Its fragments hold
// text only, marked where a term matched: readers escape the text.
type SiteSearchHit struct {
	Title string `json:"title"`
	// TitleParts is Title as fragments.
	TitleParts []search.Fragment `json:"titleParts"`
	// URL leads to the page, or to the section that matched best.
	URL string `json:"url"`
	// Section is the heading of the section that matched best; empty
	// when that is the page's first section.
	Section string `json:"section,omitempty"`
	// Snippet is the part of that section's text around the match.
	Snippet []search.Fragment `json:"snippet"`
}

// maxSiteSearchHits caps the answers of a site search.
const maxSiteSearchHits = 20

// Search finds the pages matching a query in the site spaces the visitor
// may see, best first (see Service.searchPages), each with the snippet
// of its best section.
func (r *SiteReader) Search(ctx context.Context, v *SiteVisit, query string) ([]SiteSearchHit, error) {
	out := []SiteSearchHit{}
	if strings.TrimSpace(query) == "" || len(v.SiteSpaces) == 0 {
		return out, nil
	}
	bySpace := map[string]*SiteSpaceView{}
	var ids []string
	for _, ss := range v.SiteSpaces {
		if bySpace[ss.Space.Space.ID] == nil {
			bySpace[ss.Space.Space.ID] = ss
			ids = append(ids, ss.Space.Space.ID)
		}
	}
	hits, terms, err := r.svc.searchPages(ctx, ids, query)
	if err != nil {
		return nil, err
	}
	m := search.NewMatcher(terms)
	for _, h := range hits {
		ss := bySpace[h.SpaceID]
		if ss == nil {
			continue
		}
		out = append(out, siteSearchHit(m, v.SpaceURL(ss), h))
		if len(out) == maxSiteSearchHits {
			break
		}
	}
	return out, nil
}

// siteSearchHit shows a page found by a site search: its best section
// leads, with a snippet of its text.
func siteSearchHit(m *search.Matcher, spaceURL string, h SearchPageHit) SiteSearchHit {
	out := SiteSearchHit{Title: h.Title, TitleParts: m.Highlight(h.Title), URL: spaceURL + h.Path, Snippet: []search.Fragment{}}
	if len(h.Sections) == 0 {
		return out
	}
	best := h.Sections[0]
	if !best.First {
		out.Section = best.Title
		out.URL = spaceURL + best.Path
	}
	if sn := m.Snippet(best.Body); sn != nil {
		out.Snippet = sn
	}
	return out
}
