package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"quire/internal/apiref"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// SitePage is a page of a site as one visitor gets it: where it moved,
// or what it shows, for the reader to render.
type SitePage struct {
	// ETag names this page as shown: the revision, the page, what the
	// visitor sees of the site and its customization.
	ETag string
	// Redirect, when set, is where the page now lives; nothing else is
	// set then.
	Redirect string
	// Markdown tells that the visitor asked for the page's Markdown
	// (<path>.md).
	Markdown bool
	// Visit is the visit the page was read for.
	Visit *SiteVisit
	// Title and Description describe the page; Document is its content.
	Title       string
	Description string
	Document    *document.Document
	// Cover is the reference of the page's cover image; nil for none.
	Cover *document.Ref
	// Layout is what the page shows of its parts (title, description,
	// cover, outline, pagination) and its width.
	Layout quire.PageLayout
	// MarkdownURL is the page's Markdown address.
	MarkdownURL string
	// NoIndex asks search engines not to index the page.
	NoIndex bool
	// Tree is the site space's page tree, the page being read marked
	// active.
	Tree []SiteNavItem
	// Previous and Next are the neighbouring pages in reading order.
	Previous, Next *SiteNavLink
	// Sections are the visible sections as tabs, groups as menus; nil
	// when there is nothing to switch between.
	Sections []SiteTab
	// Variants are the visible site spaces of the page's section.
	Variants []SiteNavLink
	// Empty marks the root of a site space that has no page yet: the
	// site and its navigation are shown, with nothing published.
	Empty bool

	refs *pageRefs
}

// SiteNavLink is a titled address of a site's navigation.
type SiteNavLink struct {
	Title string
	URL   string
	// Active marks the link to what the visitor reads.
	Active bool
}

// SiteNavItem is an entry of a site space's page tree: a page (with a
// URL), a link or a group of pages (Group), with the pages below it.
type SiteNavItem struct {
	Title  string
	URL    string
	Group  bool
	Hidden bool
	// Active marks the page being read.
	Active   bool
	Children []SiteNavItem
}

// SiteTab is a section of a site, or a group of sections with Children.
type SiteTab struct {
	SiteNavLink
	Children []SiteNavLink
}

// SiteTarget is where a reference of a page leads for the visitor; an
// empty URL when it leads nowhere the visitor may go.
type SiteTarget struct {
	URL   string
	Title string
}

// SiteOperation is what an openapi-operation block naming a specification
// of the site's organization shows: the operation's reference card, or a
// note that it is missing.
type SiteOperation struct {
	// Card is the operation's reference; nil when it is not found.
	Card *apiref.Card
	// Method, Path and Missing describe an operation not found.
	Method, Path, Missing string
}

// spaceNav is the navigation of one site space's revision for a visitor.
type spaceNav struct {
	ss    *SiteSpaceView
	snap  *content.Snapshot
	tree  []SiteNavItem
	order []*navPage          // readable pages in reading order
	byID  map[string]*navPage // every listed page by id
	path  map[string]*navPage // readable pages by path
	files revisionFiles
}

// navPage is a readable page with its address.
type navPage struct {
	page *quire.RevisionPage
	path string
	url  string
}

// siteSpaceContent opens the current revision of a visible site space.
func (r *SiteReader) snapshot(ctx context.Context, ss *SiteSpaceView, revID string) (*content.Snapshot, error) {
	rev, err := r.svc.store.Revision(ctx, ss.Space.Space.ID, revID)
	if err != nil {
		return nil, err
	}
	return r.svc.engine.Snapshot(r.svc.store, rev), nil
}

