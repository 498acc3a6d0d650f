package service

import (
	"context"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/search"
)

// searchIndexAttempts bounds the rounds of IndexSpace when other writers
// keep moving the index first.
const searchIndexAttempts = 5

// IndexContent is the search index's content subscriber: it brings the
// index of the event's space to the space's current revision. Review
// events leave the space's content as it was and are passed over.
func (s *Service) IndexContent(ctx context.Context, ev *quire.ContentEvent) error {
	if !ev.Moved() {
		return nil
	}
	return s.IndexSpace(ctx, ev.SpaceID)
}

// IndexSpace brings the search index of a space to its current
// revision: only the pages that changed since the revision the index
// holds are indexed again (every page the first time). Deleted spaces are
// kept indexed, and left out of results, so that a restore finds them;
// a purged space's rows go with it.
func (s *Service) IndexSpace(ctx context.Context, spaceID string) error {
	for attempt := 1; ; attempt++ {
		err := s.indexSpaceOnce(ctx, spaceID)
		if !quire.IsStale(err) || attempt >= searchIndexAttempts {
			if quire.IsNotFound(err) {
				return nil // the space is gone, and its index rows with it
			}
			return err
		}
	}
}

// indexSpaceOnce is one round of IndexSpace.
func (s *Service) indexSpaceOnce(ctx context.Context, spaceID string) error {
	sp, err := s.store.Space(ctx, spaceID)
	if err != nil {
		return err
	}
	from, err := s.store.SearchIndexRevision(ctx, spaceID)
	if err != nil || from == sp.Revision {
		return err
	}
	cur, err := s.store.Revision(ctx, sp.ID, sp.Revision)
	if quire.IsNotFound(err) {
		return nil // a new space, with no content yet
	}
	if err != nil {
		return err
	}
	snap := s.engine.Snapshot(s.store, cur)
	var old *content.Snapshot
	if from != "" {
		prev, err := s.store.Revision(ctx, sp.ID, from)
		if err != nil && !quire.IsNotFound(err) {
			return err
		}
		if prev != nil {
			old = s.engine.Snapshot(s.store, prev)
		}
	}
	ix := &indexer{snap: snap, excluded: map[string]bool{}}
	all := old == nil
	var ids []string
	if all {
		pages, err := snap.Pages(ctx)
		if err != nil {
			return err
		}
		for _, p := range pages {
			ids = append(ids, p.ID)
		}
	} else if ids, err = ix.changed(ctx, old); err != nil {
		return err
	}
	var sections []quire.SearchSection
	for _, id := range ids {
		secs, err := ix.page(ctx, id)
		if err != nil {
			return err
		}
		sections = append(sections, secs...)
	}
	return s.store.ReplaceSearchPages(ctx, sp.ID, from, sp.Revision, all, ids, sections)
}

// indexer reads the pages of one revision for the index.
type indexer struct {
	snap *content.Snapshot
	// excluded memoizes, by page id, whether a page or one of its
	// ancestors is hidden or kept out of search.
	excluded map[string]bool
}

// changed lists the pages to index again since old: those whose object
// changed, and the subtrees under a page whose path or visibility
// changed (their paths and visibility follow it).
func (ix *indexer) changed(ctx context.Context, old *content.Snapshot) ([]string, error) {
	ids, err := ix.snap.ChangedPages(ctx, old.Rev)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	var subtrees []string
	for _, id := range ids {
		np, err := ix.snap.Page(ctx, id)
		if quire.IsNotFound(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		op, err := old.Page(ctx, id)
		if quire.IsNotFound(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		if np.Slug != op.Slug || np.Parent != op.Parent || np.Hidden != op.Hidden || np.NoIndex != op.NoIndex {
			subtrees = append(subtrees, id)
		}
	}
	for len(subtrees) > 0 {
		id := subtrees[len(subtrees)-1]
		subtrees = subtrees[:len(subtrees)-1]
		kids, err := ix.snap.Children(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, k := range kids {
			if !seen[k.ID] {
				seen[k.ID] = true
				ids = append(ids, k.ID)
			}
			subtrees = append(subtrees, k.ID)
		}
	}
	return ids, nil
}

// page returns the sections of a page; none for a page that is gone,
// hidden, kept out of search, under such a page, or a link.
func (ix *indexer) page(ctx context.Context, id string) ([]quire.SearchSection, error) {
	p, err := ix.snap.Page(ctx, id)
	if quire.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if p.Type == quire.PageLink {
		return nil, nil
	}
	if ex, err := ix.isExcluded(ctx, p); err != nil || ex {
		return nil, err
	}
	path, err := ix.snap.Path(ctx, p)
	if err != nil {
		return nil, err
	}
	in := search.Page{ID: p.ID, Title: p.Title, Description: p.Description, Path: path}
	raw, err := ix.snap.Document(ctx, p)
	if err != nil {
		return nil, err
	}
	if raw != nil {
		if in.Doc, err = document.ParseStored(raw); err != nil {
			return nil, err
		}
	}
	return search.Sections(in), nil
}

// isExcluded reports whether a page or one of its ancestors is hidden or
// kept out of search.
func (ix *indexer) isExcluded(ctx context.Context, p *quire.RevisionPage) (bool, error) {
	if ex, ok := ix.excluded[p.ID]; ok {
		return ex, nil
	}
	ex := p.Hidden || p.NoIndex
	if !ex && p.Parent != "" {
		parent, err := ix.snap.Page(ctx, p.Parent)
		if err != nil {
			return false, err
		}
		if ex, err = ix.isExcluded(ctx, parent); err != nil {
			return false, err
		}
	}
	ix.excluded[p.ID] = ex
	return ex, nil
}
