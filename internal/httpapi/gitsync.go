package httpapi

import (
	"context"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// gitInfoIn is the gitInfo member of a Git Sync request: provider details
// to record on the space.
type gitInfoIn struct {
	Provider string `json:"provider,omitempty" enum:"github,gitlab" doc:"The Git provider"`
	URL      string `json:"url,omitempty" maxLength:"2048" doc:"The repository's tree URL"`
}

// gitImportIn is the body of a Git import (ImportGitRepository).
type gitImportIn struct {
	URL                  string     `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the Git repository; it may contain basic-auth credentials, which are never stored in clear or shown"`
	Ref                  string     `json:"ref" minLength:"1" maxLength:"255" doc:"Git ref to import, in the form refs/heads/main"`
	RepoCacheID          string     `json:"repoCacheID,omitempty" maxLength:"255" doc:"Accepted for compatibility; each operation fetches what it needs"`
	RepoTreeURL          string     `json:"repoTreeURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to files of the repository"`
	RepoCommitURL        string     `json:"repoCommitURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to commits of the repository"`
	RepoProjectDirectory string     `json:"repoProjectDirectory,omitempty" maxLength:"1024" doc:"Directory of the repository holding the space"`
	Timestamp            string     `json:"timestamp,omitempty" format:"date-time" doc:"Time of the event asking for the import; operations take effect in the order of these times"`
	Force                bool       `json:"force,omitempty" doc:"Run even when an operation with a later timestamp was asked for"`
	Standalone           bool       `json:"standalone,omitempty" doc:"Make a revision without changing the space's current content"`
	GitInfo              *gitInfoIn `json:"gitInfo,omitempty"`
}

// gitExportIn is the body of a Git export (ExportToGitRepository).
type gitExportIn struct {
	URL                  string     `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the Git repository; it may contain basic-auth credentials, which are never stored in clear or shown"`
	Ref                  string     `json:"ref" minLength:"1" maxLength:"255" doc:"Git ref to push the commit to, in the form refs/heads/main"`
	CommitMessage        string     `json:"commitMessage" minLength:"1" maxLength:"10000" doc:"Message of the commit the export makes"`
	RepoCacheID          string     `json:"repoCacheID,omitempty" maxLength:"255" doc:"Accepted for compatibility; each operation fetches what it needs"`
	RepoTreeURL          string     `json:"repoTreeURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to files of the repository"`
	RepoCommitURL        string     `json:"repoCommitURL,omitempty" maxLength:"2048" doc:"Prefix of URLs to commits of the repository"`
	RepoProjectDirectory string     `json:"repoProjectDirectory,omitempty" maxLength:"1024" doc:"Directory of the repository holding the space"`
	Timestamp            string     `json:"timestamp,omitempty" format:"date-time" doc:"Time of the event asking for the export; operations take effect in the order of these times"`
	Force                bool       `json:"force,omitempty" doc:"Run even when an operation with a later timestamp was asked for"`
	GitInfo              *gitInfoIn `json:"gitInfo,omitempty"`
}

// gitRequest builds a service request from the fields the two bodies
// share.
func gitRequest(dir quire.GitDirection, url, ref, treeURL, commitURL, projectDir, ts string, force bool, info *gitInfoIn) (service.GitRequest, error) {
	r := service.GitRequest{Direction: dir, URL: url, Ref: ref, RepoTreeURL: treeURL,
		RepoCommitURL: commitURL, ProjectDir: projectDir, Force: force}
	if ts != "" {
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return r, quire.Invalid("timestamp", "not a date-time: %v", err)
		}
		r.Timestamp = &t
	}
	if info != nil {
		r.Provider, r.InfoURL = quire.GitProvider(info.Provider), info.URL
	}
	return r, nil
}

func (s *Server) importGit(ctx context.Context, in *struct {
	SpacePath
	Body gitImportIn
}) (*statusOnly, error) {
	b := in.Body
	r, err := gitRequest(quire.GitImport, b.URL, b.Ref, b.RepoTreeURL, b.RepoCommitURL, b.RepoProjectDirectory, b.Timestamp, b.Force, b.GitInfo)
	if err != nil {
		return nil, err
	}
	r.Standalone = b.Standalone
	return s.requestGit(ctx, in.SpaceID, r)
}

func (s *Server) exportGit(ctx context.Context, in *struct {
	SpacePath
	Body gitExportIn
}) (*statusOnly, error) {
	b := in.Body
	r, err := gitRequest(quire.GitExport, b.URL, b.Ref, b.RepoTreeURL, b.RepoCommitURL, b.RepoProjectDirectory, b.Timestamp, b.Force, b.GitInfo)
	if err != nil {
		return nil, err
	}
	r.CommitMessage = b.CommitMessage
	return s.requestGit(ctx, in.SpaceID, r)
}

