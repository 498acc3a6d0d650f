package service

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"quire/internal/gitremote"
	"quire/internal/quire"
	"quire/internal/secret"
)

// gitKeyName names the key sealing Git remote URLs in server_keys, used
// when the server is given no key of its own.
const gitKeyName = "git-credentials"

// GitSync imports spaces from Git repositories and exports them to Git
// repositories, in the background: a request records the operation and
// queues a job; the job fetches or pushes and records how it went.
type GitSync struct {
	s      *Service
	remote *gitremote.Remote
	log    *slog.Logger
	// seal seals remote URLs, under the key given or else one read from
	// the database.
	seal *sealer
	// timeout bounds one operation.
	timeout time.Duration
}

// DefaultGitTimeout bounds one Git Sync operation: the fetch or push and
// the writing into the space, long enough for repositories of a few
// gigabytes.
const DefaultGitTimeout = gitremote.DefaultTimeout

// gitJobSlack is how much longer than an operation's limit its job may
// run: enough to record that it timed out.
const gitJobSlack = time.Minute

// GitSyncOption configures a GitSync.
type GitSyncOption func(*GitSync)

// WithSealingKey sets the key sealing the remote URLs queued jobs carry,
// instead of the one kept in the database.
func WithSealingKey(key []byte) GitSyncOption { return func(g *GitSync) { g.seal.key = key } }

// WithGitTimeout bounds one Git Sync operation, fetch or push and the
// writing into the space together; zero keeps DefaultGitTimeout.
func WithGitTimeout(d time.Duration) GitSyncOption {
	return func(g *GitSync) {
		if d > 0 {
			g.timeout = d
		}
	}
}

// JobTimeout is the time limit the queue should give a Git Sync job
// (jobs.Timeout): the operation's, and a little more to record how it
// ended.
func (g *GitSync) JobTimeout() time.Duration { return g.timeout + gitJobSlack }

// NewGitSync returns the Git Sync service of s, reaching remotes through
// remote and running its jobs on the service's queue.
func NewGitSync(s *Service, remote *gitremote.Remote, opts ...GitSyncOption) *GitSync {
	g := &GitSync{s: s, remote: remote, log: s.log, seal: newSealer(gitKeyName), timeout: DefaultGitTimeout}
	for _, o := range opts {
		o(g)
	}
	return g
}

// GitRequest asks for one import or export.
type GitRequest struct {
	Direction quire.GitDirection
	// URL is the repository; it may carry basic-auth credentials.
	URL string
	// Ref is the ref to read or write, refs/heads/<branch>.
	Ref string
	// CommitMessage is the message of an export's commit.
	CommitMessage string
	// RepoTreeURL prefixes links to files of the repository; RepoCommitURL
	// prefixes the address of a commit.
	RepoTreeURL, RepoCommitURL string
	// ProjectDir is the directory of the repository holding the space.
	ProjectDir string
	// Timestamp is the time of the event asking for the operation; nil is
	// now.
	Timestamp *time.Time
	// Force runs the operation even when a newer one was asked for.
	Force bool
	// Standalone makes an import's revision without moving the space.
	Standalone bool
	// Provider and InfoURL, when given, are recorded on the space.
	Provider quire.GitProvider
	InfoURL  string
}

// gitJobAttempts is how many times a Git Sync job is tried when the
// remote or the database fails in a way that may pass.
const gitJobAttempts = 5

// GitJob is a queued Git Sync operation as stored: the remote URL is
// sealed, bound to the space.
type GitJob struct {
	Space         string             `json:"space"`
	User          string             `json:"user"`
	Direction     quire.GitDirection `json:"direction"`
	SealedURL     string             `json:"url"`
	Ref           string             `json:"ref"`
	CommitMessage string             `json:"commitMessage,omitempty"`
	RepoTreeURL   string             `json:"repoTreeURL,omitempty"`
	RepoCommitURL string             `json:"repoCommitURL,omitempty"`
	ProjectDir    string             `json:"projectDir,omitempty"`
	Timestamp     int64              `json:"timestamp"`
	Force         bool               `json:"force,omitempty"`
	Standalone    bool               `json:"standalone,omitempty"`
}

// Kind implements quire.JobArgs.
func (GitJob) Kind() string { return "git_sync" }

// sealer returns the box sealing remote URLs.
func (g *GitSync) sealer(ctx context.Context) (*secret.Box, error) {
	return g.seal.open(ctx, g.s.store)
}

