package search

import (
	"sort"

	"quire/internal/quire"
)

// Tier says where a section, or a page, holds every term of a query;
// a lower tier ranks first.
type Tier int

// The tiers, best first.
const (
	// TierPageTitle: the page's title holds every term.
	TierPageTitle Tier = iota
	// TierHeading: a section's heading holds every term.
	TierHeading
	// TierBody: a section's text holds every term.
	TierBody
	// TierPartial: the terms are spread over a section's heading and text.
	TierPartial
)

// SectionTier returns the tier of a section found by the query: the
// first section's title is the page's title.
func (m *Matcher) SectionTier(s *quire.SearchSection) Tier {
	switch {
	case m.MatchesAll(s.Title):
		if s.Seq == 0 {
			return TierPageTitle
		}
		return TierHeading
	case m.MatchesAll(s.Body):
		return TierBody
	}
	return TierPartial
}

// Order puts the sections a search found, given in the engine's order
// (best first), in the order results show them: pages by their best
// tier (the page's title, else their best section's), then sections
// within a page by their tier; the engine's order breaks ties, so the
// order is stable.
func Order(hits []*quire.SearchHit, terms []quire.SearchTerm) []*quire.SearchHit {
	m := NewMatcher(terms)
	type key struct{ space, page string }
	type pageRank struct {
		tier  Tier
		first int
	}
	type ranked struct {
		hit  *quire.SearchHit
		page *pageRank
		tier Tier
		at   int
	}
	pages := map[key]*pageRank{}
	out := make([]ranked, len(hits))
	for i, h := range hits {
		k := key{h.SpaceID, h.PageID}
		p := pages[k]
		if p == nil {
			p = &pageRank{tier: TierPartial, first: i}
			if m.MatchesAll(h.PageTitle) {
				p.tier = TierPageTitle
			}
			pages[k] = p
		}
		t := m.SectionTier(&h.SearchSection)
		p.tier = min(p.tier, t)
		out[i] = ranked{hit: h, page: p, tier: t, at: i}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.page != b.page {
			if a.page.tier != b.page.tier {
				return a.page.tier < b.page.tier
			}
			return a.page.first < b.page.first
		}
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		return a.at < b.at
	})
	sorted := make([]*quire.SearchHit, len(out))
	for i, r := range out {
		sorted[i] = r.hit
	}
	return sorted
}
