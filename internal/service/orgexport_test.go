package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// eachStorePair runs fn on each engine with two fresh stores of it: the
// server exported from and a new server imported into.
func eachStorePair(t *testing.T, fn func(t *testing.T, a, b quire.Store)) {
	for name, cfg := range map[string]func(t *testing.T) store.Config{
		"sqlite": func(t *testing.T) store.Config {
			return store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)}
		},
		"postgres": func(t *testing.T) store.Config { return store.Config{DatabaseURL: storetest.MigratedPostgresDB(t)} },
	} {
		t.Run(name, func(t *testing.T) {
			var sts []quire.Store
			for range 2 {
				st, err := store.Open(t.Context(), cfg(t))
				must(t, err)
				t.Cleanup(func() { _ = st.Close() })
				sts = append(sts, st)
			}
			fn(t, sts[0], sts[1])
		})
	}
}

// asFS is an export in memory as a file system, as an import reads it.
func asFS(files memSink) fstest.MapFS {
	out := fstest.MapFS{}
	for name, data := range files {
		out[name] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return out
}

// TestOrgExportRoundTrip exports a generated organization, imports it
// into a new server, exports that again and expects the same export:
// every repository file byte for byte, the manifest equal once its ids
// are mapped to the imported ones. The imported spaces hold the same
// page trees, documents and files, and the comments are on the same
// pages and blocks, by the same people.
func TestOrgExportRoundTrip(t *testing.T) {
	t.Parallel()
	eachStorePair(t, func(t *testing.T, src, dst quire.Store) {
		ctx := t.Context()
		from := newExportService(t, src)
		f := newOrgFixture(t, from)
		first, m1 := exportOrg(t, from, f.org)
		checkFirstExport(t, f, first, m1)

		to := newExportService(t, dst)
		res, err := NewOrgExports(to).Import(ctx, asFS(first), OrgImportOptions{})
		must(t, err)
		// Empty spaces export a table of contents alone, which the
		// importer tells.
		wantWarnings := []string{"spaces/overview: README.md: the landing page is missing",
			"spaces/notes: README.md: the landing page is missing"}
		if !slices.Equal(res.Warnings, wantWarnings) {
			t.Errorf("warnings %q, want %q", res.Warnings, wantWarnings)
		}
		if len(res.Created) != len(m1.Users) || len(res.Matched) != 0 {
			t.Errorf("created %q and matched %q, want every user created", res.Created, res.Matched)
		}
		if res.Spaces != 5 || res.Members != 6 || res.Comments != 4 {
			t.Errorf("imported %d spaces, %d members, %d comments; want 5, 6, 4", res.Spaces, res.Members, res.Comments)
		}
		for _, email := range res.Created {
			u, err := dst.UserByEmail(ctx, email)
			must(t, err)
			if _, err := dst.PasswordHash(ctx, u.ID); !quire.IsNotFound(err) {
				t.Errorf("%s was given a password: %v", email, err)
			}
		}
		second, m2 := exportOrg(t, to, res.Organization)
		compareExportFiles(t, first, second)
		compareManifests(t, m1, m2, res.IDs)
		for _, ms := range m1.Spaces {
			comparePageTrees(t, ms.Directory, from, ms.ID, to, res.IDs[ms.ID])
		}
		compareComments(t, from, f.spaces["API"], to, res.IDs[f.spaces["API"]], res.IDs)
	})
}

// checkFirstExport checks what the first export must hold whatever the
// import does: one directory per space in the Git Sync layout, files and
// redirects, and a manifest naming everything.
func checkFirstExport(t *testing.T, f *orgFixture, files memSink, m *OrgManifest) {
	t.Helper()
	var dirs []string
	for _, sp := range m.Spaces {
		dirs = append(dirs, sp.Directory)
	}
	want := []string{"spaces/handbook", "spaces/api", "spaces/overview", "spaces/overview-2", "spaces/notes"}
	if !slices.Equal(dirs, want) {
		t.Errorf("directories %q, want %q (the tree's order)", dirs, want)
	}
	for _, name := range []string{
		"spaces/handbook/.gitbook.yaml", "spaces/handbook/docs/toc.md", "spaces/handbook/docs/guides/setup.md",
		"spaces/handbook/docs/.gitbook/assets/diagram (1).png",
		"spaces/api/SUMMARY.md", "spaces/api/README.md", "spaces/api/introduction/setup/install.md",
		"spaces/api/.gitbook/assets/logo.png", "spaces/overview-2/README.md",
	} {
		if _, ok := files[name]; !ok {
			t.Errorf("%s is not exported; the export holds %q", name, names(files))
		}
	}
	if y := string(files["spaces/handbook/.gitbook.yaml"]); !strings.Contains(y, "old/setup: guides/setup.md") {
		t.Errorf("the Handbook's redirects are not exported:\n%s", y)
	}
	if !bytes.Equal(files["spaces/api/.gitbook/assets/logo.png"], fixturePNG(t)) {
		t.Error("the API's image is not exported as uploaded")
	}
	if len(m.Collections) != 4 || m.Collections[2].Title != "Internals" || m.Collections[2].Parent != f.collections["Advanced"] {
		t.Errorf("collections %+v", m.Collections)
	}
	if len(m.Members) != 6 || len(m.Teams) != 2 || len(m.Sites) != 1 || len(m.Sites[0].SiteSpaces) != 2 {
		t.Errorf("%d members, %d teams, %d sites", len(m.Members), len(m.Teams), len(m.Sites))
	}
	writers := []ManifestTeamMember{{User: f.users["cora"].ID, Role: quire.TeamMember}, {User: f.users["eddie"].ID, Role: quire.TeamOwner}}
	if m.Teams[0].Title != "Writers" || !slices.Equal(m.Teams[0].Members, writers) || len(m.Teams[1].Members) != 0 {
		t.Errorf("teams %+v", m.Teams)
	}
	api := m.Spaces[1]
	if len(api.Comments) != 3 || len(api.Comments[0].Replies) != 2 || api.Comments[0].Page != "README.md" ||
		!slices.Equal(api.Comments[0].Block, []int{1}) || api.Comments[1].Page != "introduction/setup/install.md" {
		t.Errorf("API comments: %+v", api.Comments)
	}
	if hb := m.Spaces[0]; len(hb.Comments) != 1 || hb.Comments[0].Page != "docs/guides/setup.md" {
		t.Errorf("Handbook comments: %+v", hb.Comments)
	}
	if len(api.Grants) != 2 {
		t.Errorf("API grants: %+v", api.Grants)
	}
}

// names lists an export's files, sorted.
func names(files memSink) []string {
	out := make([]string, 0, len(files))
	for n := range files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// compareExportFiles expects the same repository files, byte for byte.
func compareExportFiles(t *testing.T, a, b memSink) {
	t.Helper()
	if !slices.Equal(names(a), names(b)) {
		t.Errorf("the exports hold other files:\nfirst  %q\nsecond %q", names(a), names(b))
	}
	for name, data := range a {
		if name == ManifestFile {
			continue
		}
		if other, ok := b[name]; ok && !bytes.Equal(data, other) {
			t.Errorf("%s differs\n--- first:\n%s\n--- second:\n%s", name, data, other)
		}
	}
}

// compareManifests expects the second manifest to be the first with its
// ids mapped to the imported ones. The time of the export and the keys
// of commented blocks (new keys; their place is compared) are left out.
func compareManifests(t *testing.T, m1, m2 *OrgManifest, ids map[string]string) {
	t.Helper()
	b, err := json.Marshal(m1)
	must(t, err)
	mapped := string(b)
	for old, id := range ids {
		mapped = strings.ReplaceAll(mapped, `"`+old+`"`, `"`+id+`"`)
	}
	b2, err := json.Marshal(m2)
	must(t, err)
	want, got := normalizeManifest(t, []byte(mapped)), normalizeManifest(t, b2)
	for _, d := range jsonDiff("", want, got) {
		t.Error("manifest: " + d)
	}
}

// normalizeManifest decodes a manifest as plain JSON values, without
// what compareManifests leaves out.
func normalizeManifest(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	must(t, json.Unmarshal(b, &v))
	delete(v, "exportedAt")
	for _, sp := range v["spaces"].([]any) {
		for _, c := range sp.(map[string]any)["comments"].([]any) {
			delete(c.(map[string]any), "blockKey")
		}
	}
	return v
}

// jsonDiff lists where two JSON values differ.
func jsonDiff(at string, a, b any) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		var out []string
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			out = append(out, jsonDiff(at+"."+k, x[k], y[k])...)
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		var out []string
		for i := range x {
			out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", at, i), x[i], y[i])...)
		}
		return out
	}
	if reflect.DeepEqual(a, b) {
		return nil
	}
	wa, _ := json.Marshal(a)
	wb, _ := json.Marshal(b)
	return []string{fmt.Sprintf("%s: want %s, got %s", at, wa, wb)}
}

