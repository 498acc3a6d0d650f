package service

import (
	"bytes"
	"context"
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/gitbook"
	"quire/internal/quire"
)

// OrgExports writes whole organizations out, as one GitBook-format
// repository per space (the Git Sync exporter's layout) and a manifest of
// what repositories cannot hold, and reads such an export back into a new
// organization.
type OrgExports struct {
	s *Service
	// slots bounds the exports running at once in this process: each
	// holds the files of the space it is writing in memory.
	slots chan struct{}
}

// DefaultExportSlots is how many exports one process writes at once.
const DefaultExportSlots = 2

// OrgExportsOption configures an OrgExports.
type OrgExportsOption func(*OrgExports)

// WithExportSlots sets how many exports may run at once; below 1 keeps
// DefaultExportSlots.
func WithExportSlots(n int) OrgExportsOption {
	return func(x *OrgExports) {
		if n > 0 {
			x.slots = make(chan struct{}, n)
		}
	}
}

// NewOrgExports returns the organization export service of s.
func NewOrgExports(s *Service, opts ...OrgExportsOption) *OrgExports {
	x := &OrgExports{s: s, slots: make(chan struct{}, DefaultExportSlots)}
	for _, o := range opts {
		o(x)
	}
	return x
}

// ExportSink receives the files of an export.
type ExportSink interface {
	// File writes one file at a slash-separated path relative to the
	// export's top.
	File(name string, data []byte) error
}

// OrgExport is one export under way: Begin has read the organization's
// structure, people and sites; Write writes the spaces and the manifest.
type OrgExport struct {
	x        *OrgExports
	manifest *OrgManifest
	spaces   []*quire.Space
	users    map[string]bool
	done     bool
}

// Begin starts an export of an organization: it takes one of the
// process's export slots (EUNAVAILABLE when all are taken) and reads
// everything but the spaces' content, so that a missing organization or
// a failing database is told before anything is written. Close the
// export when done.
func (x *OrgExports) Begin(ctx context.Context, orgID string) (*OrgExport, error) {
	select {
	case x.slots <- struct{}{}:
	default:
		return nil, quire.Errorf(quire.EUNAVAILABLE, "%d organization exports are running on this server already; try again when one has finished", cap(x.slots))
	}
	e := &OrgExport{x: x, users: map[string]bool{}}
	if err := e.read(ctx, orgID); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Close gives the export's slot back.
func (e *OrgExport) Close() {
	if !e.done {
		e.done = true
		<-e.x.slots
	}
}

// Manifest returns the manifest as read so far: complete once Write has
// returned without error.
func (e *OrgExport) Manifest() *OrgManifest { return e.manifest }

// Write writes each space's repository under its directory, in the
// order of the manifest, then the manifest itself, last because it
// names where each comment's page was written.
func (e *OrgExport) Write(ctx context.Context, sink ExportSink) error {
	for i, sp := range e.spaces {
		if err := ctx.Err(); err != nil {
			return err
		}
		comments, err := e.writeSpace(ctx, sink, sp, e.manifest.Spaces[i].Directory)
		if err != nil {
			return err
		}
		e.manifest.Spaces[i].Comments = comments
	}
	if err := e.addUsers(ctx); err != nil {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e.manifest); err != nil {
		return err
	}
	return sink.File(ManifestFile, b.Bytes())
}

// writeSpace writes the repository of one space through the Git Sync
// exporter (exportTree, gitbook.Write) and returns its comments.
func (e *OrgExport) writeSpace(ctx context.Context, sink ExportSink, sp *quire.Space, dir string) ([]ManifestComment, error) {
	s := e.x.s
	rev, err := s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return nil, err
	}
	tree, err := s.exportTree(ctx, s.engine.Snapshot(s.store, rev))
	if err != nil {
		return nil, err
	}
	placed, err := gitbook.Paths(tree)
	if err != nil {
		return nil, err
	}
	files, err := gitbook.Write(tree)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := sink.File(dir+"/"+name, files[name]); err != nil {
			return nil, err
		}
	}
	root := strings.Trim(strings.TrimPrefix(tree.Config.Root, "./"), "/")
	for id, p := range placed {
		placed[id] = path.Join(root, p)
	}
	return e.comments(ctx, sp, tree, placed)
}

// spaceDirectories gives each space, in order, a directory named after
// its title, numbered when the name is taken.
func spaceDirectories(spaces []*quire.Space) []string {
	taken := map[string]bool{}
	out := make([]string, len(spaces))
	for i, sp := range spaces {
		// Slugs keep dots: a title of dots must not name "..".
		base := strings.Trim(content.Slugify(sp.Title), ".")
		if base == "" {
			base = "space"
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		taken[name] = true
		out[i] = SpacesDir + "/" + name
	}
	return out
}

// OrganizationIDs lists the id of every organization of the server,
// oldest first: what an export of the whole server covers.
func (x *OrgExports) OrganizationIDs(ctx context.Context) ([]string, error) {
	orgs, err := everyPage(func(p quire.Page) (*quire.List[*quire.Organization], error) {
		return x.s.store.Organizations(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(orgs))
	for i, o := range orgs {
		ids[i] = o.ID
	}
	return ids, nil
}

// ExportDir exports an organization into dir, which must be missing or
// empty, and returns the manifest written.
func (x *OrgExports) ExportDir(ctx context.Context, orgID, dir string) (*OrgManifest, error) {
	e, err := x.Begin(ctx, orgID)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	sink, err := NewDirSink(dir)
	if err != nil {
		return nil, err
	}
	if err := e.Write(ctx, sink); err != nil {
		sink.Close()
		return nil, err
	}
	return e.Manifest(), sink.Close()
}
