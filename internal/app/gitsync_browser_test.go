package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

// TestGitSyncBrowser connects a space to a local repository from its
// manage page in a real browser, imports it, and sees the operation's
// state on the Git Sync page, with screenshots at desktop and phone
// widths in both themes.
func TestGitSyncBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	sp, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	repo, head := servedRepo(t, docsRepo())
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)

	b.Open(h.URL+"/app/s/"+sp.Space.ID+"/~/manage", http.StatusOK)
	b.Click("link", "Git Sync")
	b.H1("Git Sync")
	if b.Has("button", "Import from Git") != true || !b.Has("button", "Export to Git") {
		t.Fatal("the Git Sync page offers no import and export")
	}
	b.Fill("textbox", "Repository URL", repo)
	b.Fill("textbox", "Branch", "master")
	b.Fill("textbox", "Credentials", gitUser+":"+gitPassword)
	b.Click("button", "Import from Git")
	b.WaitFor(`document.querySelector('[role="status"]') && document.querySelector('[role="status"]').textContent.includes("Import from Git queued")`)

	text := func() string { return b.JS(`document.querySelector("main").innerText`) }
	for deadline := time.Now().Add(time.Minute); strings.Contains(text(), "Running"); {
		if time.Now().After(deadline) {
			t.Fatalf("the import still runs:\n%s", text())
		}
		time.Sleep(100 * time.Millisecond)
		b.Click("link", "Refresh")
		b.H1("Git Sync")
	}
	got := text()
	for _, want := range []string{"Succeeded", "Import from Git", head, "master", "Warnings", "Credentials are set"} {
		if !strings.Contains(got, want) {
			t.Errorf("the Git Sync page does not show %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, gitPassword) || strings.Contains(b.JS(`document.documentElement.outerHTML`), gitPassword) {
		t.Error("the Git Sync page shows the credentials")
	}
	if !b.Has("table", "History") || !strings.Contains(got, "Asked by") || !strings.Contains(got, head[:12]) {
		t.Errorf("the Git Sync page shows no history of the import:\n%s", got)
	}
	b.ShootViews("app-gitsync", "main h1")

	// The import page: a Markdown file uploaded into a new change
	// request.
	b.Open(h.URL+"/app/s/"+sp.Space.ID+"/~/import", http.StatusOK)
	b.H1("Import content")
	if !b.Has("button", "Upload and import") || !b.Has("combobox", "Import the file into") {
		t.Fatal("the import page offers no upload")
	}
	// A file input takes no typed value: the file is given as a person
	// choosing it would, through the input labelled for it.
	if n := b.JS(`(() => {
		const label = [...document.querySelectorAll("label")].find(l => l.textContent.trim() === "Markdown, HTML or zip file");
		const files = new DataTransfer();
		files.items.add(new File(["# Release notes\n\nWhat changed.\n"], "release-notes.md", {type: "text/markdown"}));
		label.control.files = files.files;
		return String(label.control.files.length);
	})()`); n != "1" {
		t.Fatalf("the file was not chosen: %s", n)
	}
	b.JS(`(() => { const s = document.getElementById(
		[...document.querySelectorAll("label")].find(l => l.textContent.trim() === "Import the file into").htmlFor);
		s.value = "new"; return ""; })()`)
	b.Click("button", "Upload and import")
	b.WaitFor(`document.querySelector('[role="status"]') && document.querySelector('[role="status"]').textContent.includes("Import done: 1 of 1 resource imported.")`)
	if !b.Has("link", "change request #1") {
		t.Error("the import page does not link to the change request it made")
	}
	b.ShootViews("app-import", "main h1")
}
