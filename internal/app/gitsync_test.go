package app_test

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"quire/internal/quire"
	"quire/internal/testutil"
)

// gitUser and gitPassword are what the test repository's server asks
// for.
const (
	gitUser     = "robot"
	gitPassword = "s3cr3t-t0ken"
)

// servedRepo makes a bare repository whose master branch holds files, as
// the service's Git Sync tests do, and serves it over smart HTTP with git
// http-backend, asking for gitUser and gitPassword; it returns the
// repository's URL, without credentials, and its head commit.
func servedRepo(t *testing.T, files map[string][]byte) (string, string) {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		testutil.Missing(t, "the git binary serves the test repository")
	}
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if _, err := git.PlainInit(work, false); err != nil {
		t.Fatal(err)
	}
	testutil.CommitFiles(t, work, files)
	bare, err := git.PlainClone(filepath.Join(root, "repo.git"), true, &git.CloneOptions{URL: work})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := bare.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Raw.Section("http").SetOption("receivepack", "true")
	if err := bare.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	head, err := bare.Head()
	if err != nil {
		t.Fatal(err)
	}
	backend := testutil.GitHTTPBackend(gitBin, root)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != gitUser || p != gitPassword {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/repo.git", head.Hash().String()
}

// docsRepo is a small repository in GitBook's layout, with one page left
// out of its summary, which the import warns about.
func docsRepo() map[string][]byte {
	return map[string][]byte{
		"README.md":  []byte("# Welcome\n\nStart here.\n"),
		"SUMMARY.md": []byte("# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n"),
		"guide.md":   []byte("# Guide\n\nThe guide.\n"),
		"stray.md":   []byte("# Stray\n\nNot in the summary.\n"),
	}
}

