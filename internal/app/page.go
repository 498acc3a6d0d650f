package app

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/service"
)

// pageMode says which content of a space a page view reads and where its
// pages live: the current content, a revision or a change request's.
type pageMode struct {
	ref service.ContentRef
	// base is the address of the content's pages: a page's is base + its
	// path.
	base string
}

// currentMode is a space's current content, at the space's own page
// addresses.
func currentMode(spaceID string) pageMode {
	return pageMode{ref: service.ContentRef{SpaceID: spaceID}, base: spacePath(spaceID) + "/"}
}

// revisionMode is a revision's content, at the revision's addresses.
func revisionMode(spaceID, rev string) pageMode {
	return pageMode{ref: service.ContentRef{SpaceID: spaceID, Revision: rev}, base: revisionPath(spaceID, rev) + "/"}
}

// changeMode is a change request's content (n its number), at the
// change request's addresses.
func changeMode(spaceID, n string) pageMode {
	return pageMode{ref: service.ContentRef{SpaceID: spaceID, ChangeRequest: n}, base: spaceAppPath(spaceID, "changes/"+n+"/")}
}

// spaceSidebar is what a space's sidebar ("space-sidebar") draws: the
// space, its page tree, the page read (its entry marked), and a note when
// the content is an earlier revision's or a change request's. The views
// of a space's pages embed it.
type spaceSidebar struct {
	Space *quire.Space
	Tree  []pageNode
	// Page is the page read; nil for none (or a space without pages).
	Page          *pageBody
	Revision      *service.RevisionView
	ChangeRequest *quire.ChangeRequest
	// Edit is the base of the page operations' addresses when the
	// person may edit the content shown (treeEditBase); "" otherwise.
	Edit string
}

// pageView is what the page template shows: the space's tree in the
// sidebar and one page, or an empty state.
type pageView struct {
	spaceSidebar
	// Home is the address of the content's first page.
	Home string
	// Comments are the page's comment threads ("comment-threads"); nil
	// where the page takes none (an earlier revision).
	Comments *commentPanel
	// Editing is what the page offers its writers; nil for none.
	Editing *pageEditing
}

// pageBody is a page drawn by the reader's renderer.
type pageBody struct {
	// ID and Path are the page's id and path in the content read; doc
	// its document, for the comments.
	ID, Path    string
	doc         *document.Document
	Title       string
	Description string
	CoverURL    string
	HideTitle   bool
	Wide        bool
	Crumbs      []service.SiteTarget
	Body        template.HTML
	Outline     []reader.Heading
}

// pageNode is an entry of the sidebar's page tree, drawn with the
// reader's tree markup so that its script opens and closes branches.
type pageNode struct {
	Title, Emoji, URL string
	// PageID is the page's id; Link marks a link page.
	PageID        string
	Group, Hidden bool
	Link          bool
	Active        bool
	// Open marks a branch shown expanded: a group, or a branch holding
	// the page being read. ID names its list of pages, for the toggle.
	Open     bool
	ID       string
	Children []pageNode
	// Branch is the address listing the pages below a branch whose
	// pages are not drawn; the toggle loads them there.
	Branch string
}

// pageNodes turns a revision's tree into the sidebar's nodes; branch is
// the address of the content's branches, to which a page id is added.
func pageNodes(items []service.SpaceTreeItem, branch string) []pageNode {
	out := make([]pageNode, 0, len(items))
	for _, it := range items {
		n := pageNode{Title: it.Title, Emoji: it.Emoji, URL: it.URL, PageID: it.ID, Group: it.Group, Hidden: it.Hidden, Link: it.Link,
			Active: it.Active, Children: pageNodes(it.Children, branch)}
		n.Open = it.Group || len(n.Children) > 0
		if len(n.Children) > 0 || it.Closed {
			n.ID = "tree-" + it.ID
		}
		if it.Closed {
			n.Branch = branch + url.QueryEscape(it.ID)
		}
		out = append(out, n)
	}
	return out
}

// branchBase is the address of a content's branches, ending where the
// page id goes.
func (m pageMode) branchBase(spaceID string) string {
	q := url.Values{}
	switch {
	case m.ref.ChangeRequest != "":
		q.Set("change", m.ref.ChangeRequest)
	case m.ref.Revision != "":
		q.Set("revision", m.ref.Revision)
	}
	if len(q) == 0 {
		return spaceAppPath(spaceID, "tree?page=")
	}
	return spaceAppPath(spaceID, "tree?"+q.Encode()+"&page=")
}

