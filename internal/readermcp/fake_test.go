package readermcp

import (
	"context"
	"strings"
	"sync"
)

// fakePage is one page of fakeDocs.
type fakePage struct {
	path, title, markdown string
	depth                 int
	hidden                bool // not visible to the visitor
}

// fakeDocs is an in-memory site as one visitor sees it.
type fakeDocs struct {
	info      SiteInfo
	pages     []fakePage
	searchErr error

	mu         sync.Mutex
	lastLimit  int
	pagesAsked []string
}

func newFakeDocs() *fakeDocs {
	return &fakeDocs{
		info: SiteInfo{Name: "handbook", Title: "The Handbook", Version: "rev-42", URL: "https://docs.example.com/handbook"},
		pages: []fakePage{
			{path: "welcome", title: "Welcome", markdown: "# Welcome\n\nStart here to install the tool.\n"},
			{path: "guides", title: "Guides", markdown: "# Guides\n"},
			{path: "guides/install", title: "Install", depth: 1, markdown: "# Install\n\nRun `make install` to install.\n"},
			{path: "guides/secret", title: "Secret plans", depth: 1, hidden: true, markdown: "# Secret plans\n\ninstall nothing\n"},
		},
	}
}

// asked returns the limit of the last search and the paths asked of Page.
func (f *fakeDocs) asked() (int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastLimit, append([]string(nil), f.pagesAsked...)
}

func (f *fakeDocs) url(path string) string { return f.info.URL + "/" + path }

func (f *fakeDocs) Info(context.Context) (SiteInfo, error) { return f.info, nil }

func (f *fakeDocs) Search(_ context.Context, query string, limit int) ([]Hit, error) {
	f.mu.Lock()
	f.lastLimit = limit
	f.mu.Unlock()
	if f.searchErr != nil {
		return nil, f.searchErr
	}
	var hits []Hit
	for _, p := range f.pages {
		if p.hidden {
			continue
		}
		i := strings.Index(strings.ToLower(p.markdown), strings.ToLower(query))
		if i < 0 {
			continue
		}
		hits = append(hits, Hit{Path: p.path, Title: p.title, URL: f.url(p.path), Snippet: strings.TrimSpace(p.markdown[max(0, i-10):min(len(p.markdown), i+len(query)+10)])})
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func (f *fakeDocs) Page(_ context.Context, path string) (Page, error) {
	f.mu.Lock()
	f.pagesAsked = append(f.pagesAsked, path)
	f.mu.Unlock()
	if path == "" {
		path = f.pages[0].path
	}
	for _, p := range f.pages {
		if p.path == path && !p.hidden {
			return Page{Path: p.path, Title: p.title, URL: f.url(p.path), Markdown: p.markdown}, nil
		}
	}
	return Page{}, ErrNotFound
}

func (f *fakeDocs) Pages(context.Context) ([]PageRef, error) {
	var refs []PageRef
	for _, p := range f.pages {
		if !p.hidden {
			refs = append(refs, PageRef{Path: p.path, Title: p.title, URL: f.url(p.path), Depth: p.depth})
		}
	}
	return refs, nil
}