// waitGitPage reloads a space's Git Sync page until its last operation
// is no longer running, and returns the page.
func waitGitPage(t *testing.T, h *harness, c *http.Client, path string) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status, _, body := h.get(t, c, path)
		if status != http.StatusOK {
			t.Fatalf("Git Sync page: %d\n%s", status, body)
		}
		if !strings.Contains(body, "<dd>Running</dd>") {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Git Sync operation still runs:\n%s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantState checks that a Git Sync page shows the record's state as the
// service reports it: status, commit, error and every warning.
func wantState(t *testing.T, body string, rec *quire.GitSync, status string) {
	t.Helper()
	if !strings.Contains(body, "<dd>"+status+"</dd>") {
		t.Errorf("the page does not say %s:\n%s", status, body)
	}
	if rec.Commit != "" && !strings.Contains(body, "<code>"+rec.Commit+"</code>") {
		t.Errorf("the page does not show the commit %s", rec.Commit)
	}
	if rec.Error != "" && !strings.Contains(body, "<p>"+html.EscapeString(rec.Error)+"</p>") {
		t.Errorf("the page does not show the error %q:\n%s", rec.Error, body)
	}
	for _, w := range rec.Warnings {
		if !strings.Contains(body, "<li>"+html.EscapeString(w)+"</li>") {
			t.Errorf("the page does not show the warning %q", w)
		}
	}
}

// TestGitSyncPage connects a space to a repository served over HTTP with
// credentials, imports it and sees the result in the page's state, then
// exports back; malformed forms come back naming their field with
// nothing queued; a failed import shows its error as recorded; a reader
// sees the state but no form and is refused both operations.
func TestGitSyncPage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		hb := newHandbookFixture(t, h)
		id, admin, reader := hb.ID, hb.Admin, hb.Reader
		base := "/app/s/" + id + "/~/git"
		repo, head := servedRepo(t, docsRepo())

		status, _, body := h.get(t, admin, "/app/s/"+id+"/~/manage")
		if status != http.StatusOK || !strings.Contains(body, `href="`+base+`"`) || !strings.Contains(body, `href="/app/s/`+id+`/~/import"`) {
			t.Fatalf("the manage page does not link to Git Sync and import: %d", status)
		}
		status, _, body = h.get(t, admin, base)
		if status != http.StatusOK || !strings.Contains(body, "has not been synced with Git yet") ||
			!strings.Contains(body, `<button type="submit" class="btn btn-primary">Import from Git</button>`) ||
			!strings.Contains(body, `formaction="`+base+`/export"`) || !strings.Contains(body, `type="password" name="credentials"`) {
			t.Fatalf("Git Sync page before any sync: %d\n%s", status, body)
		}

		// Malformed forms: each is drawn again naming its field, and
		// nothing is queued.
		good := url.Values{"url": {repo}, "branch": {"master"}, "credentials": {gitUser + ":" + gitPassword}}
		for _, c := range []struct {
			what, field, value, id, says string
		}{
			{"empty URL", "url", "", "git-url", "Repository URL must not be empty."},
			{"file URL", "url", "file:///srv/git/docs.git", "git-url", "Repository URL must be an https://, http:// or ssh:// address"},
			{"ftp URL", "url", "ftp://git.example/docs.git", "git-url", "Repository URL must be an https://, http:// or ssh:// address"},
			{"local path", "url", "/srv/git/docs.git", "git-url", "Repository URL must be an https://, http:// or ssh:// address"},
			{"long branch", "branch", strings.Repeat("b", 245), "git-branch", "Branch must be at most 244 characters."},
			{"bad branch", "branch", "main..dev", "git-branch", "Branch is not a valid Git ref name."},
			{"directory outside", "directory", "../up", "git-directory", "Project directory must stay inside the repository."},
		} {
			form := url.Values{}
			for k, v := range good {
				form[k] = v
			}
			form.Set(c.field, c.value)
			for _, op := range []string{"import", "export"} {
				status, _, body := h.postForm(t, admin, base+"/"+op, form)
				if status != http.StatusUnprocessableEntity || !strings.Contains(body, html.EscapeString(c.says)) ||
					!strings.Contains(body, `id="`+c.id+`"`) || !strings.Contains(body, `aria-invalid="true"`) {
					t.Errorf("%s, %s: %d, want 422 saying %q\n%s", c.what, op, status, c.says, body)
				}
				if strings.Contains(body, gitPassword) {
					t.Errorf("%s, %s: the refused form shows the credentials", c.what, op)
				}
			}
		}
		if _, err := h.Store.GitSync(ctx, id); !quire.IsNotFound(err) {
			t.Fatalf("a refused form queued an operation: %v", err)
		}

		// A reader sees the page without the form, and may not sync.
		status, _, body = h.get(t, reader, base)
		if status != http.StatusOK || strings.Contains(body, "Import from Git</button>") || strings.Contains(body, "<form") && strings.Contains(body, base+"/import") {
			t.Fatalf("reader's Git Sync page: %d\n%s", status, body)
		}
		for _, op := range []string{"import", "export"} {
			if status, _, _ := h.postForm(t, reader, base+"/"+op, good); status != http.StatusForbidden {
				t.Errorf("reader's %s: %d, want 403", op, status)
			}
		}
		if _, err := h.Store.GitSync(ctx, id); !quire.IsNotFound(err) {
			t.Fatalf("a reader's request queued an operation: %v", err)
		}

		// The import: queued, then run, its result on the page.
		status, loc, _ := h.postForm(t, admin, base+"/import", good)
		if status != http.StatusSeeOther || loc != base+"?notice=git-import-queued-credentials" {
			t.Fatalf("import: %d %q", status, loc)
		}
		body = waitGitPage(t, h, admin, loc)
		rec, err := h.Store.GitSync(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.State != quire.GitSuccess || rec.Commit != head {
			t.Fatalf("import: %s %q, commit %s, want %s", rec.State, rec.Error, rec.Commit, head)
		}
		if len(rec.Warnings) == 0 {
			t.Fatal("the import of a page left out of the summary recorded no warning")
		}
		wantState(t, body, rec, "Succeeded")
		for _, want := range []string{"<dd>Import from Git</dd>", "<dd>master</dd>", "<dd>" + repo, "Credentials are set",
			`value="` + repo + `"`, "The last 100 are kept."} {
			if !strings.Contains(body, want) {
				t.Errorf("the page after the import does not show %q", want)
			}
		}
		if strings.Contains(body, gitPassword) {
			t.Error("the Git Sync page shows the credentials")
		}
		wantHistory(t, body, h.Admin.DisplayName, "Import from Git/Succeeded/"+head[:12])

		// A reader sees the same state.
		status, _, body = h.get(t, reader, base)
		if status != http.StatusOK {
			t.Fatalf("reader's Git Sync page: %d", status)
		}
		wantState(t, body, rec, "Succeeded")

		// The export back to the repository.
		status, loc, _ = h.postForm(t, admin, base+"/export", good)
		if status != http.StatusSeeOther || loc != base+"?notice=git-export-queued-credentials" {
			t.Fatalf("export: %d %q", status, loc)
		}
		body = waitGitPage(t, h, admin, base)
		if rec, err = h.Store.GitSync(ctx, id); err != nil || rec.State != quire.GitSuccess || rec.Direction != quire.GitExport {
			t.Fatalf("export: %+v %v", rec, err)
		}
		wantState(t, body, rec, "Succeeded")
		if !strings.Contains(body, "<dd>Export to Git</dd>") {
			t.Error("the page after the export does not say so")
		}
		exported := rec.Commit[:min(12, len(rec.Commit))]
		wantHistory(t, body, h.Admin.DisplayName, "Export to Git/Succeeded/"+exported, "Import from Git/Succeeded/"+head[:12])

		// Without the credentials the server refuses: the failure is
		// shown as recorded.
		status, _, _ = h.postForm(t, admin, base+"/import", url.Values{"url": {repo}, "branch": {"master"}})
		if status != http.StatusSeeOther {
			t.Fatalf("import without credentials: %d", status)
		}
		body = waitGitPage(t, h, admin, base)
		if rec, err = h.Store.GitSync(ctx, id); err != nil || rec.State != quire.GitFailure || rec.Error == "" {
			t.Fatalf("import without credentials: %+v %v", rec, err)
		}
		wantState(t, body, rec, "Failed")
		wantHistory(t, body, h.Admin.DisplayName, "Import from Git/Failed/", "Export to Git/Succeeded/"+exported,
			"Import from Git/Succeeded/"+head[:12])
		if !strings.Contains(body, `<td data-label="Details">`+html.EscapeString(rec.Error)+`</td>`) {
			t.Errorf("the history does not show the failure's error %q", rec.Error)
		}
	})
}