// pageLines describes a space's page tree, a line per page: depth, kind,
// title, slug, emoji, description and the hash of each top-level block;
// then a line per file: name, type, size.
func pageLines(t *testing.T, svc *Service, spaceID string) []string {
	t.Helper()
	ctx := t.Context()
	snap := mainSnapshot(t, svc, spaceID)
	nodes, err := snap.Tree(ctx)
	must(t, err)
	files, err := snap.Files(ctx)
	must(t, err)
	pages, err := snap.Pages(ctx)
	must(t, err)
	// Documents name files and pages by id: the ids are replaced with
	// the names before hashing.
	var names []string
	for _, fl := range files {
		names = append(names, fl.ID, "file:"+fl.Name)
	}
	for _, p := range pages {
		names = append(names, p.ID, "page:"+p.Title)
	}
	unID := strings.NewReplacer(names...)
	var out []string
	var walk func(nodes []*content.TreeNode, depth int)
	walk = func(nodes []*content.TreeNode, depth int) {
		for _, n := range nodes {
			p := n.Page
			line := fmt.Sprintf("%d %s %q %s %s %q", depth, p.Type, p.Title, p.Slug, p.Emoji, p.Description)
			if p.Type == quire.PageDocument {
				b, err := snap.Document(ctx, p)
				must(t, err)
				d, err := document.ParseStored([]byte(unID.Replace(string(b))))
				must(t, err)
				for _, blk := range d.Nodes {
					line += " " + document.BlockHash(blk)[:8]
				}
			}
			out = append(out, line)
			walk(n.Children, depth+1)
		}
	}
	walk(nodes, 0)
	for _, fl := range files {
		out = append(out, fmt.Sprintf("file %s %s %d", fl.Name, fl.ContentType, fl.Size))
	}
	sort.Strings(out[len(out)-len(files):])
	return out
}

