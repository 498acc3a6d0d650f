package storetest

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/quire"
)

// searchSection is an indexed section whose index text is its text.
func searchSection(page string, seq int, title, body string) quire.SearchSection {
	return quire.SearchSection{PageID: page, Seq: seq, PageTitle: title, PagePath: page, Title: title, Body: body,
		IndexTitle: title, IndexBody: body}
}

// searchTerms is a query of plain words, the last one a prefix.
func searchTerms(words ...string) []quire.SearchTerm {
	out := make([]quire.SearchTerm, len(words))
	for i, w := range words {
		out[i] = quire.SearchTerm{Words: []string{w}, Prefix: i == len(words)-1}
	}
	return out
}

// hitPages lists the pages of hits, in order.
func hitPages(hits []*quire.SearchHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.PageID
	}
	return out
}

func searchTests() []test {
	return []test{
		{"search/index swaps revisions, replaces pages, ranks titles first", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			rev, err := f.st.SearchIndexRevision(ctx(t), sp.ID)
			must(t, err)
			if rev != "" {
				t.Fatalf("a new space's index holds %q", rev)
			}
			must(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "", "r1", true, nil, []quire.SearchSection{
				searchSection("p1", 0, "Otters", "They swim."),
				searchSection("p2", 0, "Rivers", "Otters live in rivers."),
			}))
			must(t, f.st.ReplaceSearchPages(ctx(t), other.ID, "", "o1", true, nil, []quire.SearchSection{
				searchSection("q1", 0, "Otters", "Elsewhere."),
			}))
			wantStale(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "", "r2", true, nil, nil))
			wantStale(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "r0", "r2", true, nil, nil))
			hits, err := f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID}, Terms: searchTerms("otter"), Limit: 10})
			must(t, err)
			if got := fmt.Sprint(hitPages(hits)); got != "[p1 p2]" {
				t.Errorf("otter finds %s, want the title hit first", got)
			}
			hits, err = f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID, other.ID}, Terms: searchTerms("otters", "swim"), Limit: 10})
			must(t, err)
			if got := fmt.Sprint(hitPages(hits)); got != "[p1]" {
				t.Errorf("otters swim finds %s", got)
			}
			// A page replaced: its old text goes.
			must(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "r1", "r2", false, []string{"p1"}, []quire.SearchSection{
				searchSection("p1", 0, "Beavers", "They build."),
			}))
			hits, err = f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID}, Terms: searchTerms("swim"), Limit: 10})
			must(t, err)
			if len(hits) != 0 {
				t.Errorf("replaced text still found: %v", hitPages(hits))
			}
			if rev, _ := f.st.SearchIndexRevision(ctx(t), sp.ID); rev != "r2" {
				t.Errorf("index revision %q, want r2", rev)
			}
		}},
		{"search/every word may be a prefix", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			must(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "", "r1", true, nil, []quire.SearchSection{
				searchSection("hub", 0, "github & gitlab sync", "connect a repository"),
				searchSection("legit", 0, "legit", "synchronous calls"),
				searchSection("synced", 0, "status", "the git repository synced"),
			}))
			prefixes := []quire.SearchTerm{{Words: []string{"git"}, Prefix: true}, {Words: []string{"sync"}, Prefix: true}}
			hits, err := f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID}, Terms: prefixes, Limit: 10})
			must(t, err)
			if got := fmt.Sprint(hitPages(hits)); got != "[hub synced]" {
				t.Errorf("git* sync* finds %s", got)
			}
			// A prefix word is stemmed like any other: "syncing" finds "synced".
			stemmed := []quire.SearchTerm{{Words: []string{"syncing"}, Prefix: true}}
			hits, err = f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID}, Terms: stemmed, Limit: 10})
			must(t, err)
			if got := fmt.Sprint(hitPages(hits)); !strings.Contains(got, "synced") {
				t.Errorf("syncing* finds %s", got)
			}
		}},
		{"search/many matches still put title hits first", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			var secs []quire.SearchSection
			for i := range 1500 {
				secs = append(secs, searchSection(fmt.Sprintf("p%04d", i), 0, "Page", "common words here"))
			}
			secs = append(secs, searchSection("titled", 0, "Common", "nothing else"))
			must(t, f.st.ReplaceSearchPages(ctx(t), sp.ID, "", "r1", true, nil, secs))
			hits, err := f.st.SearchSections(ctx(t), quire.SearchQuery{SpaceIDs: []string{sp.ID}, Terms: searchTerms("common"), Limit: 20})
			must(t, err)
			if len(hits) != 20 || hits[0].PageID != "titled" {
				t.Errorf("%d hits, first %v", len(hits), hitPages(hits))
			}
		}},
	}
}
