package service

import (
	"context"
	"strconv"

	"quire/internal/quire"
	"quire/internal/search"
)

// maxSearchSections caps the sections one search reads from the index,
// best first: results are pages (or spaces) grouped from them.
const maxSearchSections = 1000

// maxSectionsPerPage caps the sections shown under one page.
const maxSectionsPerPage = 5

// SearchSectionHit is a section of a page found by a search, with a
// snippet of its body around the match.
type SearchSectionHit struct {
	ID, Title, Path, Body string
	// First marks the page's first section, titled with the page's
	// title.
	First bool
}

// SearchPageHit is a page found by a search, with its matching sections,
// best first.
type SearchPageHit struct {
	SpaceID  string
	ID       string
	Title    string
	Path     string
	Sections []SearchSectionHit
}

// SearchSpaceHit is a space found by an organization search, with its
// matching pages, best first.
type SearchSpaceHit struct {
	Space *quire.Space
	Pages []SearchPageHit
}

// SearchSpace finds the pages of a space's current content matching the
// query: every word, as a word or the start of one (see
// search.ParseQuery); best first (see search.Order).
func (s *Service) SearchSpace(ctx context.Context, spaceID, query string, p quire.Page) (*quire.List[SearchPageHit], error) {
	off, err := searchOffset(p)
	if err != nil {
		return nil, err
	}
	sp, err := s.store.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if sp.DeletedAt != nil {
		return pageOf([]SearchPageHit(nil), 0, 1), nil
	}
	pages, terms, err := s.searchPages(ctx, []string{spaceID}, query)
	if err != nil {
		return nil, err
	}
	l := pageOf(pages, off, p.Size())
	for i := range l.Items {
		snippets(&l.Items[i], terms)
	}
	return l, nil
}

// SearchOrganization finds the pages matching the query in the spaces of
// an organization the caller can read, grouped by space, the space with
// the best match first.
func (s *Service) SearchOrganization(ctx context.Context, u *quire.User, orgID, query string, p quire.Page) (*quire.List[SearchSpaceHit], error) {
	off, err := searchOffset(p)
	if err != nil {
		return nil, err
	}
	readable, err := s.readableSpaces(ctx, u, orgID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(readable))
	for id := range readable {
		ids = append(ids, id)
	}
	pages, terms, err := s.searchPages(ctx, ids, query)
	if err != nil {
		return nil, err
	}
	var spaces []SearchSpaceHit
	at := map[string]int{}
	for _, pg := range pages {
		i, ok := at[pg.SpaceID]
		if !ok {
			i = len(spaces)
			at[pg.SpaceID] = i
			spaces = append(spaces, SearchSpaceHit{Space: readable[pg.SpaceID]})
		}
		spaces[i].Pages = append(spaces[i].Pages, pg)
	}
	l := pageOf(spaces, off, p.Size())
	for _, sp := range l.Items {
		for i := range sp.Pages {
			snippets(&sp.Pages[i], terms)
		}
	}
	return l, nil
}

// snippets cuts the bodies of a page's sections down to the part around
// the match; only for the pages returned, as it reads the whole body.
func snippets(p *SearchPageHit, terms []quire.SearchTerm) {
	for i := range p.Sections {
		p.Sections[i].Body = search.Snippet(p.Sections[i].Body, terms)
	}
}

// readableSpaces returns the live spaces of an organization the caller
// can read, by id, their levels resolved in bulk.
func (s *Service) readableSpaces(ctx context.Context, u *quire.User, orgID string) (map[string]*quire.Space, error) {
	var all []*quire.Space
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := s.store.Spaces(ctx, quire.SpaceFilter{OrgID: orgID}, p)
		if err != nil {
			return nil, err
		}
		all = append(all, l.Items...)
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	levels, err := s.spaceLevels(ctx, u, all)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*quire.Space, len(all))
	for _, sp := range all {
		if levels[sp.ID] >= quire.LevelRead {
			out[sp.ID] = sp
		}
	}
	return out, nil
}

// searchPages runs a query over some spaces and groups the sections
// found by page, best page first: pages whose title holds every term,
// then those with a heading holding them, then those with a section's
// text holding them, then the rest (search.Order).
func (s *Service) searchPages(ctx context.Context, spaceIDs []string, query string) ([]SearchPageHit, []quire.SearchTerm, error) {
	terms := search.ParseQuery(query)
	if len(terms) == 0 || len(spaceIDs) == 0 {
		return nil, terms, nil
	}
	hits, err := s.store.SearchSections(ctx, quire.SearchQuery{SpaceIDs: spaceIDs, Terms: terms, Limit: maxSearchSections})
	if err != nil {
		return nil, nil, err
	}
	var pages []SearchPageHit
	at := map[[2]string]int{}
	for _, h := range search.Order(hits, terms) {
		key := [2]string{h.SpaceID, h.PageID}
		i, ok := at[key]
		if !ok {
			i = len(pages)
			at[key] = i
			pages = append(pages, SearchPageHit{SpaceID: h.SpaceID, ID: h.PageID, Title: h.PageTitle, Path: pagePathOf(h)})
		}
		if len(pages[i].Sections) >= maxSectionsPerPage {
			continue
		}
		id := h.PageID
		if h.Anchor != "" {
			id += "#" + h.Anchor
		}
		pages[i].Sections = append(pages[i].Sections, SearchSectionHit{ID: id, Title: h.Title, Path: h.PagePath, Body: h.Body, First: h.Seq == 0})
	}
	return pages, terms, nil
}

// pagePathOf returns the path of a hit's page: its section path without
// the anchor.
func pagePathOf(h *quire.SearchHit) string {
	if h.Anchor == "" {
		return h.PagePath
	}
	return h.PagePath[:len(h.PagePath)-len(h.Anchor)-1]
}

// searchOffset reads a search page's cursor: the number of results
// before it.
func searchOffset(p quire.Page) (int, error) {
	if p.Cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(p.Cursor)
	if err != nil || n < 0 || n > maxSearchSections {
		return 0, quire.Invalid("page", "not a page cursor of this search")
	}
	return n, nil
}

// pageOf returns the page of items starting at off.
func pageOf[T any](items []T, off, size int) *quire.List[T] {
	out := &quire.List[T]{Count: len(items), Items: []T{}}
	if off >= len(items) {
		return out
	}
	end := min(len(items), off+size)
	out.Items = items[off:end]
	if end < len(items) {
		out.Next = strconv.Itoa(end)
	}
	return out
}
