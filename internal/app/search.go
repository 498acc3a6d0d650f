package app

import (
	"encoding/json"
	"net/http"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/search"
	"quire/internal/service"
)

// maxQuery is the longest query the search pages take, as the API's.
const maxQuery = 512

// maxTyped caps the results answered while typing.
const maxTyped = 20

// searchHit is a page found by a search, as the results page and the
// search-as-you-type list show it. Its fragments hold text only, marked
// where a term matched; the template and the script escape the text.
type searchHit struct {
	URL        string            `json:"url"`
	Title      string            `json:"title"`
	TitleParts []search.Fragment `json:"titleParts"`
	// Space is the title of the page's space, for organization searches.
	Space   string            `json:"space,omitempty"`
	Section string            `json:"section,omitempty"`
	Snippet []search.Fragment `json:"snippet"`
}

// searchView is what the results page shows.
type searchView struct {
	Query string
	// Scope names what was searched: the organization or the space.
	Scope   string
	Action  string
	Results []searchHit
	// Space is set when searching a space; Tree, Page, Revision and
	// ChangeRequest are then its sidebar's.
	Space         *quire.Space
	Tree          []pageNode
	Page          *pageBody
	Revision      *service.RevisionView
	ChangeRequest *quire.ChangeRequest
}

// searchQuery reads ?q=, refusing one too long.
func searchQuery(r *http.Request) (string, error) {
	q := r.URL.Query().Get("q")
	if utf8.RuneCountInString(q) > maxQuery {
		return "", quire.Invalid("q", "the search is longer than %d characters", maxQuery)
	}
	return q, nil
}

// hitOf shows a page found by a search: its best section leads, with a
// snippet of its text.
func hitOf(m *search.Matcher, spaceID string, h service.SearchPageHit) searchHit {
	base := spacePath(spaceID) + "/"
	out := searchHit{URL: base + h.Path, Title: h.Title, TitleParts: m.Highlight(h.Title), Snippet: []search.Fragment{}}
	if len(h.Sections) == 0 {
		return out
	}
	best := h.Sections[0]
	if !best.First {
		out.Section = best.Title
		out.URL = base + best.Path
	}
	if sn := m.Snippet(best.Body); sn != nil {
		out.Snippet = sn
	}
	return out
}

// orgHits searches the spaces of an organization the caller may read.
func (a *App) orgHits(r *http.Request, orgID, q string) ([]searchHit, error) {
	out := []searchHit{}
	terms := search.ParseQuery(q)
	if len(terms) == 0 {
		return out, nil
	}
	l, err := a.svc.SearchOrganization(r.Context(), userFrom(r.Context()), orgID, q, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return nil, err
	}
	m := search.NewMatcher(terms)
	for _, sp := range l.Items {
		for _, p := range sp.Pages {
			h := hitOf(m, sp.Space.ID, p)
			h.Space = sp.Space.Title
			out = append(out, h)
		}
	}
	return out, nil
}

// spaceHits searches a space's current content.
func (a *App) spaceHits(r *http.Request, spaceID, q string) ([]searchHit, error) {
	out := []searchHit{}
	terms := search.ParseQuery(q)
	if len(terms) == 0 {
		return out, nil
	}
	l, err := a.svc.SearchSpace(r.Context(), spaceID, q, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return nil, err
	}
	m := search.NewMatcher(terms)
	for _, p := range l.Items {
		out = append(out, hitOf(m, spaceID, p))
	}
	return out, nil
}

// orgSearch is an organization's search results page.
func (a *App) orgSearch(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hits, err := a.orgHits(r, orgID, q)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section, sh.Query = searchTitle(q), "search", q
	return a.render(w, r, http.StatusOK, "search", sh, &searchView{Query: q, Scope: sh.Org.Title, Action: "/app/o/" + orgID + "/search", Results: hits})
}

// orgSearchJSON answers an organization search as the search box's list
// reads it.
func (a *App) orgSearchJSON(w http.ResponseWriter, r *http.Request) error {
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hits, err := a.orgHits(r, r.PathValue("organizationId"), q)
	if err != nil {
		return err
	}
	return writeHits(w, hits)
}

// spaceSearch is a space's search results page.
func (a *App) spaceSearch(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hits, err := a.spaceHits(r, sp.ID, q)
	if err != nil {
		return err
	}
	_, pv, err := a.readPage(r, sp, currentMode(sp.ID), "")
	if err != nil {
		return err
	}
	markNone(pv.Tree)
	sh, err := a.spaceShell(r, sp, searchTitle(q)+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section, sh.Query = "search", q
	return a.render(w, r, http.StatusOK, "search", sh, &searchView{Query: q, Scope: sp.Title, Action: sh.SearchURL,
		Results: hits, Space: sp, Tree: pv.Tree})
}

// spaceSearchJSON answers a space search as the search box's list reads
// it.
func (a *App) spaceSearchJSON(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hits, err := a.spaceHits(r, sp.ID, q)
	if err != nil {
		return err
	}
	return writeHits(w, hits)
}

// searchTitle is the document title of a search page.
func searchTitle(q string) string {
	if q == "" {
		return "Search"
	}
	return "Search: " + q
}

// writeHits answers hits as a JSON array, at most maxTyped of them.
func writeHits(w http.ResponseWriter, hits []searchHit) error {
	if len(hits) > maxTyped {
		hits = hits[:maxTyped]
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(hits)
}