// comparePageTrees expects an imported space to hold the pages and files
// of the original.
func comparePageTrees(t *testing.T, name string, a *Service, aID string, b *Service, bID string) {
	t.Helper()
	want, got := pageLines(t, a, aID), pageLines(t, b, bID)
	if !slices.Equal(want, got) {
		t.Errorf("%s: the imported pages differ\n--- original:\n%s\n--- imported:\n%s", name,
			strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// compareComments expects the imported space's comments to be the
// original's: same authors (by email), bodies, status, replies and
// reactions, on the same page (by title) and the same block (by its
// content).
func compareComments(t *testing.T, a *Service, aID string, b *Service, bID string, ids map[string]string) {
	t.Helper()
	describe := func(svc *Service, spaceID string) []string {
		ctx := t.Context()
		list, err := svc.store.Comments(ctx, quire.CommentFilter{SpaceID: spaceID, Order: quire.OrderAsc}, quire.Page{Limit: 100})
		must(t, err)
		email := func(id string) string {
			if id == "" {
				return ""
			}
			u, err := svc.store.User(ctx, id)
			must(t, err)
			return u.Email
		}
		var out []string
		for _, c := range list.Items {
			page, block := "", ""
			if c.Target.Page != "" {
				sp, err := svc.store.Space(ctx, spaceID)
				must(t, err)
				rev, err := svc.store.Revision(ctx, spaceID, sp.Revision)
				must(t, err)
				snap := svc.engine.Snapshot(svc.store, rev)
				p, err := snap.Page(ctx, c.Target.Page)
				must(t, err)
				page = p.Title
				if c.Target.Node != "" {
					raw, err := snap.Document(ctx, p)
					must(t, err)
					d, err := document.ParseStored(raw)
					must(t, err)
					n, ok := d.Block(c.Target.Node)
					if !ok {
						t.Errorf("comment %s: block %s is not on page %q", c.ID, c.Target.Node, p.Title)
					}
					block = document.BlockHash(n)
				}
			}
			var reactions []string
			for _, r := range c.Reactions {
				for _, u := range r.Users {
					reactions = append(reactions, r.Emoji+" "+email(u.UserID))
				}
			}
			out = append(out, fmt.Sprintf("%s on %q block %s: %s %s resolved by %q; %d replies; %q; mentions %q",
				email(c.PostedBy), page, block, textOf(t, svc, c.Body), c.Status, email(c.ResolvedBy), c.Replies, reactions,
				emails(t, svc, mentions(c.Body))))
			replies, err := svc.store.CommentReplies(ctx, c.ID, quire.Page{Limit: 100})
			must(t, err)
			for _, r := range replies.Items {
				out = append(out, fmt.Sprintf("  %s: %s; %d reactions; mentions %q", email(r.PostedBy), textOf(t, svc, r.Body),
					len(r.Reactions), emails(t, svc, mentions(r.Body))))
			}
		}
		return out
	}
	want, got := describe(a, aID), describe(b, bID)
	if !slices.Equal(want, got) {
		t.Errorf("the imported comments differ\n--- original:\n%s\n--- imported:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if len(want) == 0 {
		t.Error("the original space has no comments to compare")
	}
}

// emails returns the emails of users.
func emails(t *testing.T, svc *Service, ids []string) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		u, err := svc.store.User(t.Context(), id)
		must(t, err)
		out = append(out, u.Email)
	}
	return out
}

// textOf is the Markdown of a comment body, people mentioned named by
// email.
func textOf(t *testing.T, svc *Service, body json.RawMessage) string {
	t.Helper()
	d, err := document.ParseStored(body)
	must(t, err)
	md, err := document.ToMarkdown(d)
	must(t, err)
	ids := mentions(body)
	for i, email := range emails(t, svc, ids) {
		md = strings.ReplaceAll(md, ids[i], email)
	}
	return strings.TrimSpace(md)
}
