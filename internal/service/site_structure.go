package service

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"quire/internal/quire"
)

// SiteSpaceView is a site space with its space (and the caller's level on
// it) and whether it is the default of the section or root holding it.
type SiteSpaceView struct {
	SiteSpace *quire.SiteSpace
	Space     SpaceView
	Default   bool
	// Section is the section holding it, nil at the root.
	Section *SiteSectionView
}

// SiteSectionView is a section with its site spaces in order and whether
// it is the site's default.
type SiteSectionView struct {
	Section    *quire.SiteSection
	Default    bool
	SiteSpaces []*SiteSpaceView
}

// SiteGroupView is a section group with its children in order.
type SiteGroupView struct {
	Group    *quire.SiteSectionGroup
	Children []SiteNode
}

// SiteNode is a section or a section group of a site's structure.
type SiteNode struct {
	Section *SiteSectionView
	Group   *SiteGroupView
}

// position is the node's order key among its siblings.
func (n SiteNode) position() (string, string) {
	if n.Section != nil {
		return n.Section.Section.Position, n.Section.Section.ID
	}
	return n.Group.Group.Position, n.Group.Group.ID
}

// SiteStructure is a site's structure as readers see it: sections and
// groups, or site spaces at the root.
type SiteStructure struct {
	Site *quire.Site
	// HasSections tells which of Nodes and SiteSpaces holds the structure.
	HasSections bool
	// Nodes are the sections and groups at the root, in order.
	Nodes []SiteNode
	// SiteSpaces are the site spaces at the root, in order.
	SiteSpaces []*SiteSpaceView
	// Sections and AllSiteSpaces list every section and site space in
	// reading order, depth first.
	Sections      []*SiteSectionView
	AllSiteSpaces []*SiteSpaceView
	// Groups lists every group, depth first.
	Groups []*SiteGroupView
	// ShareLink is the share link the structure was read through, nil
	// for a member's read.
	ShareLink *quire.SiteShareLink
}

// SiteSpaceByID returns a site space of the structure, or nil.
func (st *SiteStructure) SiteSpaceByID(id string) *SiteSpaceView {
	for _, v := range st.AllSiteSpaces {
		if v.SiteSpace.ID == id {
			return v
		}
	}
	return nil
}

// SectionByID returns a section of the structure, or nil.
func (st *SiteStructure) SectionByID(id string) *SiteSectionView {
	for _, v := range st.Sections {
		if v.Section.ID == id {
			return v
		}
	}
	return nil
}

// GroupByID returns a section group of the structure, or nil.
func (st *SiteStructure) GroupByID(id string) *SiteGroupView {
	for _, v := range st.Groups {
		if v.Group.ID == id {
			return v
		}
	}
	return nil
}

// SiteStructure reads a site's structure for a member, or, with a share
// key, as the holder of that key sees it: only a published site, and only
// through an active link of that site.
func (s *Sites) SiteStructure(ctx context.Context, u *quire.User, orgID, siteID, shareKey string) (*SiteStructure, error) {
	site, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	link, err := s.shareLinkFor(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	out, err := s.siteStructure(ctx, s.svc.store, u, site)
	if err != nil {
		return nil, err
	}
	out.ShareLink = link
	return out, nil
}

// shareLinkFor resolves a share key: "" is a member's read; any other key
// must be an active link of a published site.
func (s *Sites) shareLinkFor(ctx context.Context, site *quire.Site, key string) (*quire.SiteShareLink, error) {
	if key == "" {
		return nil, nil
	}
	l, err := s.svc.store.SiteShareLinkByKey(ctx, site.ID, key)
	if quire.IsNotFound(err) || (err == nil && !l.Active) {
		return nil, quire.NotFound("share link")
	}
	if err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, quire.Errorf(quire.ENOTFOUND, "the site is not published")
	}
	return l, nil
}

