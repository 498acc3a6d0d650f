package service

import (
	"context"
	"slices"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/gitbook"
	"quire/internal/quire"
)

// SpaceAddresses say where the app shows what a space's revision
// refers to: each page at Pages + its path, each file at Files + the
// revision id + "/" + the file id, each space at Spaces + its id.
type SpaceAddresses struct {
	Pages, Files, Spaces string
}

// SpaceTreeItem is an entry of a revision's page tree as the people of a
// space see it: every page, hidden ones marked, groups and links too.
type SpaceTreeItem struct {
	ID, Title, Emoji string
	// Path is the page's path in the revision; URL its address, or a
	// link page's target ("" for a group).
	Path, URL string
	Group     bool
	Link      bool
	Hidden    bool
	// Active marks the page being read.
	Active bool
	// Children are the pages below, listed for a group, the page being
	// read and the pages above it; Closed marks an item with pages below
	// that are not listed, which SpaceBranch lists.
	Children []SpaceTreeItem
	Closed   bool
}

// SpaceRead is one page of a space's revision, ready for the reader to
// draw: the revision's tree, the page's document and its references
// resolved to the addresses the caller gave. Page is nil when the
// revision has no page to show (an empty space).
type SpaceRead struct {
	*Content
	// Tree is the top level of the revision's tree, open down to the
	// page read (see SpaceTreeItem.Children).
	Tree []SpaceTreeItem
	// Page is the page read, Path its path; Crumbs are the pages and
	// groups above it, top first.
	Page   *quire.RevisionPage
	Path   string
	Crumbs []SiteTarget
	// Document is the page's content; Cover the reference of its cover
	// image, nil for none; Layout what the page shows of its parts.
	Document *document.Document
	Cover    *document.Ref
	Layout   quire.PageLayout

	ctx    context.Context
	at     SpaceAddresses
	tree   *content.PageTree
	files  revisionFiles
	failed error
}

// isDocumentPage reports whether a page of a tree is one to read: not a
// group or a link.
func isDocumentPage(p *quire.RevisionPage) bool {
	return p.Type != quire.PageGroup && p.Type != quire.PageLink
}

// ReadSpace reads a page of the revision ref names, by its path; an empty
// path reads the revision's first document page, as a site shows it at a
// space's address. A path naming no document page is ENOTFOUND. The
// revision's tree is read once per revision and shared; only the part
// the reader sees is made into items.
func (s *Service) ReadSpace(ctx context.Context, ref ContentRef, path string, at SpaceAddresses) (*SpaceRead, error) {
	out, err := s.openSpaceRead(ctx, ref, at)
	if err != nil {
		return nil, err
	}
	c, tree := out.Content, out.tree
	var cur *content.TreeNode
	if path == "" {
		cur = firstReadable(tree.Nodes)
	} else if cur = tree.AtPath(path); cur == nil || !isDocumentPage(cur.Page) {
		return nil, quire.NotFound("page")
	}
	if cur == nil {
		out.Tree = out.items(tree.Nodes, nil, "")
		out.Layout = quire.DefaultPageLayout()
		return out, nil
	}
	open := map[string]bool{}
	for n := cur; n != nil; n = tree.Parent(n.Page.ID) {
		open[n.Page.ID] = true
		if n != cur {
			u := ""
			if isDocumentPage(n.Page) {
				u = at.Pages + n.Path
			}
			out.Crumbs = append(out.Crumbs, SiteTarget{Title: n.Page.Title, URL: u})
		}
	}
	slices.Reverse(out.Crumbs)
	out.Tree = out.items(tree.Nodes, open, cur.Page.ID)
	out.Page, out.Path = cur.Page, cur.Path
	if out.Document, err = s.pageDocument(ctx, c, cur.Page); err != nil {
		return nil, err
	}
	out.Layout = quire.DefaultPageLayout()
	if cur.Page.Layout != nil {
		out.Layout = *cur.Page.Layout
	}
	if cv := cur.Page.Cover; cv != nil && cv.Ref != nil {
		out.Cover = &document.Ref{Kind: cv.Ref.Kind, URL: cv.Ref.URL, File: cv.Ref.File}
	}
	return out, nil
}

// SpaceBranch lists the pages directly below a page of the revision ref
// names, as ReadSpace lists a tree's items: each closed when it has
// pages below. A page that is not in the revision is ENOTFOUND.
func (s *Service) SpaceBranch(ctx context.Context, ref ContentRef, pageID string, at SpaceAddresses) ([]SpaceTreeItem, error) {
	x, err := s.openSpaceRead(ctx, ref, at)
	if err != nil {
		return nil, err
	}
	n := x.tree.Node(pageID)
	if n == nil {
		return nil, quire.NotFound("page")
	}
	items := x.items(n.Children, nil, "")
	return items, x.Err()
}

// SpaceTree lists the top level of the revision ref names as ReadSpace
// lists it with no page read: groups open, other branches closed.
func (s *Service) SpaceTree(ctx context.Context, ref ContentRef, at SpaceAddresses) ([]SpaceTreeItem, error) {
	x, err := s.openSpaceRead(ctx, ref, at)
	if err != nil {
		return nil, err
	}
	items := x.items(x.tree.Nodes, nil, "")
	return items, x.Err()
}

