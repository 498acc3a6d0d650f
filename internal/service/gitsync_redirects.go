package service

import (
	"context"
	"sort"

	"quire/internal/gitbook"
	"quire/internal/quire"
)

// importedRedirects lists the redirects of an imported tree by path, each
// with the page its target file became ("" when the file is no page of
// the tree; the import reports those among its warnings).
func importedRedirects(tree *gitbook.Space) []quire.GitRedirect {
	if len(tree.Redirects) == 0 {
		return nil
	}
	byPath := map[string]string{}
	var walk func(pages []*gitbook.Page)
	walk = func(pages []*gitbook.Page) {
		for _, p := range pages {
			if p.Path != "" && p.Kind == quire.PageDocument {
				byPath[p.Path] = p.ID
			}
			walk(p.Children)
		}
	}
	walk(tree.Pages)
	out := make([]quire.GitRedirect, 0, len(tree.Redirects))
	for from, to := range tree.Redirects {
		out = append(out, quire.GitRedirect{Path: from, Target: to, PageID: byPath[to]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// exportRedirects gives an exported tree the space's repository
// redirects: one whose page is still in the tree leads to the file the
// page is written to, the others to the file the repository named.
func (s *Service) exportRedirects(ctx context.Context, spaceID string, sp *gitbook.Space) error {
	rs, err := s.store.GitRedirects(ctx, spaceID)
	if err != nil || len(rs) == 0 {
		return err
	}
	byID := map[string]*gitbook.Page{}
	var walk func(pages []*gitbook.Page)
	walk = func(pages []*gitbook.Page) {
		for _, p := range pages {
			if p.Kind == quire.PageDocument {
				byID[p.ID] = p
			}
			walk(p.Children)
		}
	}
	walk(sp.Pages)
	var placed map[string]string // where Write puts pages without a Path
	sp.Redirects = make(map[string]string, len(rs))
	for _, r := range rs {
		to := r.Target
		if p := byID[r.PageID]; p != nil && r.PageID != "" {
			// Write moves a Path to where the page goes now.
			to = p.Path
			if to == "" {
				if placed == nil {
					if placed, err = gitbook.Paths(sp); err != nil {
						return err
					}
				}
				to = placed[p.ID]
			}
		}
		if to != "" {
			sp.Redirects[r.Path] = to
		}
	}
	return nil
}
