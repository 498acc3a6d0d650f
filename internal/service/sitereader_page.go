package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
)

// SitePage is a page of a site as one visitor gets it.
type SitePage struct {
	// ETag names this rendering: the revision, the page, what the visitor
	// sees of the site and its customization.
	ETag string
	// HTML is the rendered page; Markdown is set instead for <path>.md.
	HTML     []byte
	Markdown string
	// Redirect, when set, is where the page now lives.
	Redirect string
}

// spaceNav is the navigation of one site space's revision for a visitor.
type spaceNav struct {
	ss    *SiteSpaceView
	snap  *content.Snapshot
	tree  []reader.TreeItem
	order []*navPage             // readable pages in reading order
	byID  map[string]*navPage    // every listed page by id
	path  map[string]*navPage    // readable pages by path
	files map[string]*quire.File // loaded on first use
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
	var walk func(nodes []*content.TreeNode) []reader.TreeItem
	walk = func(nodes []*content.TreeNode) []reader.TreeItem {
		var items []reader.TreeItem
		for _, tn := range nodes {
			p := tn.Page
			if !v.holds(r.conds, p.Condition) {
				continue
			}
			it := reader.TreeItem{Title: p.Title, Hidden: p.Hidden}
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
func markActive(items []reader.TreeItem, url string) {
	for i := range items {
		items[i].Active = items[i].URL == url
		markActive(items[i].Children, url)
	}
}

// Page answers a path below a site for a visitor: the rendered page, its
// Markdown for <path>.md, a redirect for a path the space's repository
// redirects or for a page that moved, or ENOTFOUND.
func (r *SiteReader) Page(ctx context.Context, v *SiteVisit, path string) (*SitePage, error) {
	md := strings.HasSuffix(path, ".md")
	if md {
		path = strings.TrimSuffix(path, ".md")
	}
	ss, pagePath := v.Locate(path)
	if ss == nil {
		return nil, quire.NotFound("page")
	}
	h := sha256.New()
	for _, p := range []string{v.fingerprint, ss.SiteSpace.ID, ss.Space.Space.Revision, pagePath} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	etag := `"` + hex.EncodeToString(h.Sum(nil))[:32] + `"`
	if !md {
		if html, ok := r.pages.Get(etag); ok {
			return &SitePage{ETag: etag, HTML: html}, nil
		}
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
		return r.emptyPage(v, ss, etag)
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
	var failed error
	page, err := r.buildPage(ctx, v, nav, np, &failed)
	if err != nil {
		return nil, err
	}
	if md {
		text, err := reader.PageMarkdown(ctx, page)
		if err != nil {
			return nil, err
		}
		return &SitePage{ETag: etag, Markdown: text}, nil
	}
	var buf bytes.Buffer
	if err := r.render.RenderPage(&buf, page); err != nil {
		return nil, err
	}
	if failed != nil {
		return nil, failed
	}
	r.pages.Add(etag, buf.Bytes())
	return &SitePage{ETag: etag, HTML: buf.Bytes()}, nil
}

// emptyPage shows a site space that has no page yet: the site, its
// navigation, and that nothing is published there yet.
func (r *SiteReader) emptyPage(v *SiteVisit, ss *SiteSpaceView, etag string) (*SitePage, error) {
	p := &reader.Page{
		Site: reader.SiteFromCustomization(*v.Customization, reader.SiteOptions{
			Title: v.Site.Title, HomeURL: v.Base,
			Show: func(cond string) bool { return v.holds(r.conds, cond) },
		}),
		Title:   v.Site.Title,
		Empty:   true,
		Search:  reader.Search{Action: v.Base + "~search", JSONURL: v.Base + "~search"},
		NoIndex: true,
	}
	p.Sections = r.sectionTabs(v, ss)
	for _, other := range v.visibleSpaces(ss.Section) {
		p.Variants = append(p.Variants, reader.Link{Title: other.Space.Space.Title, URL: v.SpaceURL(other), Active: other == ss})
	}
	var buf bytes.Buffer
	if err := r.render.RenderPage(&buf, p); err != nil {
		return nil, err
	}
	return &SitePage{ETag: etag, HTML: buf.Bytes()}, nil
}

// buildPage builds the view model of a page; what its resolvers could
// not read is kept in *failed.
func (r *SiteReader) buildPage(ctx context.Context, v *SiteVisit, nav *spaceNav, np *navPage, failed *error) (*reader.Page, error) {
	doc, err := r.document(ctx, nav, np.page)
	if err != nil {
		return nil, err
	}
	ss := nav.ss
	p := &reader.Page{
		Site: reader.SiteFromCustomization(*v.Customization, reader.SiteOptions{
			Title: v.Site.Title, HomeURL: v.Base,
			Show: func(cond string) bool { return v.holds(r.conds, cond) },
		}),
		Title:       np.page.Title,
		Description: np.page.Description,
		Document:    doc,
		Search:      reader.Search{Action: v.Base + "~search", JSONURL: v.Base + "~search"},
		MarkdownURL: v.SpaceURL(ss) + np.path + ".md",
		NoIndex:     !v.Indexable() || np.page.NoRobotsIndex,
	}
	p.Tree = copyTree(nav.tree)
	markActive(p.Tree, np.url)
	for i, o := range nav.order {
		if o != np {
			continue
		}
		if i > 0 {
			p.Previous = &reader.Link{Title: nav.order[i-1].page.Title, URL: nav.order[i-1].url}
		}
		if i+1 < len(nav.order) {
			p.Next = &reader.Link{Title: nav.order[i+1].page.Title, URL: nav.order[i+1].url}
		}
	}
	p.Sections = r.sectionTabs(v, ss)
	for _, other := range v.visibleSpaces(ss.Section) {
		p.Variants = append(p.Variants, reader.Link{Title: other.Space.Space.Title, URL: v.SpaceURL(other), Active: other == ss})
	}
	p.Resolvers = r.resolvers(ctx, v, nav)
	p.Resolvers.OpenAPI = r.openAPIResolver(ctx, v, failed)
	if c := np.page.Cover; c != nil && c.Ref != nil {
		p.CoverURL = p.Resolvers.Image(document.Ref{Kind: c.Ref.Kind, URL: c.Ref.URL, File: c.Ref.File})
	}
	return p, nil
}

// copyTree copies a page tree, so that marking the active page does not
// touch a shared one.
func copyTree(items []reader.TreeItem) []reader.TreeItem {
	out := make([]reader.TreeItem, len(items))
	for i, it := range items {
		out[i] = it
		out[i].Children = copyTree(it.Children)
	}
	return out
}

// sectionTabs lists the visible sections as tabs and groups as menus.
func (r *SiteReader) sectionTabs(v *SiteVisit, cur *SiteSpaceView) []reader.Section {
	visible := map[*SiteSectionView]bool{}
	for _, s := range v.Sections {
		visible[s] = true
	}
	link := func(s *SiteSectionView) (reader.Link, bool) {
		if !visible[s] {
			return reader.Link{}, false
		}
		first := defaultSpace(v.visibleSpaces(s))
		return reader.Link{Title: s.Section.Title, URL: v.SpaceURL(first), Active: cur.Section == s}, true
	}
	var out []reader.Section
	for _, n := range v.Structure.Nodes {
		if n.Section != nil {
			if l, ok := link(n.Section); ok {
				out = append(out, reader.Section{Link: l})
			}
			continue
		}
		sec := reader.Section{Link: reader.Link{Title: n.Group.Group.Title}}
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

// resolvers turn a page's references into reader addresses: pages of the
// site space to their pages, files to the site's file path.
func (r *SiteReader) resolvers(ctx context.Context, v *SiteVisit, nav *spaceNav) reader.Resolvers {
	file := func(id string) (string, string) {
		if nav.files == nil {
			nav.files = map[string]*quire.File{}
			if list, err := nav.snap.Files(ctx); err == nil {
				for _, f := range list {
					nav.files[f.ID] = f
				}
			}
		}
		f := nav.files[id]
		if f == nil {
			// A reference by path (.gitbook/assets/<name>) names the file
			// of that name.
			name := id[strings.LastIndex(id, "/")+1:]
			for _, c := range nav.files {
				if c.Name == name && (f == nil || c.ID < f.ID) {
					f = c
				}
			}
		}
		if f == nil {
			return "", ""
		}
		return v.Base + "~files/" + nav.ss.SiteSpace.ID + "/" + nav.snap.Rev.ID + "/" + f.ID, f.Name
	}
	return reader.Resolvers{
		Link: func(ref document.Ref) reader.Target {
			switch ref.Kind {
			case document.RefURL:
				return reader.Target{URL: ref.URL}
			case document.RefAnchor, document.RefPage:
				if ref.Page == "" {
					return reader.Target{URL: "#" + ref.Anchor}
				}
				np := nav.byID[ref.Page]
				if np == nil {
					return reader.Target{}
				}
				u := np.url
				if ref.Anchor != "" {
					u += "#" + ref.Anchor
				}
				return reader.Target{URL: u, Title: np.page.Title}
			case document.RefFile:
				u, name := file(ref.File)
				return reader.Target{URL: u, Title: name}
			case document.RefSpace:
				for _, ss := range v.SiteSpaces {
					if ss.Space.Space.ID == ref.Space {
						return reader.Target{URL: v.SpaceURL(ss), Title: ss.Space.Space.Title}
					}
				}
			}
			return reader.Target{}
		},
		Image: func(ref document.Ref) string {
			switch ref.Kind {
			case document.RefURL:
				return ref.URL
			case document.RefFile:
				u, _ := file(ref.File)
				return u
			}
			return ""
		},
		File: func(ref document.Ref) reader.Target {
			if ref.Kind == document.RefURL {
				return reader.Target{URL: ref.URL}
			}
			u, name := file(ref.File)
			return reader.Target{URL: u, Title: name}
		},
		Condition: func(expr string) bool { return v.holds(r.conds, expr) },
	}
}

// document returns a page's parsed document, from the cache when it was
// parsed before (the object key names its content).
func (r *SiteReader) document(ctx context.Context, nav *spaceNav, p *quire.RevisionPage) (*document.Document, error) {
	if p.Document == "" {
		return document.New(), nil
	}
	if doc, ok := r.docs.Get(p.Document); ok {
		return doc, nil
	}
	raw, err := nav.snap.Document(ctx, p)
	if err != nil {
		return nil, err
	}
	doc := document.New()
	if raw != nil {
		if doc, err = document.ParseStored(raw); err != nil {
			return nil, err
		}
	}
	r.docs.Add(p.Document, doc)
	return doc, nil
}
