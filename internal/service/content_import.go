package service

import (
	"context"
	"strconv"

	"quire/internal/content"
	"quire/internal/gitbook"
	"quire/internal/gitremote"
	"quire/internal/importer"
	"quire/internal/quire"
)

// ContentImports imports content from a URL (a website, a Markdown or
// HTML file, a zip of them), or from an uploaded file, into spaces and
// change requests.
type ContentImports struct {
	s  *Service
	im *importer.Importer
}

// NewContentImports returns the content import service of s, fetching
// through im.
func NewContentImports(s *Service, im *importer.Importer) *ContentImports {
	return &ContentImports{s: s, im: im}
}

// ImportResult says what an import made.
type ImportResult struct {
	// Revision is the revision holding the imported content: the merge
	// revision of the space, or the change request's new revision.
	Revision string
	// Imported and Total count the resources imported and processed.
	Imported, Total int
}

// Import fetches and converts the content at rawURL and adds it to the
// space (crID "") or to a change request. Content imported into a space
// goes through a change request of its own, merged at once, so that it
// never overwrites edits made meanwhile.
func (ci *ContentImports) Import(ctx context.Context, u *quire.User, spaceID, crID string, source importer.Source, rawURL string) (*ImportResult, error) {
	if err := ci.checkTarget(ctx, spaceID, crID); err != nil {
		return nil, err
	}
	res, err := ci.im.Import(ctx, source, rawURL)
	if err != nil {
		return nil, err
	}
	return ci.add(ctx, u, spaceID, crID, res, "url", gitremote.Redact(rawURL))
}

// ImportFile converts an uploaded file, a Markdown, HTML or zip file as
// its name says (importer.SourceOfFile), and adds it to the space (crID
// "") or to a change request as Import does. Input errors name the field
// "file".
func (ci *ContentImports) ImportFile(ctx context.Context, u *quire.User, spaceID, crID, name string, data []byte) (*ImportResult, error) {
	if _, ok := importer.SourceOfFile(name); !ok {
		return nil, quire.Invalid("file", "%q is not a Markdown, HTML or zip file", name)
	}
	if err := ci.checkTarget(ctx, spaceID, crID); err != nil {
		return nil, err
	}
	res, err := ci.im.ImportFile(ctx, name, data)
	if err != nil {
		return nil, err
	}
	return ci.add(ctx, u, spaceID, crID, res, "file", name)
}

// checkTarget checks that the space is live and, when crID is given,
// that the change request may be written.
func (ci *ContentImports) checkTarget(ctx context.Context, spaceID, crID string) error {
	if crID != "" {
		_, _, err := writableChangeRequest(ctx, ci.s.store, spaceID, crID)
		return err
	}
	_, err := liveSpace(ctx, ci.s.store, spaceID)
	return err
}

// add reads the converted files as a page tree and adds it to the change
// request crID, or to the space through a change request named after
// source and merged at once. field names the input in errors about the
// files read.
func (ci *ContentImports) add(ctx context.Context, u *quire.User, spaceID, crID string, res *importer.Result, field, source string) (*ImportResult, error) {
	tree, err := gitbook.Read(gitbook.Files(res.Files), newMintedPaths())
	if err != nil {
		return nil, asInvalid(field, err)
	}
	out := &ImportResult{Imported: res.Imported, Total: res.Total}
	if crID != "" {
		cr, err := ci.addToChangeRequest(ctx, u, spaceID, crID, res.Files, tree)
		if err != nil {
			return nil, err
		}
		out.Revision = cr.Revision
		return out, nil
	}
	cr, err := ci.s.CreateChangeRequest(ctx, u, spaceID, importSubject(source))
	if err != nil {
		return nil, err
	}
	if _, err := ci.addToChangeRequest(ctx, u, spaceID, cr.ID, res.Files, tree); err != nil {
		return nil, err
	}
	m, err := ci.s.MergeChangeRequest(ctx, u, spaceID, cr.ID)
	if err != nil {
		return nil, err
	}
	if m.Result == ResultConflicts {
		return nil, quire.Errorf(quire.ECONFLICT, "the imported content conflicts with the space's: it is left in change request %d", cr.Number)
	}
	out.Revision = m.Revision
	return out, nil
}

// importSubject is the subject of an import's change request, naming its
// source (a URL or a file name) within a subject's length.
func importSubject(source string) string {
	subject := "Import from " + source
	if r := []rune(subject); len(r) > MaxSubject {
		subject = string(r[:MaxSubject-1]) + "…"
	}
	return subject
}

// addToChangeRequest appends an imported tree to a change request's
// content as one new revision of it.
func (ci *ContentImports) addToChangeRequest(ctx context.Context, u *quire.User, spaceID, crID string, files map[string][]byte, tree *gitbook.Space) (*quire.ChangeRequest, error) {
	s := ci.s
	return retryConflicts(func() (*quire.ChangeRequest, error) {
		cr, sp, err := writableChangeRequest(ctx, s.store, spaceID, crID)
		if err != nil {
			return nil, err
		}
		rev, err := s.store.Revision(ctx, sp.ID, cr.Revision)
		if err != nil {
			return nil, err
		}
		ed := s.engine.Edit(s.store, rev)
		if err := freeTopSlugs(ctx, ed.Snapshot(), tree.Pages); err != nil {
			return nil, err
		}
		known := &knownPaths{byPageID: map[string]*quire.RevisionPage{}, byFileID: map[string]*quire.File{}}
		if err := s.importTree(ctx, ed, ed.Snapshot(), known, memorySource(files), tree, nil); err != nil {
			return nil, err
		}
		if !ed.Changed(rev) {
			return cr, nil
		}
		return s.commitToChangeRequest(ctx, u, sp.ID, cr.ID, ed, rev)
	})
}

// freeTopSlugs gives imported top-level pages slugs no top-level page of
// snap has, adding -2, -3… where needed.
func freeTopSlugs(ctx context.Context, snap *content.Snapshot, pages []*gitbook.Page) error {
	top, err := snap.Children(ctx, "")
	if err != nil {
		return err
	}
	taken := make(map[string]bool, len(top)+len(pages))
	for _, p := range top {
		taken[p.Slug] = true
	}
	for _, p := range pages {
		slug := p.Slug
		if slug == "" {
			slug = content.Slugify(p.Title)
		}
		base := slug
		for n := 2; taken[slug]; n++ {
			slug = base + "-" + strconv.Itoa(n)
		}
		p.Slug = slug
		taken[slug] = true
	}
	return nil
}

// newMintedPaths gives every path of an imported tree a new id.
func newMintedPaths() *knownPaths {
	return &knownPaths{pages: map[string]*quire.RevisionPage{}, files: map[string]*quire.File{}, minted: map[string]string{}}
}
