package httpapi

import (
	"context"
	"encoding/json"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// pageJSON is a page of a revision: a document, group or link page. Fields
// that only some types carry are omitted for the others.
type pageJSON struct {
	ID            string            `json:"id"`
	Title         string            `json:"title" minLength:"1"`
	Emoji         string            `json:"emoji,omitempty" maxLength:"50"`
	Icon          string            `json:"icon,omitempty" maxLength:"50"`
	CreatedAt     string            `json:"createdAt,omitempty" format:"date-time"`
	UpdatedAt     string            `json:"updatedAt,omitempty" format:"date-time"`
	Kind          string            `json:"kind" enum:"sheet,group,link" doc:"Deprecated: use type"`
	Type          string            `json:"type" enum:"document,group,link,computed"`
	URLs          *pageURLs         `json:"urls,omitempty"`
	Slug          string            `json:"slug,omitempty"`
	Path          string            `json:"path,omitempty"`
	Description   string            `json:"description,omitempty"`
	Pages         *[]pageJSON       `json:"pages,omitempty"`
	Git           *quire.GitBlob    `json:"git,omitempty"`
	Layout        *layoutJSON       `json:"layout,omitempty"`
	Cover         *quire.PageCover  `json:"cover,omitempty"`
	Variables     map[string]string `json:"variables,omitempty"`
	Hidden        bool              `json:"hidden"`
	NoIndex       bool              `json:"noIndex,omitempty"`
	NoRobotsIndex bool              `json:"noRobotsIndex,omitempty"`
	Target        *quire.ContentRef `json:"target,omitempty"`
	Href          string            `json:"href,omitempty"`
	DocumentID    string            `json:"documentId,omitempty"`
	Markdown      *string           `json:"markdown,omitempty"`
	Document      json.RawMessage   `json:"document,omitempty"`
}

// pageURLs are the URLs of a page.
type pageURLs struct {
	App string `json:"app" format:"uri"`
}

// layoutJSON is the layout of a document page; every option is present.
type layoutJSON struct {
	Width           string `json:"width" enum:"default,wide"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize" enum:"hero,full"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
}

// ReadOptions are the query options of content reads.
type ReadOptions struct {
	Metadata bool `query:"metadata" default:"true" doc:"When false, mutable Git metadata is left out"`
	Computed bool `query:"computed" default:"true" doc:"When false, computed content is not computed"`
}

// PageReadOptions add the options of page reads.
type PageReadOptions struct {
	ReadOptions
	Format    string `query:"format" enum:"document,markdown" doc:"Format of the page content; document when omitted"`
	Evaluated string `query:"evaluated" enum:"true,false,deterministic-only" default:"false" doc:"Whether expressions in the document are evaluated"`
}

// pageOut converts a page (without content) for a read.
func (s *Server) pageOut(spaceID string, p *quire.RevisionPage, path string, children []pageJSON, opts ReadOptions) pageJSON {
	out := pageJSON{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Type: p.Type,
		CreatedAt: timestamp(p.CreatedAt), UpdatedAt: timestamp(p.UpdatedAt), Description: p.Description,
		Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, Variables: p.Variables}
	if opts.Metadata {
		out.Git = p.Git
	}
	switch p.Type {
	case quire.PageDocument:
		out.Kind = "sheet"
		out.URLs = &pageURLs{App: s.urls.appPage(spaceID, path)}
		out.Slug, out.Path = p.Slug, path
		out.Pages = pagesOrEmpty(children)
		l := quire.DefaultPageLayout()
		if p.Layout != nil {
			l = *p.Layout
		}
		out.Layout = &layoutJSON{Width: orDefault(l.Width, "default"), Cover: l.Cover, CoverSize: orDefault(l.CoverSize, "hero"),
			Title: l.Title, Description: l.Description, TableOfContents: l.TableOfContents, Outline: l.Outline,
			Pagination: l.Pagination, Metadata: l.Metadata}
		out.Cover = p.Cover
		out.DocumentID = p.Document
	case quire.PageGroup:
		out.Kind = "group"
		out.Slug, out.Path = p.Slug, path
		out.Pages = pagesOrEmpty(children)
	case quire.PageLink:
		out.Kind = "link"
		out.Target, out.Href = p.Target, p.Href
		if out.Target == nil {
			out.Target = &quire.ContentRef{Kind: "url", URL: p.Href}
		}
	}
	return out
}

// pagesOrEmpty returns a non-nil list of child pages.
func pagesOrEmpty(children []pageJSON) *[]pageJSON {
	if children == nil {
		children = []pageJSON{}
	}
	return &children
}

// orDefault returns v, or def when v is empty.
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// treeOut converts a page tree.
func (s *Server) treeOut(spaceID string, nodes []*content.TreeNode, opts ReadOptions) []pageJSON {
	out := make([]pageJSON, 0, len(nodes))
	for _, n := range nodes {
		var kids []pageJSON
		if len(n.Children) > 0 {
			kids = s.treeOut(spaceID, n.Children, opts)
		}
		out = append(out, s.pageOut(spaceID, n.Page, n.Path, kids, opts))
	}
	return out
}

// pageWithContent converts one page for a page read, with its direct
// children and its content in the requested format.
func (s *Server) pageWithContent(ctx context.Context, c *service.Content, p *quire.RevisionPage, opts PageReadOptions) (pageJSON, error) {
	path, err := c.Path(ctx, p)
	if err != nil {
		return pageJSON{}, err
	}
	kids, err := c.Children(ctx, p.ID)
	if err != nil {
		return pageJSON{}, err
	}
	children := make([]pageJSON, 0, len(kids))
	for _, k := range kids {
		children = append(children, s.pageOut(c.Space.ID, k, path+"/"+k.Slug, nil, opts.ReadOptions))
	}
	out := s.pageOut(c.Space.ID, p, path, children, opts.ReadOptions)
	if p.Type != quire.PageDocument {
		return out, nil
	}
	raw, err := c.Document(ctx, p)
	if err != nil {
		return pageJSON{}, err
	}
	if raw == nil {
		b, _ := json.Marshal(document.New())
		raw = b
	}
	if opts.Format == "markdown" {
		doc, err := document.ParseStored(raw)
		if err != nil {
			return pageJSON{}, err
		}
		sg, err := s.svc.DownloadSigner(ctx)
		if err != nil {
			return pageJSON{}, err
		}
		md, err := document.ToMarkdown(doc, document.WithLinkResolver(c.FileLinks(ctx, sg, s.downloadURL)))
		if err != nil {
			return pageJSON{}, err
		}
		out.Markdown = &md
		return out, nil
	}
	out.Document = raw
	return out, nil
}

// fileJSON is a file of a revision.
type fileJSON struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	ContentType string          `json:"contentType"`
	DownloadURL string          `json:"downloadURL" format:"uri"`
	Size        int64           `json:"size"`
	Dimensions  *dimensionsJSON `json:"dimensions,omitempty"`
	Git         *quire.GitBlob  `json:"git,omitempty"`
}

// dimensionsJSON is the size of an image.
type dimensionsJSON struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// fileOut converts a file of a revision; its download URL is a signed
// link that works without a token until it expires.
func (s *Server) fileOut(sg *service.DownloadSigner, spaceID, revisionID string, f *quire.File, opts ReadOptions) fileJSON {
	out := fileJSON{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size,
		DownloadURL: s.downloadURL(sg.Sign(spaceID, revisionID, f))}
	if f.Width > 0 && f.Height > 0 {
		out.Dimensions = &dimensionsJSON{Width: f.Width, Height: f.Height}
	}
	if opts.Metadata {
		out.Git = f.Git
	}
	return out
}

// revisionJSON is a revision with its page tree and files.
type revisionJSON struct {
	Object           string             `json:"object" enum:"revision"`
	ID               string             `json:"id"`
	Parents          []string           `json:"parents"`
	Pages            []pageJSON         `json:"pages"`
	Files            []fileJSON         `json:"files"`
	ReusableContents []any              `json:"reusableContents"`
	Variables        map[string]string  `json:"variables"`
	CreatedAt        string             `json:"createdAt" format:"date-time"`
	Git              *gitCommitJSON     `json:"git,omitempty"`
	URLs             pageURLs           `json:"urls"`
	Type             string             `json:"type" enum:"edits,merge,rollback,update,computed"`
	MergedFrom       *changeRequestJSON `json:"mergedFrom,omitempty"`
}

// gitCommitJSON is the Git commit of a revision (GitSyncCommit). Whether
// an export made it is told under the contract's name, createdByService,
// and under the name the published schema requires, createdByGitBook.
type gitCommitJSON struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByService bool   `json:"createdByService"`
	CreatedByGitBook bool   `json:"createdByGitBook" doc:"The same as createdByService, under the name the published schema uses"`
	URL              string `json:"url,omitempty"`
	Ref              string `json:"ref,omitempty"`
}

// gitCommitOut renders a revision's commit; nil stays nil.
func gitCommitOut(c *quire.GitCommit) *gitCommitJSON {
	if c == nil {
		return nil
	}
	return &gitCommitJSON{OID: c.OID, Message: c.Message, CreatedByService: c.CreatedByService,
		CreatedByGitBook: c.CreatedByService, URL: c.URL, Ref: c.Ref}
}
