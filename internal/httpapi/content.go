package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// CRPath names a change request of a space, by id or number.
type CRPath struct {
	SpacePath
	ChangeRequestID string `path:"changeRequestId" doc:"Id or number of the change request"`
}

// RevisionPath names a revision of a space.
type RevisionPath struct {
	SpacePath
	RevisionID string `path:"revisionId"`
}

// PageIDParam names a page.
type PageIDParam struct {
	PageID string `path:"pageId"`
}

// PagePathParam names a page by path.
type PagePathParam struct {
	PagePath string `path:"pagePath" doc:"Path of the page, slugs separated by slashes"`
}

// FileIDParam names a file.
type FileIDParam struct {
	FileID string `path:"fileId"`
}

// ref builds the content reference of each kind of path.
func (p SpacePath) ref() service.ContentRef { return service.ContentRef{SpaceID: p.SpaceID} }
func (p CRPath) ref() service.ContentRef {
	return service.ContentRef{SpaceID: p.SpaceID, ChangeRequest: p.ChangeRequestID}
}
func (p RevisionPath) ref() service.ContentRef {
	return service.ContentRef{SpaceID: p.SpaceID, Revision: p.RevisionID}
}

// revisionOut converts a whole revision.
func (s *Server) revisionOut(ctx context.Context, c *service.Content, opts ReadOptions) (revisionJSON, error) {
	tree, err := c.Tree(ctx)
	if err != nil {
		return revisionJSON{}, err
	}
	files, err := c.Files(ctx)
	if err != nil {
		return revisionJSON{}, err
	}
	r := c.Rev
	out := revisionJSON{Object: "revision", ID: r.ID, Parents: r.Parents, Pages: s.treeOut(c.Space.ID, tree, opts),
		Files: make([]fileJSON, 0, len(files)), ReusableContents: []any{}, Variables: map[string]string{},
		CreatedAt: timestamp(r.CreatedAt), Type: orDefault(r.Type, quire.RevisionEdits),
		URLs: pageURLs{App: s.urls.app("s", c.Space.ID, "~", "revisions", r.ID)}}
	if out.Parents == nil {
		out.Parents = []string{}
	}
	if opts.Metadata {
		out.Git = gitCommitOut(r.Git)
	}
	sg, err := s.svc.DownloadSigner(ctx)
	if err != nil {
		return revisionJSON{}, err
	}
	for _, f := range files {
		out.Files = append(out.Files, s.fileOut(sg, c.Space.ID, r.ID, f, opts))
	}
	if r.Type == quire.RevisionMerge && r.MergedFrom != "" {
		cr, err := s.svc.ChangeRequest(ctx, c.Space.ID, r.MergedFrom)
		if err != nil {
			return revisionJSON{}, err
		}
		m, err := s.changeRequestOut(ctx, cr, c.Space)
		if err != nil {
			return revisionJSON{}, err
		}
		out.MergedFrom = &m
	}
	return out, nil
}

// options returns the read options (promoted into every read input).
func (o ReadOptions) options() ReadOptions { return o }

// options returns the read options of a page read.
func (o PageReadOptions) pageOptions() PageReadOptions { return o }

// contentIn is the input of a read of a whole revision.
type contentIn interface {
	ref() service.ContentRef
	options() ReadOptions
}

// The inputs of the revision reads, for the space, a change request and a
// given revision.
type (
	spaceContentIn struct {
		SpacePath
		ReadOptions
	}
	crContentIn struct {
		CRPath
		ReadOptions
	}
	revisionContentIn struct {
		RevisionPath
		ReadOptions
	}
)

// readRevision answers the whole-revision reads.
func readRevision[I contentIn](s *Server) func(context.Context, *I) (*body[revisionJSON], error) {
	return func(ctx context.Context, in *I) (*body[revisionJSON], error) {
		c, err := s.svc.Content(ctx, (*in).ref())
		if err != nil {
			return nil, err
		}
		out, err := s.revisionOut(ctx, c, (*in).options())
		if err != nil {
			return nil, err
		}
		return reply(out), nil
	}
}

// pagesBody is the body of the page list reads.
type pagesBody struct {
	Pages []pageJSON `json:"pages"`
}

// readPages answers the page list reads: the whole tree.
func readPages[I contentIn](s *Server) func(context.Context, *I) (*body[pagesBody], error) {
	return func(ctx context.Context, in *I) (*body[pagesBody], error) {
		c, err := s.svc.Content(ctx, (*in).ref())
		if err != nil {
			return nil, err
		}
		tree, err := c.Tree(ctx)
		if err != nil {
			return nil, err
		}
		return reply(pagesBody{Pages: s.treeOut(c.Space.ID, tree, (*in).options())}), nil
	}
}

