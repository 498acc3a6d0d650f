package service

import (
	"context"

	"quire/internal/quire"
)

// SpaceNoticeKind names a change of a space that watchers hear of.
type SpaceNoticeKind string

// Kinds of space notices.
const (
	// NoticeVisibility: the space's visibility changed.
	NoticeVisibility SpaceNoticeKind = "visibility"
	// NoticeGitSyncStarted and NoticeGitSyncCompleted: a Git Sync
	// operation on the space began and ended.
	NoticeGitSyncStarted   SpaceNoticeKind = "gitsync_started"
	NoticeGitSyncCompleted SpaceNoticeKind = "gitsync_completed"
)

// SpaceNotice is a change of a space, handed to the watchers once it is
// committed.
type SpaceNotice struct {
	Kind    SpaceNoticeKind
	SpaceID string
	// Visibility and PreviousVisibility are the space's visibility after
	// and before a NoticeVisibility.
	Visibility, PreviousVisibility quire.Visibility
	// RevisionID is the space's revision, CommitID the commit of a Git
	// Sync notice; Failed marks a Git Sync that ended in failure.
	RevisionID, CommitID string
	Failed               bool
}

// SpaceWatcher hears of committed changes of spaces. It must not block
// for long nor fail the change: what it does with the notice is its own
// business.
type SpaceWatcher func(ctx context.Context, n SpaceNotice)

// WatchSpaces adds a watcher of space changes; call it before serving.
func (s *Service) WatchSpaces(w SpaceWatcher) { s.spaceWatchers = append(s.spaceWatchers, w) }

// notifySpace hands a notice to every watcher.
func (s *Service) notifySpace(ctx context.Context, n SpaceNotice) {
	for _, w := range s.spaceWatchers {
		w(context.WithoutCancel(ctx), n)
	}
}
