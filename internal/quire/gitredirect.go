package quire

import "context"

// GitRedirect is one redirect of a space's repository (the "redirects"
// of .gitbook.yaml): an old address within the space that leads to a
// page. A space keeps the redirects of the last Git import that moved
// it; an import without redirects removes them, and revisions made
// otherwise keep them.
type GitRedirect struct {
	// Path is the old address, relative to the space's address: slash
	// separated, without a leading "/".
	Path string
	// Target is the file the redirect leads to, relative to the content
	// root, as the repository names it.
	Target string
	// PageID is the page the target file became; "" when the file is no
	// page of the space.
	PageID string
}

// GitRedirectStore keeps the repository redirects of each space.
type GitRedirectStore interface {
	// GitRedirects returns the space's redirects, by path.
	GitRedirects(ctx context.Context, spaceID string) ([]GitRedirect, error)
	// GitRedirect returns the space's redirect at path; ENOTFOUND when
	// there is none.
	GitRedirect(ctx context.Context, spaceID, path string) (*GitRedirect, error)
	// ReplaceGitRedirects makes rs the space's redirects, dropping the
	// others; ENOTFOUND when the space does not exist.
	ReplaceGitRedirects(ctx context.Context, spaceID string, rs []GitRedirect) error
}
