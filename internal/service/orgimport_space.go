package service

import (
	"context"
	"io/fs"
	"path"

	"quire/internal/gitbook"
	"quire/internal/quire"
)

// writeContent imports each space's repository through the Git Sync
// importer, one space after the other.
func (r *importRun) writeContent(ctx context.Context) error {
	for _, ms := range r.m.Spaces {
		sub, err := fs.Sub(r.fsys, ms.Directory)
		if err != nil {
			return err
		}
		warnings, err := r.x.s.importRepository(ctx, r.spaces[ms.ID], &dirSource{fsys: sub})
		if err != nil {
			return err
		}
		for _, w := range warnings {
			r.warn("%s: %s", ms.Directory, w)
		}
	}
	return nil
}

// importRepository writes a repository into a new, empty space as the
// Git Sync importer does (gitbook.Read with the space's known paths,
// importTree, the redirects and settings of .gitbook.yaml) and moves the
// space to the revision made, recording the move for the content
// subscribers. It returns what the import could not carry.
func (s *Service) importRepository(ctx context.Context, sp *quire.Space, src *dirSource) ([]string, error) {
	files, err := src.gitbookFiles(ctx)
	if err != nil {
		return nil, err
	}
	cur, err := s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return nil, err
	}
	snap := s.engine.Snapshot(s.store, cur)
	known, err := newKnownPaths(ctx, snap)
	if err != nil {
		return nil, err
	}
	tree, err := gitbook.Read(files, known)
	if err != nil {
		return nil, asInvalid("repository", err)
	}
	src.root = tree.Config.Root
	warnings := importWarnings(tree)
	ed := s.engine.Edit(s.store, &quire.Revision{SpaceID: sp.ID})
	if err := s.importTree(ctx, ed, snap, known, src, tree, nil); err != nil {
		return nil, err
	}
	if ed.Changed(cur) {
		next := ed.Revision(quire.NewID(), sp.ID, quire.RevisionEdits, "", cur.ID)
		if err := ed.Commit(ctx, s.store, next); err != nil {
			return nil, err
		}
		if err := advanceSpace(ctx, s.store, sp.ID, cur.ID, next.ID); err != nil {
			return nil, err
		}
		s.announceContent(ctx, sp.ID)
		sp.Revision = next.ID
	}
	return warnings, s.keepRepoSettings(ctx, sp.ID, tree, importedRedirects(tree))
}

// importedPages maps the file of each page of a space's current
// revision, relative to the space's directory in an export, to the page.
func (s *Service) importedPages(ctx context.Context, sp *quire.Space) (map[string]*quire.RevisionPage, error) {
	rev, err := s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return nil, err
	}
	pages, err := s.engine.Snapshot(s.store, rev).Pages(ctx)
	if err != nil {
		return nil, err
	}
	root := ""
	if c, err := s.store.GitConfig(ctx, sp.ID); err == nil {
		root = c.Root
	} else if !quire.IsNotFound(err) {
		return nil, err
	}
	out := make(map[string]*quire.RevisionPage, len(pages))
	for _, p := range pages {
		if p.Git != nil && p.Git.Path != "" {
			out[path.Join(root, p.Git.Path)] = p
		}
	}
	return out, nil
}
