package httpapi

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

// TestOrgExportRoute downloads an organization's export as its admin, as
// zip and as tar.gz, checks what it holds and that the zip imports into
// a new organization; others are refused as the route table says, and
// malformed requests get a 4xx naming what is wrong.
func TestOrgExportRoute(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		space := ts.newSpace(t, "User guide")
		ts.newContentFixture(t, space)
		admin := ts.token(cAdmin)

		res := ts.send(t, "GET", ts.OrgPath("/export"), admin, nil)
		if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "application/zip" ||
			!strings.Contains(res.Header.Get("Content-Disposition"), `attachment; filename=organization-`+ts.Org+`.zip`) {
			t.Fatalf("export: %d %v", res.Status, res.Header)
		}
		zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
		if err != nil {
			t.Fatalf("the answer is no zip archive: %v", err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		for _, want := range []string{service.ManifestFile, "spaces/user-guide/SUMMARY.md", "spaces/user-guide/README.md",
			"spaces/user-guide/guide/setup.md", "spaces/user-guide/.gitbook/assets/logo.png"} {
			if !slices.Contains(names, want) {
				t.Errorf("the archive holds no %s: %q", want, names)
			}
		}
		m, err := service.ReadManifest(zr)
		if err != nil {
			t.Fatal(err)
		}
		if m.Organization.ID != ts.Org || len(m.Spaces) != 1 || m.Spaces[0].Title != "User guide" || len(m.Members) != 7 {
			t.Errorf("manifest: organization %s, %d spaces, %d members", m.Organization.ID, len(m.Spaces), len(m.Members))
		}
		imported, err := service.NewOrgExports(ts.Svc).Import(t.Context(), zr, service.OrgImportOptions{Title: "Acme copy"})
		if err != nil {
			t.Fatalf("importing the archive: %v", err)
		}
		copied := ts.send(t, "GET", "/v1/spaces/"+imported.IDs[space]+"/content/path/guide/setup", admin, nil)
		if copied.Status != http.StatusOK || !strings.Contains(string(copied.Body), "How to set up.") {
			t.Errorf("the imported page: %d %s", copied.Status, copied.Body)
		}

		res = ts.send(t, "GET", ts.OrgPath("/export?format=tar.gz"), admin, nil)
		if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "application/gzip" {
			t.Fatalf("tar.gz export: %d %v", res.Status, res.Header)
		}
		tarNames, manifest := readTarGz(t, res.Body)
		if !slices.Equal(tarNames, names) {
			t.Errorf("tar.gz holds %q, the zip %q", tarNames, names)
		}
		var tm service.OrgManifest
		if err := json.Unmarshal(manifest, &tm); err != nil || tm.Organization.ID != ts.Org {
			t.Errorf("tar.gz manifest: %v %s", err, manifest)
		}

		for _, c := range []struct {
			caller, path string
			status       int
			says         string
		}{
			{cCreate, ts.OrgPath("/export"), http.StatusForbidden, "needs the admin role"},
			{cRead, ts.OrgPath("/export"), http.StatusForbidden, "needs the admin role"},
			{cGuest, ts.OrgPath("/export"), http.StatusForbidden, "needs the admin role"},
			{cNonMember, ts.OrgPath("/export"), http.StatusNotFound, "organization not found"},
			{cAdmin, "/v1/orgs/nope/export", http.StatusNotFound, "organization not found"},
			{cAdmin, ts.OrgPath("/export?format=rar"), http.StatusBadRequest, "format"},
		} {
			res := ts.send(t, "GET", c.path, ts.token(c.caller), nil)
			if res.Status != c.status || !strings.Contains(checkErrorBody(t, res), c.says) {
				t.Errorf("%s GET %s: %d %s, want %d saying %q", c.caller, c.path, res.Status, res.Body, c.status, c.says)
			}
		}
		if res := ts.send(t, "GET", ts.OrgPath("/export"), "", nil); res.Status != http.StatusUnauthorized {
			t.Errorf("without a token: %d", res.Status)
		}
	})
}

// TestOrgExportBusy answers 503 while every export slot of the server is
// taken, and exports again once one is free.
func TestOrgExportBusy(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		x := service.NewOrgExports(ts.Svc, service.WithExportSlots(1))
		hs := httptest.NewServer(New(ts.Svc, Config{BaseURL: testBaseURL, OrgExports: x}))
		t.Cleanup(hs.Close)
		one := *ts
		one.URL = hs.URL
		e, err := x.Begin(t.Context(), ts.Org)
		if err != nil {
			t.Fatal(err)
		}
		res := one.send(t, "GET", ts.OrgPath("/export"), ts.token(cAdmin), nil)
		if res.Status != http.StatusServiceUnavailable || !strings.Contains(checkErrorBody(t, res), "exports are running") {
			t.Errorf("while busy: %d %s", res.Status, res.Body)
		}
		e.Close()
		if res := one.send(t, "GET", ts.OrgPath("/export"), ts.token(cAdmin), nil); res.Status != http.StatusOK {
			t.Errorf("once free: %d %s", res.Status, res.Body)
		}
	})
}

// readTarGz lists the files of a .tar.gz archive and returns the
// manifest's bytes.
func readTarGz(t *testing.T, b []byte) ([]string, []byte) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	tr := tar.NewReader(gz)
	var names []string
	var manifest []byte
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names, manifest
		}
		if err != nil {
			t.Fatalf("tar: %v", err)
		}
		names = append(names, h.Name)
		if h.Name == service.ManifestFile {
			if manifest, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// deadlineRecorder is a ResponseWriter that records the write deadlines
// set on it.
type deadlineRecorder struct {
	httptest.ResponseRecorder
	deadlines []time.Time
}

// SetWriteDeadline records d; http.ResponseController calls it.
func (r *deadlineRecorder) SetWriteDeadline(d time.Time) error {
	r.deadlines = append(r.deadlines, d)
	return nil
}

// TestExportMovesTheWriteDeadline moves the deadline a minute past each
// write, at most once a second, so that an export outlasts the server's
// write timeout while a client that stops reading does not.
func TestExportMovesTheWriteDeadline(t *testing.T) {
	t.Parallel()
	rec := &deadlineRecorder{ResponseRecorder: *httptest.NewRecorder()}
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	w := newDeadlineWriter(rec, func() time.Time { return now })
	for _, step := range []time.Duration{0, 500 * time.Millisecond, 600 * time.Millisecond, 10 * time.Second} {
		now = now.Add(step)
		if _, err := w.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	want := []time.Time{start.Add(exportStall), start.Add(1100 * time.Millisecond).Add(exportStall),
		start.Add(11100 * time.Millisecond).Add(exportStall)}
	if !slices.Equal(rec.deadlines, want) || rec.Body.String() != "xxxx" {
		t.Errorf("deadlines %v, want %v; body %q", rec.deadlines, want, rec.Body.String())
	}
}