// requestGit asks the Git Sync service for an operation.
func (s *Server) requestGit(ctx context.Context, spaceID string, r service.GitRequest) (*statusOnly, error) {
	git, err := s.git.get()
	if err != nil {
		return nil, err
	}
	if err := git.Request(ctx, userFrom(ctx), spaceID, r); err != nil {
		return nil, err
	}
	return noContent(), nil
}

// gitOperationJSON is the last Git Sync operation of a space.
type gitOperationJSON struct {
	State           string           `json:"state" enum:"running,failure,success"`
	Direction       string           `json:"direction" enum:"export,import"`
	Stage           string           `json:"stage" enum:"repo_fetch,config_check,content_process,finalize"`
	DispatchedTasks int              `json:"dispatchedTasks"`
	CompletedTasks  int              `json:"completedTasks"`
	StartedAt       string           `json:"startedAt" format:"date-time"`
	UpdatedAt       string           `json:"updatedAt" format:"date-time"`
	CompletedAt     *string          `json:"completedAt,omitempty" format:"date-time"`
	Error           string           `json:"error,omitempty" doc:"What went wrong, when state is failure"`
	Warnings        []string         `json:"warnings,omitempty" doc:"What an import could not carry, such as Markdown files left out of the summary"`
	Commit          string           `json:"commit,omitempty" doc:"The commit imported or pushed"`
	Progress        *gitProgressJSON `json:"progress,omitempty" doc:"How far an import came, as last recorded (while it runs, about every second)"`
}

// gitProgressJSON is how far a Git import came.
type gitProgressJSON struct {
	Phase           string `json:"phase" enum:"receiving,indexing,reading,storing" doc:"What the import is doing: receiving the repository's objects, indexing them, reading the commit's tree, or storing files and pages into the space"`
	ObjectsReceived int64  `json:"objectsReceived" doc:"Git objects received (or indexed, in the indexing phase)"`
	ObjectsTotal    int64  `json:"objectsTotal" doc:"Git objects the repository sends for the commit; 0 while unknown or for a local repository"`
	BytesReceived   int64  `json:"bytesReceived" doc:"Bytes of the repository's objects received"`
	FilesStored     int64  `json:"filesStored" doc:"Files of the repository stored into the space"`
	FilesTotal      int64  `json:"filesTotal" doc:"Files of the repository to store; 0 before the storing phase"`
}

// gitSyncJSON is the Git Sync state of a space (GitSyncState).
type gitSyncJSON struct {
	RepoName             string            `json:"repoName,omitempty"`
	InstallationProvider string            `json:"installationProvider,omitempty" enum:"github,gitlab,github-legacy"`
	Integration          string            `json:"integration,omitempty" doc:"What provides the Git Sync"`
	URL                  string            `json:"url,omitempty" doc:"The repository tree URL, or the repository URL without credentials"`
	UpdatedAt            string            `json:"updatedAt" format:"date-time"`
	Operation            *gitOperationJSON `json:"operation,omitempty" doc:"The last import or export and how it went"`
}

// gitIntegration names what runs Git Sync for a record.
const gitIntegration = "git-sync"

// gitSyncOut renders a space's Git Sync record.
func gitSyncOut(g *quire.GitSync) gitSyncJSON {
	out := gitSyncJSON{RepoName: g.RepoName, InstallationProvider: string(g.Provider), Integration: gitIntegration,
		URL: g.TreeURL, UpdatedAt: timestamp(g.UpdatedAt)}
	if out.URL == "" {
		out.URL = g.URL
	}
	if g.Direction != "" {
		op := &gitOperationJSON{State: string(g.State), Direction: string(g.Direction), Stage: "repo_fetch",
			DispatchedTasks: 1, StartedAt: timestamp(g.StartedAt), UpdatedAt: timestamp(g.UpdatedAt),
			CompletedAt: optTimestamp(g.CompletedAt), Error: g.Error, Warnings: g.Warnings, Commit: g.Commit}
		if g.State != quire.GitRunning {
			op.Stage, op.CompletedTasks = "finalize", 1
		} else if g.Progress.Phase == "storing" {
			op.Stage = "content_process"
		}
		if p := g.Progress; p.Phase != "" {
			op.Progress = &gitProgressJSON{Phase: p.Phase, ObjectsReceived: p.Objects, ObjectsTotal: p.ObjectsTotal,
				BytesReceived: p.Bytes, FilesStored: p.Files, FilesTotal: p.FilesTotal}
		}
		out.Operation = op
	}
	return out
}

func (s *Server) getGitInfo(ctx context.Context, in *SpacePath) (*body[gitSyncJSON], error) {
	git, err := s.git.get()
	if err != nil {
		return nil, err
	}
	g, err := git.State(ctx, in.SpaceID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("Git Sync for this space")
	} else if err != nil {
		return nil, err
	}
	return reply(gitSyncOut(g)), nil
}

func (s *Server) deleteGitInstallation(ctx context.Context, in *SpacePath) (*statusOnly, error) {
	git, err := s.git.get()
	if err != nil {
		return nil, err
	}
	ok, err := git.DeleteInstallation(ctx, in.SpaceID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
