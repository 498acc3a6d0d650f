package service

import (
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/search"
)

// TestSearchRanksWhereAllTermsMeet checks the order of a space search on
// every engine: the page whose title holds every word (each word a
// prefix: "git" finds "GitHub"), then the page with a heading holding
// them, then the page whose text repeats them, then the page where they
// are spread over title and text; a page where "git" only sits inside a
// word is not found. The snippets are cut around the match.
func TestSearchRanksWhereAllTermsMeet(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		cr := f.changeRequest(t, "Pages",
			newPage("Monorepos", "Git Sync works with monorepos. Point git sync at a folder: git sync reads only that folder, and git sync writes back to it."),
			newPage("Sync settings", "What git keeps."),
			newPage("GitHub & GitLab Sync", "Connect a repository: commits sync both ways.\n\n## Permissions\n\nGit Sync needs write access."),
			newPage("Setup", "Start here.\n\n## Git Sync\n\nConnect it first."),
			newPage("Legit", "A legit synchronous call."),
		)
		if _, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, cr); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.IndexSpace(ctx, f.space); err != nil {
			t.Fatal(err)
		}
		for range 2 { // the same order every time
			l, err := f.svc.SearchSpace(ctx, f.space, "git sync", quire.Page{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, p := range l.Items {
				titles = append(titles, p.Title)
			}
			want := "GitHub & GitLab Sync|Setup|Monorepos|Sync settings"
			if got := strings.Join(titles, "|"); got != want {
				t.Fatalf("git sync finds\n %s\nwant\n %s", got, want)
			}
			first := l.Items[0].Sections
			if len(first) != 2 || !first[0].First || first[0].Body != "Connect a repository: commits sync both ways." ||
				first[1].Title != "Permissions" || first[1].ID != l.Items[0].ID+"#permissions" {
				t.Errorf("sections of the first page: %+v", first)
			}
			if s := l.Items[1].Sections; len(s) == 0 || s[0].Title != "Git Sync" {
				t.Errorf("sections of Setup: %+v", s)
			}
		}
	})
}

// TestSiteSearchHitLeadsToItsBestSection checks that a site search's
// answer leads to the section that matched best, named under the page's
// title, with that section's snippet marked; the page itself when its
// first section matched best.
func TestSiteSearchHitLeadsToItsBestSection(t *testing.T) {
	t.Parallel()
	m := search.NewMatcher(search.ParseQuery("git sync"))
	page := SearchPageHit{ID: "p", Title: "Setup", Path: "setup", Sections: []SearchSectionHit{
		{ID: "p#git-sync", Title: "Git Sync", Path: "setup#git-sync", Body: "Connect git sync first."},
		{ID: "p", Title: "Setup", Path: "setup", Body: "Git sync later.", First: true},
	}}
	got := siteSearchHit(m, "/docs/", page)
	if got.URL != "/docs/setup#git-sync" || got.Section != "Git Sync" || search.Plain(got.Snippet) != "Connect git sync first." ||
		len(got.Snippet) != 5 || !got.Snippet[1].Mark || got.Snippet[1].Text != "git" {
		t.Errorf("hit %+v", got)
	}
	page.Sections = page.Sections[1:]
	got = siteSearchHit(m, "/docs/", page)
	if got.URL != "/docs/setup" || got.Section != "" || len(got.TitleParts) != 1 || got.TitleParts[0].Mark {
		t.Errorf("hit %+v", got)
	}
}
