package service

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
)

// TestOrgImportOnTheSameServer imports an export, written as a zip
// archive, beside the organization it came from: people keep their
// accounts, the new organization has its own title, the site's basename
// (taken by the original site) is left out with a warning, and the
// original organization is left as it was.
func TestOrgImportOnTheSameServer(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		svc := newExportService(t, st)
		f := newOrgFixture(t, svc)
		x := NewOrgExports(svc)
		e, err := x.Begin(ctx, f.org)
		must(t, err)
		var archive bytes.Buffer
		zw := NewZipSink(&archive, e.Manifest().ExportedAt)
		must(t, e.Write(ctx, zw))
		must(t, zw.Close())
		e.Close()
		zr, err := zip.NewReader(bytes.NewReader(archive.Bytes()), int64(archive.Len()))
		must(t, err)

		res, err := x.Import(ctx, zr, OrgImportOptions{Title: "Acme Copy"})
		must(t, err)
		if len(res.Created) != 0 || len(res.Matched) != 6 {
			t.Errorf("created %q, matched %q: want the six people matched", res.Created, res.Matched)
		}
		for first, u := range f.users {
			m, err := st.Member(ctx, res.Organization, u.ID)
			if err != nil {
				t.Errorf("%s is not a member of the copy with their account: %v", first, err)
				continue
			}
			old, err := st.Member(ctx, f.org, u.ID)
			must(t, err)
			if m.Role != old.Role || m.Disabled != old.Disabled || !m.JoinedAt.Equal(old.JoinedAt) {
				t.Errorf("%s: %+v in the copy, %+v in the original", first, m, old)
			}
		}
		o, err := st.Organization(ctx, res.Organization)
		must(t, err)
		if o.Title != "Acme Copy" || o.DefaultSite != res.IDs[f.site] {
			t.Errorf("the copy: title %q, default site %q", o.Title, o.DefaultSite)
		}
		site, err := st.Site(ctx, res.IDs[f.site])
		must(t, err)
		if site.Basename != "" || !site.Published || site.OrgID != res.Organization {
			t.Errorf("the copied site: %+v", site)
		}
		if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "basename acme is left out") }) {
			t.Errorf("no warning about the basename: %q", res.Warnings)
		}
		orig, err := st.Site(ctx, f.site)
		must(t, err)
		if orig.Basename != "acme" || orig.OrgID != f.org {
			t.Errorf("the original site changed: %+v", orig)
		}
		events, err := st.AuditEvents(ctx, res.Organization, quire.AuditFilter{Action: quire.AuditMemberAdded}, quire.Page{Limit: 10})
		must(t, err)
		if len(events.Items) != 6 || events.Items[0].Details["via"] != "import" {
			t.Errorf("audit log of the copy: %+v", events.Items)
		}
		// Both organizations answer the same export but for ids, titles
		// and the basename.
		_, m1 := exportOrg(t, svc, f.org)
		_, m2 := exportOrg(t, svc, res.Organization)
		if len(m1.Spaces) != len(m2.Spaces) || m2.Spaces[1].Comments[0].Replies[1].Author != m1.Spaces[1].Comments[0].Replies[1].Author {
			t.Errorf("the copy's manifest: %+v", m2.Spaces)
		}
	})
}