// navigation reads the page tree of a site space for a visitor: pages
// whose condition does not hold are left out; the first readable page
// lives at the site space's own address.
func (r *SiteReader) navigation(ctx context.Context, v *SiteVisit, ss *SiteSpaceView) (*spaceNav, error) {
	snap, err := r.snapshot(ctx, ss, ss.Space.Space.Revision)
	if err != nil {
		return nil, err
	}
	nodes, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	n := &spaceNav{ss: ss, snap: snap, byID: map[string]*navPage{}, path: map[string]*navPage{}}
	base := v.SpaceURL(ss)
	var walk func(nodes []*content.TreeNode) []SiteNavItem
	walk = func(nodes []*content.TreeNode) []SiteNavItem {
		var items []SiteNavItem
		for _, tn := range nodes {
			p := tn.Page
			if !v.holds(r.conds, p.Condition) {
				continue
			}
			it := SiteNavItem{Title: p.Title, Hidden: p.Hidden}
			switch p.Type {
			case "group":
				it.Group = true
			case "link":
				if p.Href != "" {
					it.URL = p.Href
				} else if p.Target != nil && p.Target.Kind == "url" {
					it.URL = p.Target.URL
				}
			default:
				np := &navPage{page: p, path: tn.Path, url: base + tn.Path}
				if len(n.order) == 0 {
					np.url = base
				}
				n.order = append(n.order, np)
				n.byID[p.ID] = np
				n.path[tn.Path] = np
				it.URL = np.url
			}
			it.Children = walk(tn.Children)
			items = append(items, it)
		}
		return items
	}
	n.tree = walk(nodes)
	// Hidden pages are readable by address but not in reading order.
	kept := n.order[:0]
	for _, p := range n.order {
		if !p.page.Hidden {
			kept = append(kept, p)
		}
	}
	if len(kept) > 0 && len(n.order) > 0 && kept[0] != n.order[0] {
		n.order = append([]*navPage{n.order[0]}, kept...)
	} else {
		n.order = kept
	}
	return n, nil
}

// markActive marks the tree item of the page being read.
func markActive(items []SiteNavItem, url string) {
	for i := range items {
		items[i].Active = items[i].URL == url
		markActive(items[i].Children, url)
	}
}

// PageTag names what a path below a site shows a visitor, as the ETag
// Page would give it, without reading the page; ok is false for a path
// naming no site space the visitor may see.
func (r *SiteReader) PageTag(v *SiteVisit, path string) (etag string, ok bool) {
	ss, pagePath := v.Locate(strings.TrimSuffix(path, ".md"))
	if ss == nil {
		return "", false
	}
	return pageTag(v, ss, pagePath), true
}

// pageTag is the ETag of a page of a site space as a visitor sees it.
func pageTag(v *SiteVisit, ss *SiteSpaceView, pagePath string) string {
	h := sha256.New()
	for _, p := range []string{v.fingerprint, ss.SiteSpace.ID, ss.Space.Space.Revision, pagePath} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return `"` + hex.EncodeToString(h.Sum(nil))[:32] + `"`
}

// Page answers a path below a site for a visitor: the page, with
// Markdown set for <path>.md, a redirect for a path the space's
// repository redirects or for a page that moved, or ENOTFOUND.
func (r *SiteReader) Page(ctx context.Context, v *SiteVisit, path string) (*SitePage, error) {
	md := strings.HasSuffix(path, ".md")
	if md {
		path = strings.TrimSuffix(path, ".md")
	}
	ss, pagePath := v.Locate(path)
	if ss == nil {
		return nil, quire.NotFound("page")
	}
	nav, err := r.navigation(ctx, v, ss)
	if err != nil {
		return nil, err
	}
	var np *navPage
	if pagePath == "" {
		if len(nav.order) > 0 {
			np = nav.order[0]
		}
	} else {
		np = nav.path[pagePath]
	}
	if np == nil && pagePath == "" && !md {
		page := r.emptyPage(ctx, v, nav)
		page.ETag = pageTag(v, ss, pagePath)
		return page, nil
	}
	if np == nil {
		if to, err := r.repoRedirect(ctx, v, nav, pagePath, md); err != nil || to != "" {
			return &SitePage{Redirect: to}, err
		}
		if to, err := r.movedPage(ctx, v, nav, pagePath, md); err != nil || to != "" {
			return &SitePage{Redirect: to}, err
		}
		return nil, quire.NotFound("page")
	}
	page, err := r.buildPage(ctx, v, nav, np)
	if err != nil {
		return nil, err
	}
	page.ETag, page.Markdown = pageTag(v, ss, pagePath), md
	return page, nil
}

