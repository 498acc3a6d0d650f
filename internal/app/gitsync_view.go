package app

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/service"
)

// Limits of the Git Sync form, within those of the service's request:
// a ref is at most 255 characters, refs/heads/ and the branch together.
const (
	maxGitURL       = 2048
	maxGitBranch    = 255 - len(gitBranchPrefix)
	maxGitDir       = 1024
	maxGitMessage   = 10000
	gitBranchPrefix = "refs/heads/"
	// gitTokenUser is the user name sent with an access token given
	// alone, which the common hosts accept for a token.
	gitTokenUser = "x-access-token"
)

// gitForm is the Git Sync form as typed, or as prefilled from the last
// operation. Credentials are never part of it: they are not shown back.
type gitForm struct {
	URL, Branch, Directory, Message string
}

// gitSyncData is what a space's Git Sync page shows.
type gitSyncData struct {
	Space *quire.Space
	// Sync is what the space records of its last operation; nil when it
	// never synced.
	Sync *quire.GitSync
	// History is the space's finished operations, newest first.
	History []gitRunRow
	// Kept is how many finished operations the history keeps.
	Kept int
	Form gitForm
	// CanEdit offers the form; readers see the state alone.
	CanEdit bool
	// CredentialsSet says the operation just queued carried credentials.
	CredentialsSet bool
	State          *FormState
	Base           string
	// Refresh reloads the page as it is, keeping what the redirect
	// after a request said.
	Refresh string
}

// Running reports whether the last operation has not ended yet.
func (d gitSyncData) Running() bool { return d.Sync != nil && d.Sync.State == quire.GitRunning }

// Status names the last operation's state.
func (d gitSyncData) Status() string {
	if d.Sync == nil {
		return ""
	}
	return gitStateLabel(d.Sync.State)
}

// Direction names the last operation's direction.
func (d gitSyncData) Direction() string {
	if d.Sync == nil {
		return gitDirectionLabel(quire.GitImport)
	}
	return gitDirectionLabel(d.Sync.Direction)
}

// Branch is the branch of the last operation's ref.
func (d gitSyncData) Branch() string {
	if d.Sync == nil {
		return ""
	}
	return strings.TrimPrefix(d.Sync.Ref, gitBranchPrefix)
}

// gitService returns the Git Sync service, or says the server has none.
func (a *App) gitService() (*service.GitSync, error) {
	if a.cfg.GitSync == nil {
		return nil, notAvailable("Git Sync is")
	}
	return a.cfg.GitSync, nil
}

// gitSyncPath is the address of a space's Git Sync page.
func gitSyncPath(spaceID string) string { return spaceAppPath(spaceID, "git") }

// gitSyncPage shows a space's Git Sync: its last operation, and to those
// who may edit, the form that imports or exports.
func (a *App) gitSyncPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawGitSync(w, r, http.StatusOK, nil, nil)
}