// addresses are where a content's pages, files and spaces live in the
// app.
func (m pageMode) addresses(spaceID string) service.SpaceAddresses {
	return service.SpaceAddresses{Pages: m.base, Files: spaceAppPath(spaceID, "files/"), Spaces: "/app/s/"}
}

// readTree reads the sidebar's tree of a space's content when no page of
// it is read: its top level, groups open.
func (a *App) readTree(r *http.Request, sp *quire.Space, m pageMode) ([]pageNode, error) {
	items, err := a.svc.SpaceTree(r.Context(), m.ref, m.addresses(sp.ID))
	if err != nil {
		return nil, err
	}
	return pageNodes(items, m.branchBase(sp.ID)), nil
}

// readPage reads a page of a space's content (its first one for an
// empty path) and draws its body with the reader's renderer.
func (a *App) readPage(r *http.Request, sp *quire.Space, m pageMode, path string) (*pageView, error) {
	rd, err := a.svc.ReadSpace(r.Context(), m.ref, path, m.addresses(sp.ID))
	if err != nil {
		return nil, err
	}
	v := &pageView{Home: m.base, spaceSidebar: spaceSidebar{Space: sp, ChangeRequest: rd.ChangeRequest,
		Tree: pageNodes(rd.Tree, m.branchBase(sp.ID))}}
	v.Edit = a.treeEditBase(r, sp, m, rd.ChangeRequest)
	if rd.Page == nil {
		v.Editing = a.editingFor(r, sp, m, v)
		return v, nil
	}
	body, outline, err := a.renderDocument(rd, rd.Document)
	if err != nil {
		return nil, err
	}
	l := rd.Layout
	b := &pageBody{ID: rd.Page.ID, Path: rd.Path, doc: rd.Document, Title: rd.Page.Title, Crumbs: rd.Crumbs, HideTitle: !l.Title, Wide: l.Width == "wide",
		Body: body, Outline: outline}
	if l.Description {
		b.Description = rd.Page.Description
	}
	if rd.Cover != nil && l.Cover {
		b.CoverURL = rd.Image(*rd.Cover)
	}
	if !l.Outline {
		b.Outline = nil
	}
	v.Page = b
	v.Editing = a.editingFor(r, sp, m, v)
	return v, nil
}

// renderDocument draws a document of a page rd read (its whole document,
// or a part of it) with the reader's renderer, its references resolved as
// rd resolves them: the page views, the editor's preview and its saved
// blocks, and both sides of a conflict all draw this way. Blocks carry
// their keys: the editor, comments and diffs find them by it.
func (a *App) renderDocument(rd *service.SpaceRead, doc *document.Document) (template.HTML, []reader.Heading, error) {
	rp := &reader.Page{Document: doc, BlockKeys: true,
		Resolvers: reader.Resolvers{
			Link:  func(ref document.Ref) reader.Target { return reader.Target(rd.Link(ref)) },
			Image: rd.Image,
			File:  func(ref document.Ref) reader.Target { return reader.Target(rd.File(ref)) },
			Path:  func(p string) reader.Target { return reader.Target(rd.PathTarget(p)) },
			// OpenAPI operations as their cards (openapi_insert.go).
			OpenAPI: a.openAPICards(rd),
		}}
	if rd.Page != nil {
		rp.Title, rp.Description = rd.Page.Title, rd.Page.Description
	}
	var buf bytes.Buffer
	outline, err := a.reader.RenderBody(&buf, rp)
	if err != nil {
		return "", nil, err
	}
	if err := rd.Err(); err != nil {
		return "", nil, err
	}
	// The reader's body writer escapes every value it writes.
	return template.HTML(buf.String()), outline, nil
}

// showPage answers a page of a space's content.
func (a *App) showPage(w http.ResponseWriter, r *http.Request, sp *quire.Space, m pageMode, path string) error {
	v, err := a.readPage(r, sp, m, path)
	if err != nil {
		return err
	}
	if m.ref.Revision == "" {
		if err := a.pageComments(r, sp, m.ref.ChangeRequest, v); err != nil {
			return err
		}
	}
	title := sp.Title
	if v.Page != nil {
		title = v.Page.Title + " · " + sp.Title
	}
	sh, err := a.spaceShell(r, sp, title)
	if err != nil {
		return err
	}
	sh.ChangeRequest = m.ref.ChangeRequest
	return a.render(w, r, http.StatusOK, "page", sh, v)
}