// wantHistory checks the Git Sync page's history table: one row per
// finished operation, newest first, each "operation/result/commit"
// (the commit shortened, "" for none), all asked for by who.
func wantHistory(t *testing.T, body, who string, rows ...string) {
	t.Helper()
	_, table, ok := strings.Cut(body, `<h2 id="git-history-heading">History</h2>`)
	if !ok {
		t.Fatal("the page has no history")
	}
	table, _, _ = strings.Cut(table, "</table>")
	var got []string
	for _, tr := range strings.Split(table, "<tr>")[2:] {
		cell := func(label string) string {
			_, v, _ := strings.Cut(tr, `<td data-label="`+label+`">`)
			v, _, _ = strings.Cut(v, "</td>")
			return v
		}
		commit := cell("Commit")
		if _, c, ok := strings.Cut(commit, ">"); ok && strings.HasPrefix(commit, "<code") {
			commit, _, _ = strings.Cut(c, "<")
		} else {
			commit = ""
		}
		got = append(got, cell("Operation")+"/"+cell("Result")+"/"+commit)
		if by := cell("Asked by"); by != html.EscapeString(who) {
			t.Errorf("history row %q asked by %q, want %q", got[len(got)-1], by, who)
		}
	}
	if strings.Join(got, "\n") != strings.Join(rows, "\n") {
		t.Errorf("history rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(rows, "\n"))
	}
}

// TestContentImportPage imports a Markdown file into a new change request
// and shows the counts the service reports; a malformed URL comes back
// naming the field, and a reader is refused.
func TestContentImportPage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		hb := newHandbookFixture(t, h)
		id, admin, reader := hb.ID, hb.Admin, hb.Reader
		base := "/app/s/" + id + "/~/import"
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/markdown")
			_, _ = w.Write([]byte("# Release notes\n\nWhat changed.\n"))
		}))
		t.Cleanup(srv.Close)

		status, _, body := h.get(t, admin, base)
		if status != http.StatusOK || !strings.Contains(body, "<h1>Import content</h1>") {
			t.Fatalf("import page: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, admin, base, url.Values{"url": {"ftp://docs.example/notes.md"}, "source": {"markdown"}, "into": {"new"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "URL must be an http:// or https:// address.") ||
			!strings.Contains(body, `value="ftp://docs.example/notes.md"`) {
			t.Fatalf("ftp URL: %d\n%s", status, body)
		}
		status, _, body = h.postForm(t, admin, base, url.Values{"url": {srv.URL + "/notes.md"}, "source": {"docx"}, "into": {"new"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Kind of content choose one of the listed kinds of content.") {
			t.Fatalf("unsupported source: %d\n%s", status, body)
		}
		if status, _, _ := h.postForm(t, reader, base, url.Values{"url": {srv.URL + "/notes.md"}, "source": {"markdown"}, "into": {"space"}}); status != http.StatusForbidden {
			t.Fatalf("reader's import: %d, want 403", status)
		}
		crs, err := h.Svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: id}, quire.Page{})
		if err != nil || len(crs.Items) != 0 {
			t.Fatalf("refused imports made change requests: %v %v", crs, err)
		}

		status, loc, _ := h.postForm(t, admin, base, url.Values{"url": {srv.URL + "/notes.md"}, "source": {"markdown"}, "into": {"new"}})
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, base+"?") {
			t.Fatalf("import: %d %q", status, loc)
		}
		crs, err = h.Svc.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: id}, quire.Page{})
		if err != nil || len(crs.Items) != 1 {
			t.Fatalf("the import made no change request: %v %v", crs, err)
		}
		if want := "Import from " + strings.TrimPrefix(srv.URL, "http://") + "/notes.md"; crs.Items[0].Subject != want {
			t.Errorf("the import's change request is named %q, want %q", crs.Items[0].Subject, want)
		}
		status, _, body = h.get(t, admin, loc)
		n := crs.Items[0].Number
		if status != http.StatusOK || !strings.Contains(body, "Import done: 1 of 1 resource imported.") ||
			!strings.Contains(body, `href="/app/s/`+id+`/~/changes/`+strconv.Itoa(n)+`"`) {
			t.Fatalf("page after the import: %d\n%s", status, body)
		}
	})
}