// drawGitSync draws the Git Sync page; typed is the refused form, shown
// again with state's message beside its field.
func (a *App) drawGitSync(w http.ResponseWriter, r *http.Request, status int, typed *gitForm, state *FormState) error {
	git, err := a.gitService()
	if err != nil {
		return err
	}
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	rec, err := git.State(ctx, sp.ID)
	if quire.IsNotFound(err) {
		rec, err = nil, nil
	}
	if err != nil {
		return err
	}
	runs, err := git.History(ctx, sp.ID)
	if err != nil {
		return err
	}
	notice := r.URL.Query().Get(noticeParam)
	d := gitSyncData{Space: sp, Sync: rec, CanEdit: levelFrom(ctx) >= edit, State: state, Base: gitSyncPath(sp.ID),
		CredentialsSet: strings.HasSuffix(notice, "-credentials"), Form: gitForm{Branch: "main"}, Refresh: gitSyncPath(sp.ID),
		History: gitRunRows(runs), Kept: quire.GitSyncRunsKept}
	if noticeText(notice) != "" {
		d.Refresh += "?" + noticeParam + "=" + url.QueryEscape(notice)
	}
	if rec != nil {
		d.Form.URL, d.Form.Branch = rec.URL, d.Branch()
	}
	if typed != nil {
		d.Form = *typed
	}
	sh, err := a.shell(r, sp.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.SpaceID = "Git Sync · "+sp.Title, sp.ID
	return a.render(w, r, status, "gitsync", sh, d)
}

// gitImport queues an import of the space from a Git repository.
func (a *App) gitImport(w http.ResponseWriter, r *http.Request) error {
	return a.requestGit(w, r, quire.GitImport)
}

// gitExport queues an export of the space to a Git repository.
func (a *App) gitExport(w http.ResponseWriter, r *http.Request) error {
	return a.requestGit(w, r, quire.GitExport)
}

// requestGit reads the Git Sync form and queues the operation, then goes
// back to the page; a refused form is drawn again naming its field, and
// nothing is queued.
func (a *App) requestGit(w http.ResponseWriter, r *http.Request, dir quire.GitDirection) error {
	git, err := a.gitService()
	if err != nil {
		return err
	}
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	f := gitForm{URL: strings.TrimSpace(r.PostFormValue("url")), Branch: strings.TrimSpace(r.PostFormValue("branch")),
		Directory: strings.TrimSpace(r.PostFormValue("directory")), Message: strings.TrimSpace(r.PostFormValue("message"))}
	creds := r.PostFormValue("credentials")
	req, err := gitRequestOf(f, creds, dir)
	if err == nil {
		if dir == quire.GitExport && req.CommitMessage == "" {
			req.CommitMessage = "Export " + sp.Title + " from Quire"
		}
		err = git.Request(r.Context(), userFrom(r.Context()), sp.ID, req)
	}
	if field, msg, ok := formError(err); ok {
		field = gitFormField(field)
		st := &FormState{Form: "git", Field: field, Message: gitFieldLabel(field) + " " + msg + "."}
		return a.drawGitSync(w, r, http.StatusUnprocessableEntity, &f, st)
	} else if err != nil {
		return err
	}
	key := "git-" + string(dir) + "-queued"
	if strings.TrimSpace(creds) != "" {
		key += "-credentials"
	}
	return seeOther(w, r, gitSyncPath(sp.ID), key)
}

// gitRequestOf checks the form and turns it into a request: the URL must
// be an http(s) or ssh address (a local path or file:// URL is the
// server's own disk, which the app does not offer), the credentials go
// into it as user information.
func gitRequestOf(f gitForm, creds string, dir quire.GitDirection) (service.GitRequest, error) {
	req := service.GitRequest{Direction: dir, ProjectDir: f.Directory, CommitMessage: f.Message}
	switch {
	case f.URL == "":
		return req, quire.Invalid("url", "must not be empty")
	case len(f.URL) > maxGitURL:
		return req, quire.Invalid("url", "must be at most %d characters", maxGitURL)
	case f.Branch == "":
		return req, quire.Invalid("branch", "must not be empty")
	case utf8.RuneCountInString(f.Branch) > maxGitBranch || len(f.Branch) > maxGitBranch:
		return req, quire.Invalid("branch", "must be at most %d characters", maxGitBranch)
	case len(f.Directory) > maxGitDir:
		return req, quire.Invalid("directory", "must be at most %d characters", maxGitDir)
	case len(f.Message) > maxGitMessage:
		return req, quire.Invalid("message", "must be at most %d characters", maxGitMessage)
	}
	raw, err := gitRemoteURL(f.URL, strings.TrimSpace(creds))
	if err != nil {
		return req, err
	}
	req.URL, req.Ref = raw, gitBranchPrefix+strings.TrimPrefix(f.Branch, gitBranchPrefix)
	return req, nil
}

// gitRemoteURL checks a repository address and returns it with the
// credentials as its user information: user:password, or an access
// token alone, sent with gitTokenUser. The errors never repeat the URL.
func gitRemoteURL(raw, creds string) (string, error) {
	if !strings.Contains(raw, "://") {
		// user@host:path, the short form of an ssh address.
		at, colon := strings.IndexByte(raw, '@'), strings.IndexByte(raw, ':')
		if at > 0 && colon > at+1 && colon < len(raw)-1 && !strings.Contains(raw[:colon], "/") {
			if creds != "" {
				return "", quire.Invalid("credentials", "cannot go with a user@host:path address: write it as ssh://user@host/path")
			}
			return raw, nil
		}
		return "", quire.Invalid("url", "must be an https://, http:// or ssh:// address, or user@host:path")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", quire.Invalid("url", "is not a valid address")
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ssh":
	default:
		return "", quire.Invalid("url", "must be an https://, http:// or ssh:// address, or user@host:path")
	}
	if u.Host == "" {
		return "", quire.Invalid("url", "names no host")
	}
	if creds == "" {
		return raw, nil
	}
	if strings.ContainsAny(creds, "\r\n\x00") {
		return "", quire.Invalid("credentials", "must be on one line")
	}
	if user, pass, ok := strings.Cut(creds, ":"); ok && user != "" {
		u.User = url.UserPassword(user, pass)
	} else {
		u.User = url.UserPassword(gitTokenUser, creds)
	}
	return u.String(), nil
}

// gitFormField names the form's field of a field of the service's
// request.
func gitFormField(field string) string {
	switch field {
	case "ref":
		return "branch"
	case "repoProjectDirectory":
		return "directory"
	case "commitMessage":
		return "message"
	}
	return field
}

// gitFieldLabel names a field of the Git Sync form in its error message.
func gitFieldLabel(field string) string {
	switch field {
	case "url":
		return "Repository URL"
	case "branch":
		return "Branch"
	case "directory":
		return "Project directory"
	case "credentials":
		return "Credentials"
	case "message":
		return "Commit message"
	}
	return "The request"
}
