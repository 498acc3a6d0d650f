package service

import (
	"context"

	"quire/internal/gitbook"
	"quire/internal/quire"
)

// keepRepoSettings records what an imported repository's .gitbook.yaml
// says, its redirects and its content location, as the space's, for the
// next export to write back.
func (s *Service) keepRepoSettings(ctx context.Context, spaceID string, tree *gitbook.Space, redirects []quire.GitRedirect) error {
	if err := s.store.ReplaceGitRedirects(ctx, spaceID, redirects); err != nil {
		return err
	}
	c := tree.Config
	return s.store.PutGitConfig(ctx, spaceID, quire.GitConfig{Root: c.Root, Readme: c.Readme, Summary: c.Summary, Source: c.Source})
}

// exportGitConfig gives an exported tree the content location of the
// space's last imported repository, if any.
func (s *Service) exportGitConfig(ctx context.Context, spaceID string, sp *gitbook.Space) error {
	c, err := s.store.GitConfig(ctx, spaceID)
	if quire.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	sp.Config = gitbook.Config{Root: c.Root, Readme: c.Readme, Summary: c.Summary, Source: c.Source, Absent: c.Source == ""}
	return nil
}

// copyGitConfig gives a copy of a space the repository settings of the
// original.
func copyGitConfig(ctx context.Context, st quire.Store, srcID, dstID string) error {
	c, err := st.GitConfig(ctx, srcID)
	if quire.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return st.PutGitConfig(ctx, dstID, *c)
}