// emptyPage is the root of a site space that has no page yet: the site,
// its sections and site spaces, and no content, kept out of search
// engines.
func (r *SiteReader) emptyPage(ctx context.Context, v *SiteVisit, nav *spaceNav) *SitePage {
	ss := nav.ss
	p := &SitePage{
		Visit:   v,
		Title:   v.Site.Title,
		Empty:   true,
		NoIndex: true,
		Layout:  quire.DefaultPageLayout(),
		refs:    &pageRefs{ctx: ctx, r: r, v: v, nav: nav},
	}
	p.Sections = r.sectionTabs(v, ss)
	for _, other := range v.visibleSpaces(ss.Section) {
		p.Variants = append(p.Variants, SiteNavLink{Title: other.Space.Space.Title, URL: v.SpaceURL(other), Active: other == ss})
	}
	return p
}

// buildPage reads what a page shows.
func (r *SiteReader) buildPage(ctx context.Context, v *SiteVisit, nav *spaceNav, np *navPage) (*SitePage, error) {
	doc, err := r.document(ctx, nav, np.page)
	if err != nil {
		return nil, err
	}
	ss := nav.ss
	p := &SitePage{
		Visit:       v,
		Title:       np.page.Title,
		Description: np.page.Description,
		Document:    doc,
		MarkdownURL: v.SpaceURL(ss) + np.path + ".md",
		NoIndex:     !v.Indexable() || np.page.NoRobotsIndex,
		refs:        &pageRefs{ctx: ctx, r: r, v: v, nav: nav, page: np.page},
	}
	p.Tree = copyTree(nav.tree)
	markActive(p.Tree, np.url)
	for i, o := range nav.order {
		if o != np {
			continue
		}
		if i > 0 {
			p.Previous = &SiteNavLink{Title: nav.order[i-1].page.Title, URL: nav.order[i-1].url}
		}
		if i+1 < len(nav.order) {
			p.Next = &SiteNavLink{Title: nav.order[i+1].page.Title, URL: nav.order[i+1].url}
		}
	}
	p.Sections = r.sectionTabs(v, ss)
	for _, other := range v.visibleSpaces(ss.Section) {
		p.Variants = append(p.Variants, SiteNavLink{Title: other.Space.Space.Title, URL: v.SpaceURL(other), Active: other == ss})
	}
	p.Layout = quire.DefaultPageLayout()
	if np.page.Layout != nil {
		p.Layout = *np.page.Layout
	}
	if c := np.page.Cover; c != nil && c.Ref != nil {
		p.Cover = &document.Ref{Kind: c.Ref.Kind, URL: c.Ref.URL, File: c.Ref.File}
	}
	return p, nil
}

// copyTree copies a page tree, so that marking the active page does not
// touch a shared one.
func copyTree(items []SiteNavItem) []SiteNavItem {
	out := make([]SiteNavItem, len(items))
	for i, it := range items {
		out[i] = it
		out[i].Children = copyTree(it.Children)
	}
	return out
}

