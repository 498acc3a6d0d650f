package quire

import (
	"context"
	"time"
)

// GitSyncRunsKept is how many finished Git Sync operations a space's
// history keeps: recording one more drops the oldest.
const GitSyncRunsKept = 100

// GitSyncRun is one finished Git Sync operation of a space, as its
// history keeps it. Unlike GitSync, which says how the last operation
// stands, runs are never changed once recorded.
type GitSyncRun struct {
	// ID ascends in the order runs are recorded.
	ID        int64
	SpaceID   string
	Direction GitDirection
	// State is GitSuccess or GitFailure.
	State    GitState
	Commit   string   // the commit imported or pushed
	Warnings []string // what an import could not carry
	Error    string
	// StartedAt and FinishedAt are when the operation began and ended.
	StartedAt  time.Time
	FinishedAt time.Time
	// UserID is who asked for the operation.
	UserID string
}

// GitSyncHistoryStore keeps the finished Git Sync operations of each
// space.
type GitSyncHistoryStore interface {
	// AddGitSyncRun records a finished operation, setting its ID, and in
	// the same write drops the space's oldest runs beyond the newest
	// keep. ENOTFOUND when the space does not exist.
	AddGitSyncRun(ctx context.Context, r *GitSyncRun, keep int) error
	// GitSyncRuns lists the space's runs, newest first, at most limit.
	GitSyncRuns(ctx context.Context, spaceID string, limit int) ([]*GitSyncRun, error)
}
