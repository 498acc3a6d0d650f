package quire

import "context"

// GitConfig is what a space's repository says in .gitbook.yaml about
// where its content lives, kept from the last Git import that moved the
// space so that an export writes the same settings back.
type GitConfig struct {
	// Root is the content directory, relative to the project directory,
	// without "./" or a trailing slash; "" is the project directory.
	Root string
	// Readme and Summary are the landing page and the table of contents,
	// relative to Root; "" is the default name.
	Readme  string
	Summary string
	// Source is .gitbook.yaml as read, written back while it still says
	// what the export writes; "" when the repository had none.
	Source string
}

// GitConfigStore keeps the repository settings of each space.
type GitConfigStore interface {
	// GitConfig returns the space's repository settings; ENOTFOUND when
	// no import recorded any.
	GitConfig(ctx context.Context, spaceID string) (*GitConfig, error)
	// PutGitConfig records the space's repository settings, replacing
	// earlier ones; ENOTFOUND when the space does not exist.
	PutGitConfig(ctx context.Context, spaceID string, c GitConfig) error
}