// TestOrgImportRefusesBrokenExports gives the import exports that do not
// hold together and expects each refused as invalid, naming the field or
// file, with nothing made.
func TestOrgImportRefusesBrokenExports(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		svc := newExportService(t, st)
		f := newOrgFixture(t, svc)
		good, _ := exportOrg(t, svc, f.org)
		x := NewOrgExports(svc)
		if _, err := x.Import(ctx, asFS(good), OrgImportOptions{}); err != nil {
			t.Fatalf("the export as written: %v", err)
		}
		orgs := func() int {
			l, err := st.Organizations(ctx, quire.Page{Limit: 100})
			must(t, err)
			return len(l.Items)
		}
		before := orgs()
		edit := func(change func(m map[string]any)) func(memSink) {
			return func(files memSink) {
				var m map[string]any
				must(t, json.Unmarshal(files[ManifestFile], &m))
				change(m)
				b, err := json.Marshal(m)
				must(t, err)
				files[ManifestFile] = b
			}
		}
		at := func(m map[string]any, keys ...any) map[string]any {
			var v any = m
			for _, k := range keys {
				switch k := k.(type) {
				case string:
					v = v.(map[string]any)[k]
				case int:
					v = v.([]any)[k]
				}
			}
			return v.(map[string]any)
		}
		for _, c := range []struct {
			name, field string
			change      func(memSink)
		}{
			{"no manifest", "manifest.json", func(files memSink) { delete(files, ManifestFile) }},
			{"not JSON", "manifest.json", func(files memSink) { files[ManifestFile] = []byte("{") }},
			{"unknown member", "manifest.json", edit(func(m map[string]any) { m["owner"] = "x" })},
			{"another format", "format", edit(func(m map[string]any) { m["format"] = "gitbook" })},
			{"a later version", "version", edit(func(m map[string]any) { m["version"] = 2 })},
			{"no title", "organization.title", edit(func(m map[string]any) { at(m, "organization")["title"] = "" })},
			{"repeated email", "users[1].email", edit(func(m map[string]any) {
				at(m, "users", 1)["email"] = at(m, "users", 0)["email"]
			})},
			{"a role that is none", "members[0].role", edit(func(m map[string]any) { at(m, "members", 0)["role"] = "owner" })},
			{"a team member who is not a member", "teams[0].members[0].user", edit(func(m map[string]any) {
				at(m, "teams", 0, "members", 0)["user"] = "nobody"
			})},
			{"a collection before its parent", "collections[1].parent", edit(func(m map[string]any) {
				at(m, "collections", 1)["parent"] = at(m, "collections", 2)["id"]
			})},
			{"a space in no collection", "spaces[1].collection", edit(func(m map[string]any) { at(m, "spaces", 1)["collection"] = "gone" })},
			{"a visibility that is none", "spaces[1].visibility", edit(func(m map[string]any) { at(m, "spaces", 1)["visibility"] = "secret" })},
			{"a directory outside", "spaces[0].directory", edit(func(m map[string]any) { at(m, "spaces", 0)["directory"] = "../etc" })},
			{"a directory twice", "spaces[1].directory", edit(func(m map[string]any) {
				at(m, "spaces", 1)["directory"] = at(m, "spaces", 0)["directory"]
			})},
			{"a missing directory", "spaces[1].directory", func(files memSink) {
				for name := range files {
					if strings.HasPrefix(name, "spaces/api/") {
						delete(files, name)
					}
				}
			}},
			{"a repository that does not read", "spaces/api", func(files memSink) {
				files["spaces/api/.gitbook.yaml"] = []byte("root: [\n")
			}},
			{"a grant to nobody", "spaces[1].grants[0]", edit(func(m map[string]any) { at(m, "spaces", 1, "grants", 0)["team"] = "gone" })},
			{"a comment by nobody", "spaces[1].comments[0].author", edit(func(m map[string]any) {
				at(m, "spaces", 1, "comments", 0)["author"] = "gone"
			})},
			{"a reply by nobody", "spaces[1].comments[0].replies[1].author", edit(func(m map[string]any) {
				at(m, "spaces", 1, "comments", 0, "replies", 1)["author"] = "gone"
			})},
			{"a site space of no space", "sites[0].siteSpaces[0].space", edit(func(m map[string]any) {
				at(m, "sites", 0, "siteSpaces", 0)["space"] = "gone"
			})},
			{"a default site that is none", "organization.defaultSite", edit(func(m map[string]any) {
				at(m, "organization")["defaultSite"] = "gone"
			})},
		} {
			files := memSink{}
			for name, data := range good {
				files[name] = data
			}
			c.change(files)
			_, err := x.Import(ctx, asFS(files), OrgImportOptions{})
			var qe *quire.Error
			if !errors.As(err, &qe) || qe.Code != quire.EINVALID || !strings.HasPrefix(qe.Error(), c.field) {
				t.Errorf("%s: %v, want invalid %s", c.name, err, c.field)
			}
		}
		if n := orgs(); n != before {
			t.Errorf("%d organizations after the refused imports, %d before", n, before)
		}
	})
}

// TestExportSlots refuses an export while every slot is taken, and takes
// one again once an export is closed.
func TestExportSlots(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		svc := newExportService(t, st)
		boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
		must(t, err)
		x := NewOrgExports(svc, WithExportSlots(1))
		e, err := x.Begin(ctx, boot.Organization)
		must(t, err)
		if _, err := x.Begin(ctx, boot.Organization); quire.ErrorCode(err) != quire.EUNAVAILABLE {
			t.Errorf("a second export at once: %v, want unavailable", err)
		}
		e.Close()
		e.Close()
		if _, err := x.Begin(ctx, "nope"); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Errorf("an unknown organization: %v, want not found", err)
		}
		e, err = x.Begin(ctx, boot.Organization)
		must(t, err)
		out := memSink{}
		must(t, e.Write(ctx, out))
		e.Close()
		if len(out) != 1 || len(e.Manifest().Spaces) != 0 {
			t.Errorf("an organization without spaces exports %q", names(out))
		}
	})
}

// TestExportSinksRefuseNamesOutside refuses file names that would leave
// the export, in every kind of sink.
func TestExportSinksRefuseNamesOutside(t *testing.T) {
	t.Parallel()
	dir, err := NewDirSink(t.TempDir())
	must(t, err)
	defer dir.Close()
	var b bytes.Buffer
	for name, sink := range map[string]ExportSink{"dir": dir, "zip": NewZipSink(&b, time.Time{}),
		"tar.gz": NewTarGzSink(&b, time.Time{})} {
		for _, bad := range []string{"../x", "/etc/x", "a/../../x", "", "."} {
			if err := sink.File(bad, []byte("x")); err == nil {
				t.Errorf("%s sink wrote %q", name, bad)
			}
		}
		if err := sink.File("spaces/a/b.md", []byte("x")); err != nil {
			t.Errorf("%s sink: %v", name, err)
		}
	}
}
