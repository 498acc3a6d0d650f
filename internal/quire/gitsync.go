package quire

import (
	"context"
	"time"
)

// GitProvider names the code-hosting service a space's Git Sync runs with.
type GitProvider string

// Git providers.
const (
	GitProviderGitHub       GitProvider = "github"
	GitProviderGitLab       GitProvider = "gitlab"
	GitProviderGitHubLegacy GitProvider = "github-legacy"
)

// GitDirection says which way a Git Sync operation moves content.
type GitDirection string

// Git Sync directions.
const (
	GitImport GitDirection = "import" // from the repository into the space
	GitExport GitDirection = "export" // from the space into the repository
)

// GitState is where a space's last Git Sync operation stands.
type GitState string

// Git Sync operation states.
const (
	GitRunning GitState = "running"
	GitSuccess GitState = "success"
	GitFailure GitState = "failure"
)

// GitSync is what a space records about its Git synchronization: the
// provider details given with the last operation and how that operation
// went. Credentials are never part of it: URL is the repository's address
// without them.
type GitSync struct {
	SpaceID string
	// Provider and TreeURL come from the operation's gitInfo; TreeURL is
	// the address of the repository tree used when rendering content.
	Provider GitProvider
	TreeURL  string
	// URL is the repository address, credentials removed; RepoName its
	// owner/name part.
	URL      string
	RepoName string
	Ref      string
	// Requested is the event time of the newest operation requested, and
	// Applied that of the last one run: an operation older than either is
	// skipped, so operations take effect in the order of their events.
	Requested time.Time
	Applied   time.Time
	// The last operation.
	Direction   GitDirection
	State       GitState
	Error       string
	Warnings    []string // what an import could not carry, such as files left out of the summary
	Commit      string   // the commit imported or pushed
	StartedAt   time.Time
	UpdatedAt   time.Time
	CompletedAt *time.Time
	// Progress is how far the last operation came, as it last told
	// (while it runs, at most about once a second).
	Progress GitProgress
}

// GitProgress is how far a Git Sync operation has come. Phase says what
// it is doing: receiving (the repository's objects arrive), indexing
// (they are indexed on disk), reading (the commit's tree is read) or
// storing (files and pages are written into the space); "" before it
// told anything.
type GitProgress struct {
	Phase string
	// Objects of ObjectsTotal Git objects are received or indexed, in
	// Bytes bytes received.
	Objects, ObjectsTotal int64
	Bytes                 int64
	// Files of FilesTotal files of the repository are stored.
	Files, FilesTotal int64
}

// GitSyncStore keeps the Git Sync record of each space.
type GitSyncStore interface {
	// GitSync returns the space's record; ENOTFOUND when it never synced.
	GitSync(ctx context.Context, spaceID string) (*GitSync, error)
	// PutGitSync creates or replaces the space's record.
	PutGitSync(ctx context.Context, g *GitSync) error
	// SetGitProgress records how far the operation applied at applied
	// has come, and at what time, unless the record moved on to another
	// operation or that one ended: progress is written by the replica
	// running the operation and read from any.
	SetGitProgress(ctx context.Context, spaceID string, applied time.Time, p GitProgress, at time.Time) error
	// DeleteGitSync removes the space's record and reports whether there
	// was one.
	DeleteGitSync(ctx context.Context, spaceID string) (bool, error)
}