// Request checks and records an import or export of a space and queues
// it, in one transaction: the record says "running" only if its job is
// queued. An operation whose event is older than one already asked for is
// skipped and not queued, unless forced.
func (g *GitSync) Request(ctx context.Context, u *quire.User, spaceID string, r GitRequest) error {
	remote, err := checkRemoteURL(r.URL)
	if err != nil {
		return err
	}
	if err := checkRef(r.Ref); err != nil {
		return err
	}
	dir, err := checkProjectDir(r.ProjectDir)
	if err != nil {
		return err
	}
	if r.Direction == quire.GitExport && strings.TrimSpace(r.CommitMessage) == "" {
		return quire.Invalid("commitMessage", "required")
	}
	box, err := g.sealer(ctx)
	if err != nil {
		return err
	}
	now := g.s.Now()
	ts := now
	if r.Timestamp != nil {
		ts = r.Timestamp.UTC().Truncate(time.Millisecond)
	}
	queue := true
	err = g.s.store.WithTx(ctx, func(st quire.Store) error {
		if _, err := liveSpace(ctx, st, spaceID); err != nil {
			return err
		}
		if err := st.LockSpace(ctx, spaceID); err != nil {
			return err
		}
		rec, err := st.GitSync(ctx, spaceID)
		if quire.IsNotFound(err) {
			rec, err = &quire.GitSync{SpaceID: spaceID}, nil
		}
		if err != nil {
			return err
		}
		if !r.Force && (ts.Before(rec.Requested) || ts.Before(rec.Applied)) {
			queue = false
			return nil
		}
		if r.Provider != "" {
			rec.Provider = r.Provider
		}
		if r.InfoURL != "" {
			rec.TreeURL = r.InfoURL
		} else if r.RepoTreeURL != "" {
			rec.TreeURL = r.RepoTreeURL
		}
		rec.URL, rec.RepoName, rec.Ref = remote.redacted, remote.repoName, r.Ref
		if ts.After(rec.Requested) {
			rec.Requested = ts
		}
		rec.Direction, rec.State, rec.Error, rec.Warnings, rec.Commit = r.Direction, quire.GitRunning, "", nil, ""
		rec.StartedAt, rec.UpdatedAt, rec.CompletedAt = now, now, nil
		rec.Progress = quire.GitProgress{}
		if err := st.PutGitSync(ctx, rec); err != nil {
			return err
		}
		job := GitJob{Space: spaceID, User: u.ID, Direction: r.Direction,
			SealedURL: box.Seal([]byte(r.URL), []byte(spaceID)), Ref: r.Ref, CommitMessage: r.CommitMessage,
			RepoTreeURL: r.RepoTreeURL, RepoCommitURL: r.RepoCommitURL, ProjectDir: dir,
			Timestamp: ts.UnixMilli(), Force: r.Force, Standalone: r.Standalone}
		_, err = g.s.enqueueTx(ctx, st, job, quire.JobOptions{MaxAttempts: gitJobAttempts})
		return err
	})
	if err != nil {
		return err
	}
	if !queue {
		g.log.InfoContext(ctx, "git sync skipped: a newer operation was asked for",
			"space", spaceID, "direction", r.Direction, "timestamp", ts)
	}
	return nil
}

// State returns what the space records about its Git Sync; ENOTFOUND when
// it never synced.
func (g *GitSync) State(ctx context.Context, spaceID string) (*quire.GitSync, error) {
	return g.s.store.GitSync(ctx, spaceID)
}

// GitSyncRunView is a finished Git Sync operation with the name of who
// asked for it.
type GitSyncRunView struct {
	*quire.GitSyncRun
	// By is the display name of who asked; "" when the user is gone.
	By string
}

// History lists the space's finished Git Sync operations, newest first:
// at most the quire.GitSyncRunsKept last ones, each with the name of
// who asked for it.
func (g *GitSync) History(ctx context.Context, spaceID string) ([]GitSyncRunView, error) {
	runs, err := g.s.store.GitSyncRuns(ctx, spaceID, quire.GitSyncRunsKept)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	out := make([]GitSyncRunView, 0, len(runs))
	for _, r := range runs {
		name, ok := names[r.UserID]
		if !ok && r.UserID != "" {
			u, err := g.s.store.User(ctx, r.UserID)
			if err != nil && !quire.IsNotFound(err) {
				return nil, err
			}
			if u != nil {
				name = u.DisplayName
			}
			names[r.UserID] = name
		}
		out = append(out, GitSyncRunView{GitSyncRun: r, By: name})
	}
	return out, nil
}

// DeleteInstallation forgets the space's Git Sync provider details and
// reports whether there were any.
func (g *GitSync) DeleteInstallation(ctx context.Context, spaceID string) (bool, error) {
	if _, err := liveSpace(ctx, g.s.store, spaceID); err != nil {
		return false, err
	}
	return g.s.store.DeleteGitSync(ctx, spaceID)
}