// The inputs of the file list reads.
type (
	spaceFilesIn struct {
		SpacePath
		ListParams
		ReadOptions
	}
	crFilesIn struct {
		CRPath
		ListParams
		ReadOptions
	}
	revisionFilesIn struct {
		RevisionPath
		ListParams
		ReadOptions
	}
)

// filesIn is the input of a file list read.
type filesIn interface {
	contentIn
	page() quire.Page
}

// readFiles answers the file list reads, paged by position in the
// name-ordered list.
func readFiles[I filesIn](s *Server) func(context.Context, *I) (*body[listOf[fileJSON]], error) {
	return func(ctx context.Context, in *I) (*body[listOf[fileJSON]], error) {
		c, err := s.svc.Content(ctx, (*in).ref())
		if err != nil {
			return nil, err
		}
		files, err := c.Files(ctx)
		if err != nil {
			return nil, err
		}
		l, err := service.PageSlice(files, (*in).page(), func(f *quire.File) string { return f.Name + "\x00" + f.ID })
		if err != nil {
			return nil, err
		}
		sg, err := s.svc.DownloadSigner(ctx)
		if err != nil {
			return nil, err
		}
		opts := (*in).options()
		return reply(listJSON(l, func(f *quire.File) fileJSON { return s.fileOut(sg, c.Space.ID, c.Rev.ID, f, opts) })), nil
	}
}

// The inputs of the single-file reads.
type (
	spaceFileIn struct {
		SpacePath
		FileIDParam
		ReadOptions
	}
	crFileIn struct {
		CRPath
		FileIDParam
		ReadOptions
	}
	revisionFileIn struct {
		RevisionPath
		FileIDParam
		ReadOptions
	}
)

// fileIn is the input of a single-file read.
type fileIn interface {
	contentIn
	fileID() string
}

// fileID returns the file named by the path.
func (p FileIDParam) fileID() string { return p.FileID }

// readFile answers the single-file reads.
func readFile[I fileIn](s *Server) func(context.Context, *I) (*body[fileJSON], error) {
	return func(ctx context.Context, in *I) (*body[fileJSON], error) {
		c, err := s.svc.Content(ctx, (*in).ref())
		if err != nil {
			return nil, err
		}
		f, err := c.File(ctx, (*in).fileID())
		if err != nil {
			return nil, err
		}
		sg, err := s.svc.DownloadSigner(ctx)
		if err != nil {
			return nil, err
		}
		return reply(s.fileOut(sg, c.Space.ID, c.Rev.ID, f, (*in).options())), nil
	}
}

// The inputs of the page reads by id.
type (
	spacePageIn struct {
		SpacePath
		PageIDParam
		PageReadOptions
	}
	crPageIn struct {
		CRPath
		PageIDParam
		PageReadOptions
	}
	revisionPageIn struct {
		RevisionPath
		PageIDParam
		PageReadOptions
	}
)

// The inputs of the page reads by path.
type (
	spacePathIn struct {
		SpacePath
		PagePathParam
		PageReadOptions
	}
	crPathIn struct {
		CRPath
		PagePathParam
		PageReadOptions
	}
	revisionPathIn struct {
		RevisionPath
		PagePathParam
		PageReadOptions
	}
)

// pageIn is the input of a page read.
type pageIn interface {
	ref() service.ContentRef
	pageOptions() PageReadOptions
	find(ctx context.Context, c *service.Content) (*quire.RevisionPage, error)
}

// find looks a page up by id.
func (p PageIDParam) find(ctx context.Context, c *service.Content) (*quire.RevisionPage, error) {
	return c.Page(ctx, p.PageID)
}

// find looks a page up by path.
func (p PagePathParam) find(ctx context.Context, c *service.Content) (*quire.RevisionPage, error) {
	return c.PageByPath(ctx, p.PagePath)
}

// readPage answers the page reads.
func readPage[I pageIn](s *Server) func(context.Context, *I) (*body[pageJSON], error) {
	return func(ctx context.Context, in *I) (*body[pageJSON], error) {
		c, err := s.svc.Content(ctx, (*in).ref())
		if err != nil {
			return nil, err
		}
		p, err := (*in).find(ctx, c)
		if err != nil {
			return nil, err
		}
		out, err := s.pageWithContent(ctx, c, p, (*in).pageOptions())
		if err != nil {
			return nil, err
		}
		return reply(out), nil
	}
}