// siteStructure builds the structure of a site from its tree.
func (s *Sites) siteStructure(ctx context.Context, st quire.Store, u *quire.User, site *quire.Site) (*SiteStructure, error) {
	tree, err := st.SiteTree(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	levels, err := s.svc.spaceLevels(ctx, u, tree.Spaces)
	if err != nil {
		return nil, err
	}
	return buildStructure(site, tree, levels), nil
}

// buildStructure arranges a site's tree, with the caller's levels on its
// spaces.
func buildStructure(site *quire.Site, tree *quire.SiteTree, levels map[string]quire.Level) *SiteStructure {
	spaces := make(map[string]*quire.Space, len(tree.Spaces))
	for _, sp := range tree.Spaces {
		spaces[sp.ID] = sp
	}
	out := &SiteStructure{Site: site, HasSections: len(tree.Sections) > 0 || len(tree.Groups) > 0}

	// Site spaces by the section holding them ("" for the root).
	bySection := map[string][]*SiteSpaceView{}
	for _, ss := range tree.SiteSpaces {
		sp := spaces[ss.SpaceID]
		if sp == nil {
			continue // gone between the reads
		}
		v := &SiteSpaceView{SiteSpace: ss, Space: SpaceView{Space: sp, Level: levels[sp.ID]}}
		bySection[ss.Section] = append(bySection[ss.Section], v)
	}
	markDefault(bySection[""], site.DefaultSiteSpace)
	out.SiteSpaces = bySection[""]

	// Sections and groups by their parent group ("" for the root).
	children := map[string][]SiteNode{}
	for _, sec := range tree.Sections {
		v := &SiteSectionView{Section: sec, SiteSpaces: bySection[sec.ID]}
		markDefault(v.SiteSpaces, sec.DefaultSiteSpace)
		for _, ss := range v.SiteSpaces {
			ss.Section = v
		}
		children[sec.Group] = append(children[sec.Group], SiteNode{Section: v})
	}
	groups := map[string]*SiteGroupView{}
	for _, g := range tree.Groups {
		v := &SiteGroupView{Group: g}
		groups[g.ID] = v
		children[g.Parent] = append(children[g.Parent], SiteNode{Group: v})
	}
	for _, nodes := range children {
		slices.SortStableFunc(nodes, func(a, b SiteNode) int {
			pa, ia := a.position()
			pb, ib := b.position()
			if c := strings.Compare(pa, pb); c != 0 {
				return c
			}
			return strings.Compare(ia, ib)
		})
	}
	for id, g := range groups {
		g.Children = children[id]
	}
	out.Nodes = children[""]
	var walk func(nodes []SiteNode)
	walk = func(nodes []SiteNode) {
		for _, n := range nodes {
			if n.Section != nil {
				out.Sections = append(out.Sections, n.Section)
				continue
			}
			out.Groups = append(out.Groups, n.Group)
			walk(n.Group.Children)
		}
	}
	walk(out.Nodes)
	if len(out.Sections) > 0 {
		def := out.Sections[0]
		for _, sec := range out.Sections {
			if sec.Section.ID == site.DefaultSection {
				def = sec
			}
		}
		def.Default = true
	}
	out.AllSiteSpaces = append(out.AllSiteSpaces, out.SiteSpaces...)
	for _, sec := range out.Sections {
		out.AllSiteSpaces = append(out.AllSiteSpaces, sec.SiteSpaces...)
	}
	return out
}

// pinDefaults records the defaults a site's structure falls back to (the
// first section, the first site space of a section or of the root) as
// chosen, so that reordering never moves a default: only a deletion or a
// choice does.
func pinDefaults(ctx context.Context, st quire.Store, site *quire.Site) error {
	tree, err := st.SiteTree(ctx, site.ID)
	if err != nil {
		return err
	}
	b := buildStructure(site, tree, nil)
	var upd quire.SiteUpdate
	section := ""
	for _, sec := range b.Sections {
		if sec.Default {
			section = sec.Section.ID
		}
		chosen := ""
		for _, v := range sec.SiteSpaces {
			if v.Default {
				chosen = v.SiteSpace.ID
			}
		}
		if chosen != sec.Section.DefaultSiteSpace {
			if err := st.UpdateSiteSection(ctx, sec.Section.ID, quire.SiteSectionUpdate{DefaultSiteSpace: &chosen}); err != nil {
				return err
			}
		}
	}
	root := ""
	for _, v := range b.SiteSpaces {
		if v.Default {
			root = v.SiteSpace.ID
		}
	}
	if section != site.DefaultSection {
		upd.DefaultSection = &section
	}
	if root != site.DefaultSiteSpace {
		upd.DefaultSiteSpace = &root
	}
	if upd.DefaultSection == nil && upd.DefaultSiteSpace == nil {
		return nil
	}
	updated, err := st.UpdateSite(ctx, site.ID, upd)
	if err != nil {
		return err
	}
	*site = *updated
	return nil
}

// markDefault marks the default among the site spaces of one section or
// the root: the chosen one when it is there, else the first.
func markDefault(list []*SiteSpaceView, chosen string) {
	if len(list) == 0 {
		return
	}
	for _, v := range list {
		if v.SiteSpace.ID == chosen {
			v.Default = true
			return
		}
	}
	list[0].Default = true
}

// pageInOrder pages through items in the order given, for the lists of a
// site's structure, which are read whole.
func pageInOrder[T any](items []T, p quire.Page) (*quire.List[T], error) {
	type at struct {
		i int
		v T
	}
	wrapped := make([]at, len(items))
	for i, v := range items {
		wrapped[i] = at{i, v}
	}
	l, err := PageSlice(wrapped, p, func(x at) string { return fmt.Sprintf("%08d", x.i) })
	if err != nil {
		return nil, err
	}
	out := &quire.List[T]{Next: l.Next, Count: l.Count, Items: make([]T, 0, len(l.Items))}
	for _, x := range l.Items {
		out.Items = append(out.Items, x.v)
	}
	return out, nil
}

// SiteSections lists a site's sections in reading order, as SiteStructure
// reads them.
func (s *Sites) SiteSections(ctx context.Context, u *quire.User, orgID, siteID, shareKey string, p quire.Page) (*SiteStructure, *quire.List[*SiteSectionView], error) {
	st, err := s.SiteStructure(ctx, u, orgID, siteID, shareKey)
	if err != nil {
		return nil, nil, err
	}
	l, err := pageInOrder(st.Sections, p)
	return st, l, err
}

// SiteSpaces lists a site's site spaces in reading order; def, when set,
// keeps only the defaults (true) or only the others (false).
func (s *Sites) SiteSpaces(ctx context.Context, u *quire.User, orgID, siteID, shareKey string, def *bool, p quire.Page) (*SiteStructure, *quire.List[*SiteSpaceView], error) {
	st, err := s.SiteStructure(ctx, u, orgID, siteID, shareKey)
	if err != nil {
		return nil, nil, err
	}
	items := st.AllSiteSpaces
	if def != nil {
		items = nil
		for _, v := range st.AllSiteSpaces {
			// The site's default site space is the default of the root, or
			// of the default section.
			isDefault := v.Default && (v.Section == nil || v.Section.Default)
			if isDefault == *def {
				items = append(items, v)
			}
		}
	}
	l, err := pageInOrder(items, p)
	return st, l, err
}

// SiteSectionGroups lists a site's section groups, depth first.
func (s *Sites) SiteSectionGroups(ctx context.Context, u *quire.User, orgID, siteID string, p quire.Page) (*SiteStructure, *quire.List[*SiteGroupView], error) {
	st, err := s.SiteStructure(ctx, u, orgID, siteID, "")
	if err != nil {
		return nil, nil, err
	}
	l, err := pageInOrder(st.Groups, p)
	return st, l, err
}
