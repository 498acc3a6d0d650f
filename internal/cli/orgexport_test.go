package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/blob"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// seedOrganization makes, in the data directory, an organization with
// an admin, a second member and a space of two pages, and returns the
// organization's id.
func seedOrganization(t *testing.T, dir string) string {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	blobs, err := blob.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	svc := service.New(st, service.WithBlobs(blobs))
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Acme", Email: "owner@example.com", Name: "Owner"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateUser(ctx, service.CreateUserInput{Email: "ed@example.com", Name: "Ed", OrgID: boot.Organization, Role: quire.RoleEdit}); err != nil {
		t.Fatal(err)
	}
	u, err := st.User(ctx, boot.User)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := svc.CreateChangeRequest(ctx, u, sp.Space.ID, "Pages")
	if err != nil {
		t.Fatal(err)
	}
	title, child, body := "Welcome", "Details", "Hello."
	_, _, err = svc.UpdateChangeRequestContent(ctx, u, sp.Space.ID, cr.ID, []service.ContentChange{
		{Operation: service.OpInsertPage, Ref: "w", Fields: service.PageFields{Title: &title}, Document: &service.DocumentInput{Markdown: &body}},
		{Operation: service.OpInsertPage, Into: ptr("w"), Fields: service.PageFields{Title: &child}, Document: &service.DocumentInput{Markdown: &body}},
		{Operation: service.OpInsertFiles, Files: []service.FileInput{{Name: "notes.txt", Data: []byte("plain text")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MergeChangeRequest(ctx, u, sp.Space.ID, cr.ID); err != nil {
		t.Fatal(err)
	}
	return boot.Organization
}

func ptr[T any](v T) *T { return &v }

// readTree reads every file under dir, by slash-separated path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExportImportCommands exports an organization to a directory,
// imports it into another server's data directory, exports that and
// finds the same repositories; --all exports each organization into a
// directory of its own, and importing that makes one organization each.
func TestExportImportCommands(t *testing.T) {
	t.Parallel()
	from, to, work := t.TempDir(), t.TempDir(), t.TempDir()
	org := seedOrganization(t, from)
	getenv := env(nil)

	out1 := filepath.Join(work, "first")
	code, out, stderr := runCmd(t, getenv, "export", out1, "--org", org, "--data", from)
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	var exported struct {
		Organizations []exportedOrg `json:"organizations"`
	}
	if err := json.Unmarshal([]byte(out), &exported); err != nil || len(exported.Organizations) != 1 ||
		exported.Organizations[0].Spaces != 1 || exported.Organizations[0].Members != 2 {
		t.Fatalf("export printed %s", out)
	}
	first := readTree(t, out1)
	for _, name := range []string{"manifest.json", "spaces/handbook/SUMMARY.md", "spaces/handbook/README.md",
		"spaces/handbook/welcome/details.md", "spaces/handbook/.gitbook/assets/notes.txt"} {
		if _, ok := first[name]; !ok {
			t.Errorf("the export holds no %s: %v", name, keys(first))
		}
	}

	code, out, stderr = runCmd(t, getenv, "import", "--data", to, out1)
	if code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	var imported struct {
		Organizations []service.OrgImportResult `json:"organizations"`
	}
	if err := json.Unmarshal([]byte(out), &imported); err != nil || len(imported.Organizations) != 1 {
		t.Fatalf("import printed %s", out)
	}
	res := imported.Organizations[0]
	if res.Spaces != 1 || res.Members != 2 || strings.Join(res.Created, ",") != "ed@example.com,owner@example.com" {
		t.Errorf("import made %+v", res)
	}

	out2 := filepath.Join(work, "second")
	if code, _, stderr := runCmd(t, getenv, "export", "--data", to, "--org", res.Organization, out2); code != 0 {
		t.Fatalf("export of the import: %d %s", code, stderr)
	}
	second := readTree(t, out2)
	for name, data := range first {
		if name != "manifest.json" && second[name] != data {
			t.Errorf("%s differs after the round trip:\n%s\n---\n%s", name, data, second[name])
		}
	}
	if len(first) != len(second) {
		t.Errorf("the exports hold %v and %v", keys(first), keys(second))
	}

	every := filepath.Join(work, "every")
	code, out, stderr = runCmd(t, getenv, "export", every, "--all", "--data", to)
	if code != 0 || !strings.Contains(out, res.Organization) {
		t.Fatalf("export --all: %d %s %s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(every, res.Organization, "manifest.json")); err != nil {
		t.Errorf("export --all: %v", err)
	}
	code, out, stderr = runCmd(t, getenv, "import", every, "--data", from)
	if code != 0 {
		t.Fatalf("import of --all: %d %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &imported); err != nil || len(imported.Organizations) != 1 ||
		len(imported.Organizations[0].Matched) != 2 {
		t.Errorf("import of --all printed %s", out)
	}
}

// TestExportImportUsage refuses calls that name no directory or no
// organization, or both an organization and --all, with a usage error;
// an organization that is none, a directory that is not empty and an
// export that is none fail naming them.
func TestExportImportUsage(t *testing.T) {
	t.Parallel()
	data, work := t.TempDir(), t.TempDir()
	org := seedOrganization(t, data)
	full := filepath.Join(work, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"export", "--org", org}, 2, "no directory given"},
		{[]string{"export", filepath.Join(work, "a")}, 2, "give --org ID or --all"},
		{[]string{"export", filepath.Join(work, "b"), "--org", org, "--all"}, 2, "give --org ID or --all"},
		{[]string{"export", filepath.Join(work, "c"), "d"}, 2, "unexpected argument"},
		{[]string{"export", filepath.Join(work, "e"), "--org", "nope"}, 1, "organization not found"},
		{[]string{"export", full, "--org", org}, 1, "is not empty"},
		{[]string{"import"}, 2, "no directory given"},
		{[]string{"import", filepath.Join(work, "nowhere")}, 2, "no such file"},
		{[]string{"import", full}, 1, "manifest.json: not found"},
		{[]string{"import", filepath.Join(full, "x")}, 2, "neither a directory nor a .zip"},
	} {
		code, _, stderr := runCmd(t, env(nil), append(c.args, "--data", data)...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%q: %d %s, want %d saying %q", c.args, code, stderr, c.code, c.says)
		}
	}
	if code, out, _ := runCmd(t, env(nil), "export", "-h"); code != 0 || !strings.Contains(out, "--all") {
		t.Errorf("export -h: %d %s", code, out)
	}
}

// keys lists a map's keys.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
