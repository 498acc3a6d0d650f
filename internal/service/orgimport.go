package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"

	"quire/internal/quire"
)

// OrgImportOptions say how an organization export is imported.
type OrgImportOptions struct {
	// Title, when not empty, replaces the organization's title.
	Title string
}

// OrgImportResult is what an import made.
type OrgImportResult struct {
	// Organization is the id of the new organization.
	Organization string `json:"organization"`
	// Spaces, Members and Comments count what was imported.
	Spaces   int `json:"spaces"`
	Members  int `json:"members"`
	Comments int `json:"comments"`
	// Matched lists the emails of the people who had an account here
	// already; Created those given a new account, without a password.
	Matched []string `json:"matchedUsers"`
	Created []string `json:"createdUsers"`
	// Warnings tell what the import left out or changed, and why.
	Warnings []string `json:"warnings"`
	// IDs maps each id of the manifest to the id of what the import made
	// of it.
	IDs map[string]string `json:"-"`
}

// importRun is the state of one import.
type importRun struct {
	x    *OrgExports
	fsys fs.FS
	m    *OrgManifest
	res  *OrgImportResult
	// ids maps the manifest's ids to the new ones (res.IDs).
	ids map[string]string
	// spaces are the new spaces, by the manifest's id.
	spaces map[string]*quire.Space
}

// id returns the new id of a manifest id, "" for "" or an id the import
// did not make anything of.
func (r *importRun) id(old string) string { return r.ids[old] }

// warn records a warning.
func (r *importRun) warn(format string, args ...any) {
	r.res.Warnings = append(r.res.Warnings, fmt.Sprintf(format, args...))
}

// ReadManifest reads and decodes the manifest at the top of an export.
// A manifest of another format or version, or with members it does not
// know, is EINVALID.
func ReadManifest(fsys fs.FS) (*OrgManifest, error) {
	b, err := fs.ReadFile(fsys, ManifestFile)
	if err != nil {
		return nil, quire.Invalid(ManifestFile, "cannot be read: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m OrgManifest
	if err := dec.Decode(&m); err != nil {
		return nil, quire.Invalid(ManifestFile, "is not a manifest of an organization export: %v", err)
	}
	if m.Format != ManifestFormat {
		return nil, quire.Invalid("format", "is %q, want %q", m.Format, ManifestFormat)
	}
	if m.Version != ManifestVersion {
		return nil, quire.Invalid("version", "is %d; this server reads version %d", m.Version, ManifestVersion)
	}
	return &m, nil
}

// Import reads an organization export (a directory or an archive opened
// as fsys) into a new organization. People are matched by email with the
// accounts of this server; those without one get an account without a
// password (they set one with a password reset, or sign in through
// single sign-on) and the membership the export gives them. Every space's
// repository goes through the Git Sync importer.
//
// The whole export is checked before anything is written: a manifest
// that does not hold together or a repository that does not read is
// EINVALID naming the field or file, and nothing is made. A failure while
// writing (the database going away) leaves the organization as far as
// the import came; the error names it.
func (x *OrgExports) Import(ctx context.Context, fsys fs.FS, opts OrgImportOptions) (*OrgImportResult, error) {
	m, err := ReadManifest(fsys)
	if err != nil {
		return nil, err
	}
	if opts.Title != "" {
		m.Organization.Title = opts.Title
	}
	r := &importRun{x: x, fsys: fsys, m: m, ids: map[string]string{}, spaces: map[string]*quire.Space{},
		res: &OrgImportResult{Matched: []string{}, Created: []string{}, Warnings: []string{}}}
	r.res.IDs = r.ids
	if err := r.check(ctx); err != nil {
		return nil, err
	}
	if err := r.writeStructure(ctx); err != nil {
		return nil, err
	}
	steps := []func(context.Context) error{r.writeContent, r.writeSites, r.writeComments}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return r.res, fmt.Errorf("import into organization %s stopped: %w", r.res.Organization, err)
		}
	}
	slices.Sort(r.res.Matched)
	slices.Sort(r.res.Created)
	return r.res, nil
}
