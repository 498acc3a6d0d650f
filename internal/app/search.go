package app

import (
	"encoding/json"
	"net/http"
	"net/url"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/search"
	"quire/internal/service"
)

// maxQuery is the longest query the search pages take, as the API's.
const maxQuery = 512

// maxTyped caps the results answered while typing.
const maxTyped = 20

// resultsPerPage is how many results a results page lists: pages of a
// space, or spaces of an organization with their pages.
const resultsPerPage = 20

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
	// Found says how much the search found in all; More is the address
	// of the next page of results and First that of the first, "" when
	// there is none or it is this one.
	Found       string
	More, First string
	// spaceSidebar's Space is set when searching a space, whose sidebar
	// the page then shows.
	spaceSidebar
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

// hitPage is one page of a search's results: the hits, the cursor of
// the next page ("" at the last) and the count of results in all.
type hitPage struct {
	hits  []searchHit
	next  string
	count int
}

// orgHits searches the spaces of an organization the caller may read;
// a page of results holds spaces, each with its pages.
func (a *App) orgHits(r *http.Request, orgID, q string, p quire.Page) (*hitPage, error) {
	out := &hitPage{hits: []searchHit{}}
	terms := search.ParseQuery(q)
	if len(terms) == 0 {
		return out, nil
	}
	l, err := a.svc.SearchOrganization(r.Context(), userFrom(r.Context()), orgID, q, p)
	if err != nil {
		return nil, err
	}
	m := search.NewMatcher(terms)
	for _, sp := range l.Items {
		for _, p := range sp.Pages {
			h := hitOf(m, sp.Space.ID, p)
			h.Space = sp.Space.Title
			out.hits = append(out.hits, h)
		}
	}
	out.next, out.count = l.Next, l.Count
	return out, nil
}

// spaceHits searches a space's current content.
func (a *App) spaceHits(r *http.Request, spaceID, q string, p quire.Page) (*hitPage, error) {
	out := &hitPage{hits: []searchHit{}}
	terms := search.ParseQuery(q)
	if len(terms) == 0 {
		return out, nil
	}
	l, err := a.svc.SearchSpace(r.Context(), spaceID, q, p)
	if err != nil {
		return nil, err
	}
	m := search.NewMatcher(terms)
	for _, p := range l.Items {
		out.hits = append(out.hits, hitOf(m, spaceID, p))
	}
	out.next, out.count = l.Next, l.Count
	return out, nil
}

// resultsPage is the page of results a results page's ?page= names.
func resultsPage(r *http.Request) quire.Page {
	return quire.Page{Limit: resultsPerPage, Cursor: r.URL.Query().Get("page")}
}

// resultsView is the results page's view of a page of hits: how much
// was found in all (found names what is counted) and the addresses of
// the first and next pages.
func resultsView(r *http.Request, action, q string, hp *hitPage, found func(n int) string) *searchView {
	v := &searchView{Query: q, Action: action, Results: hp.hits, Found: found(hp.count)}
	at := action + "?" + url.Values{"q": {q}}.Encode()
	if hp.next != "" {
		v.More = at + "&" + url.Values{"page": {hp.next}}.Encode()
	}
	if r.URL.Query().Get("page") != "" {
		v.First = at
	}
	return v
}

// orgSearch is an organization's search results page.
func (a *App) orgSearch(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hp, err := a.orgHits(r, orgID, q, resultsPage(r))
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section, sh.Query = searchTitle(q), "search", q
	v := resultsView(r, "/app/o/"+orgID+"/search", q, hp, func(n int) string { return plural(n, "space", "spaces") + " with results" })
	v.Scope = sh.Org.Title
	return a.render(w, r, http.StatusOK, "search", sh, v)
}

// orgSearchJSON answers an organization search as the search box's list
// reads it.
func (a *App) orgSearchJSON(w http.ResponseWriter, r *http.Request) error {
	q, err := searchQuery(r)
	if err != nil {
		return err
	}
	hp, err := a.orgHits(r, r.PathValue("organizationId"), q, quire.Page{Limit: maxTyped})
	if err != nil {
		return err
	}
	return writeHits(w, hp.hits)
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
	hp, err := a.spaceHits(r, sp.ID, q, resultsPage(r))
	if err != nil {
		return err
	}
	tree, err := a.readTree(r, sp, currentMode(sp.ID))
	if err != nil {
		return err
	}
	sh, err := a.spaceShell(r, sp, searchTitle(q)+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section, sh.Query = "search", q
	v := resultsView(r, sh.SearchURL, q, hp, func(n int) string { return plural(n, "result", "results") })
	v.Scope, v.Space, v.Tree = sp.Title, sp, tree
	return a.render(w, r, http.StatusOK, "search", sh, v)
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
	hp, err := a.spaceHits(r, sp.ID, q, quire.Page{Limit: maxTyped})
	if err != nil {
		return err
	}
	return writeHits(w, hp.hits)
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
