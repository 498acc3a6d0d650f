package service

import (
	"archive/zip"
	"bytes"
	"context"
	"testing"

	"quire/internal/fetch"
	"quire/internal/importer"
	"quire/internal/quire"
)

// importFixture is a content import service over one engine with a
// space to import into.
type importFixture struct {
	ci    *ContentImports
	st    quire.Store
	user  *quire.User
	space string
}

func newImportFixture(t *testing.T, st quire.Store) *importFixture {
	t.Helper()
	svc := New(st)
	boot, err := svc.Bootstrap(t.Context(), BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.User(t.Context(), boot.User)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := svc.CreateSpace(t.Context(), u, boot.Organization, SpaceInput{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	im := importer.New(fetch.New(fetch.Config{}), importer.Options{MaxZipFiles: 10})
	return &importFixture{ci: NewContentImports(svc, im), st: st, user: u, space: sp.Space.ID}
}

// titles lists the titles of the top-level pages of a revision.
func (f *importFixture) titles(t *testing.T, revID string) []string {
	t.Helper()
	rev, err := f.st.Revision(t.Context(), f.space, revID)
	if err != nil {
		t.Fatal(err)
	}
	top, err := f.ci.s.engine.Snapshot(f.st, rev).Children(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range top {
		out = append(out, p.Title)
	}
	return out
}

// TestImportFile imports uploaded files as the import from a URL does: a
// Markdown file merged into the space, an HTML file into a change
// request, a zip's pages; a file of another kind, or bytes not of the
// kind its name says, is refused naming the file, and nothing is made.
func TestImportFile(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := context.Background()
		f := newImportFixture(t, st)
		ci := f.ci

		res, err := ci.ImportFile(ctx, f.user, f.space, "", "release-notes.md", []byte("# Release notes\n\nWhat changed.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Imported != 1 || res.Total != 1 {
			t.Errorf("markdown: %d of %d imported, want 1 of 1", res.Imported, res.Total)
		}
		sp, err := st.Space(ctx, f.space)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Revision != res.Revision {
			t.Fatalf("the space is at %s, not the import's merge %s", sp.Revision, res.Revision)
		}
		if got := f.titles(t, res.Revision); len(got) != 1 || got[0] != "Release notes" {
			t.Fatalf("pages after the Markdown import: %v", got)
		}
		crs, err := ci.s.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: f.space}, quire.Page{})
		if err != nil || len(crs.Items) != 1 || crs.Items[0].Subject != "Import from release-notes.md" || crs.Items[0].Status != quire.CRMerged {
			t.Fatalf("the import's change request: %+v %v", crs, err)
		}

		cr, err := ci.s.CreateChangeRequest(ctx, f.user, f.space, "More")
		if err != nil {
			t.Fatal(err)
		}
		res, err = ci.ImportFile(ctx, f.user, f.space, cr.ID, "guide.html", []byte("<title>Guide</title><main><h1>Guide</h1><p>Read me.</p></main>"))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.titles(t, res.Revision); len(got) != 2 || got[1] != "Guide" {
			t.Errorf("pages of the change request after the HTML import: %v", got)
		}
		if sp2, _ := st.Space(ctx, f.space); sp2.Revision != sp.Revision {
			t.Error("an import into a change request moved the space")
		}

		z := zipOf(t, map[string]string{"a.md": "# Alpha\n", "b.md": "# Beta\n"})
		res, err = ci.ImportFile(ctx, f.user, f.space, cr.ID, "pages.zip", z)
		if err != nil {
			t.Fatal(err)
		}
		if res.Imported != 2 || res.Total != 2 {
			t.Errorf("zip: %d of %d imported, want 2 of 2", res.Imported, res.Total)
		}

		before, _ := st.Space(ctx, f.space)
		for _, c := range []struct{ name, data string }{
			{"report.docx", "PK"},
			{"notes.md", "\x00\x01"},
			{"broken.zip", "not a zip"},
		} {
			_, err := ci.ImportFile(ctx, f.user, f.space, "", c.name, []byte(c.data))
			if qe, ok := err.(*quire.Error); !ok || qe.Code != quire.EINVALID || qe.Field != "file" {
				t.Errorf("%s: %v, want an invalid file", c.name, err)
			}
		}
		after, _ := st.Space(ctx, f.space)
		crs, _ = ci.s.ChangeRequests(ctx, quire.ChangeRequestFilter{SpaceID: f.space}, quire.Page{})
		if after.Revision != before.Revision || len(crs.Items) != 2 {
			t.Errorf("refused files changed the space or made change requests: %d change requests", len(crs.Items))
		}
		if _, err := ci.ImportFile(ctx, f.user, f.space, "nosuchchange", "a.md", []byte("# A\n")); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Errorf("import into an unknown change request: %v", err)
		}
	})
}

// zipOf is a zip holding files.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