// sectionTabs lists the visible sections as tabs and groups as menus.
func (r *SiteReader) sectionTabs(v *SiteVisit, cur *SiteSpaceView) []SiteTab {
	visible := map[*SiteSectionView]bool{}
	for _, s := range v.Sections {
		visible[s] = true
	}
	link := func(s *SiteSectionView) (SiteNavLink, bool) {
		if !visible[s] {
			return SiteNavLink{}, false
		}
		first := defaultSpace(v.visibleSpaces(s))
		return SiteNavLink{Title: s.Section.Title, URL: v.SpaceURL(first), Active: cur.Section == s}, true
	}
	var out []SiteTab
	for _, n := range v.Structure.Nodes {
		if n.Section != nil {
			if l, ok := link(n.Section); ok {
				out = append(out, SiteTab{SiteNavLink: l})
			}
			continue
		}
		sec := SiteTab{SiteNavLink: SiteNavLink{Title: n.Group.Group.Title}}
		var walk func(nodes []SiteNode)
		walk = func(nodes []SiteNode) {
			for _, c := range nodes {
				if c.Group != nil {
					walk(c.Group.Children)
				} else if l, ok := link(c.Section); ok {
					sec.Children = append(sec.Children, l)
					sec.Active = sec.Active || l.Active
				}
			}
		}
		walk(n.Group.Children)
		if len(sec.Children) > 0 {
			out = append(out, sec)
		}
	}
	if len(out) < 2 && (len(out) == 0 || len(out[0].Children) == 0) {
		return nil
	}
	return out
}

// pageRefs resolves the references of a page for a visitor: pages of
// the site space to their addresses, files to the site's file path.
type pageRefs struct {
	ctx context.Context
	r   *SiteReader
	v   *SiteVisit
	nav *spaceNav
	// page is the page being read; nil for a site space's empty root.
	page *quire.RevisionPage
	// failed is the first failure of a store read while resolving.
	failed error
}

// file returns the address and name of a file of the page's revision,
// by id or by path (.gitbook/assets/<name>); "" for none.
func (x *pageRefs) file(id string) (string, string) {
	nav := x.nav
	f := nav.files.find(x.ctx, nav.snap, id)
	if f == nil {
		return "", ""
	}
	return x.v.Base + "~files/" + nav.ss.SiteSpace.ID + "/" + nav.snap.Rev.ID + "/" + f.ID, f.Name
}

// Link resolves a link, mention, button, content-ref or card target.
func (p *SitePage) Link(ref document.Ref) SiteTarget {
	x := p.refs
	switch ref.Kind {
	case document.RefURL:
		return SiteTarget{URL: ref.URL}
	case document.RefAnchor, document.RefPage:
		if ref.Page == "" {
			return SiteTarget{URL: "#" + ref.Anchor}
		}
		np := x.nav.byID[ref.Page]
		if np == nil {
			return SiteTarget{}
		}
		u := np.url
		if ref.Anchor != "" {
			u += "#" + ref.Anchor
		}
		return SiteTarget{URL: u, Title: np.page.Title}
	case document.RefFile:
		u, name := x.file(ref.File)
		return SiteTarget{URL: u, Title: name}
	case document.RefSpace:
		for _, ss := range x.v.SiteSpaces {
			if ss.Space.Space.ID == ref.Space {
				return SiteTarget{URL: x.v.SpaceURL(ss), Title: ss.Space.Space.Title}
			}
		}
	}
	return SiteTarget{}
}

// Image resolves the source of an image, drawing, cover or inline image.
func (p *SitePage) Image(ref document.Ref) string { return fileAddress(p.refs.file).image(ref) }

// File resolves a file block to its download address and name.
func (p *SitePage) File(ref document.Ref) SiteTarget { return fileAddress(p.refs.file).download(ref) }

// Holds tells whether an adaptive condition holds for the visitor; one
// that cannot be decided does not.
func (p *SitePage) Holds(cond string) bool { return p.Visit.holds(p.refs.r.conds, cond) }

// Err returns the first store failure met while resolving the page's
// references: a page shown with it is not to be kept.
func (p *SitePage) Err() error { return p.refs.failed }

// document returns a page's parsed document, parsed once for all reads.
func (r *SiteReader) document(ctx context.Context, nav *spaceNav, p *quire.RevisionPage) (*document.Document, error) {
	return r.svc.docs.page(ctx, nav.snap, p)
}