// openSpaceRead opens the revision ref names with its shared tree, for
// reading a page or listing the tree.
func (s *Service) openSpaceRead(ctx context.Context, ref ContentRef, at SpaceAddresses) (*SpaceRead, error) {
	c, err := s.Content(ctx, ref)
	if err != nil {
		return nil, err
	}
	tree, err := c.SharedTree(ctx)
	if err != nil {
		return nil, err
	}
	return &SpaceRead{Content: c, ctx: ctx, at: at, tree: tree}, nil
}

// firstReadable returns the first page of a tree, in reading order,
// that is a document and not hidden; nil for none.
func firstReadable(nodes []*content.TreeNode) *content.TreeNode {
	for _, n := range nodes {
		if isDocumentPage(n.Page) && !n.Page.Hidden {
			return n
		}
		if f := firstReadable(n.Children); f != nil {
			return f
		}
	}
	return nil
}

// items makes a level of the tree into items: the levels below are
// listed under groups and the pages open names, closed under the others;
// the page active is the one being read.
func (x *SpaceRead) items(nodes []*content.TreeNode, open map[string]bool, active string) []SpaceTreeItem {
	out := make([]SpaceTreeItem, 0, len(nodes))
	for _, tn := range nodes {
		p := tn.Page
		it := SpaceTreeItem{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Path: tn.Path, Hidden: p.Hidden}
		switch p.Type {
		case quire.PageGroup:
			it.Group = true
		case quire.PageLink:
			it.Link = true
			if p.Href != "" {
				it.URL = p.Href
			} else if p.Target != nil {
				it.URL = x.Link(*p.Target).URL
			}
		default:
			it.URL = x.at.Pages + tn.Path
			it.Active = p.ID == active
		}
		if len(tn.Children) > 0 {
			if it.Group || open[p.ID] {
				it.Children = x.items(tn.Children, open, active)
			} else {
				it.Closed = true
			}
		}
		out = append(out, it)
	}
	return out
}

// file returns the address and name of a file of the revision, by id or
// by repository path; "" for none.
func (x *SpaceRead) file(id string) (string, string) {
	f := x.files.find(x.ctx, x.Snapshot, id)
	if x.failed == nil {
		x.failed = x.files.err
	}
	if f == nil {
		return "", ""
	}
	return x.at.Files + x.Rev.ID + "/" + f.ID, f.Name
}

// Link resolves a link, mention, button, content-ref or card target:
// pages of the revision to their addresses, files to the revision's
// file address, spaces to theirs.
func (x *SpaceRead) Link(ref document.Ref) SiteTarget {
	switch ref.Kind {
	case document.RefURL:
		return SiteTarget{URL: ref.URL}
	case document.RefAnchor, document.RefPage:
		if ref.Page == "" {
			return SiteTarget{URL: "#" + ref.Anchor}
		}
		if ref.Space != "" && ref.Space != x.Space.ID {
			return SiteTarget{}
		}
		tn := x.tree.Node(ref.Page)
		if tn == nil || !isDocumentPage(tn.Page) {
			return SiteTarget{}
		}
		u := x.at.Pages + tn.Path
		if ref.Anchor != "" {
			u += "#" + ref.Anchor
		}
		return SiteTarget{URL: u, Title: tn.Page.Title}
	case document.RefFile:
		u, name := x.file(ref.File)
		return SiteTarget{URL: u, Title: name}
	case document.RefSpace:
		if ref.Space == x.Space.ID {
			return SiteTarget{URL: x.at.Spaces + ref.Space, Title: x.Space.Title}
		}
		return SiteTarget{URL: x.at.Spaces + ref.Space}
	}
	return SiteTarget{}
}

// Image resolves the source of an image, drawing, cover or inline image.
func (x *SpaceRead) Image(ref document.Ref) string { return fileAddress(x.file).image(ref) }

// File resolves a file block to its download address and name.
func (x *SpaceRead) File(ref document.Ref) SiteTarget { return fileAddress(x.file).download(ref) }

// PathTarget resolves a page path the page's raw HTML names relative to
// itself, as written in its repository, to that page's address; empty
// for a path naming no page (the address is then kept as written).
func (x *SpaceRead) PathTarget(target string) SiteTarget {
	if x.Page == nil || x.Page.Git == nil || x.Page.Git.Path == "" {
		return SiteTarget{}
	}
	path, ok := gitbook.TargetPath(x.Page.Git.Path, target)
	if !ok {
		return SiteTarget{}
	}
	if tn := x.tree.AtGitPath(path); tn != nil && isDocumentPage(tn.Page) {
		return SiteTarget{URL: x.at.Pages + tn.Path, Title: tn.Page.Title}
	}
	return SiteTarget{}
}

// Err returns the first store failure met while resolving references.
func (x *SpaceRead) Err() error { return x.failed }

// SpaceFile opens a file of a revision of a space.
func (s *Service) SpaceFile(ctx context.Context, spaceID, revisionID, fileID string) (*SiteFile, error) {
	c, err := s.Content(ctx, ContentRef{SpaceID: spaceID, Revision: revisionID})
	if err != nil {
		return nil, err
	}
	f, err := c.File(ctx, fileID)
	if err != nil {
		return nil, err
	}
	body, size, err := s.OpenBlob(ctx, f.Blob)
	if err != nil {
		return nil, err
	}
	return &SiteFile{File: f, Body: body, Size: size}, nil
}
