package service

import (
	"context"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// SectionCreate is a new section: the space its first site space
// publishes, and optionally a title (else the space's) and an icon.
type SectionCreate struct {
	SpaceID string
	Title   string
	Icon    string
}

// AddSection adds a section at the end of a site's root, holding a site
// space of the given space. When the site still has site spaces at its
// root, they first move into a section of their own, so that the site
// holds sections only.
func (s *Sites) AddSection(ctx context.Context, u *quire.User, orgID, siteID string, in SectionCreate) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		sp, err := s.siteSpaceSource(ctx, st, u, site.OrgID, "spaceId", in.SpaceID)
		if err != nil {
			return "", err
		}
		title := strings.TrimSpace(in.Title)
		if title == "" {
			title = sectionTitle(sp.Title)
		}
		if len([]rune(title)) < 2 {
			return "", quire.Invalid("title", "a section title has 2 to 128 characters")
		}
		if err := s.wrapRootSiteSpaces(ctx, st, u, site); err != nil {
			return "", err
		}
		sec, err := s.newSection(ctx, st, site, title, in.Icon)
		if err != nil {
			return "", err
		}
		if _, err := s.addSiteSpace(ctx, st, u, site, sp.ID, sec.ID, "spaceId"); err != nil {
			return "", err
		}
		return sec.ID, nil
	})
}

// sectionTitle makes a section title from a space title: at least two
// characters, at most 128.
func sectionTitle(t string) string {
	r := []rune(strings.TrimSpace(t))
	if len(r) > 128 {
		r = r[:128]
	}
	if len(r) < 2 {
		return "Section"
	}
	return string(r)
}

// newSection stores a section at the end of the site's root.
func (s *Sites) newSection(ctx context.Context, st quire.Store, site *quire.Site, title, icon string) (*quire.SiteSection, error) {
	path, err := freePath(ctx, st, site.ID, quire.SiteItemSection, "", title)
	if err != nil {
		return nil, err
	}
	pos, err := lastSiteKey(ctx, st, site.ID, quire.SiteItemSection, "")
	if err != nil {
		return nil, err
	}
	sec := &quire.SiteSection{ID: quire.NewID(), SiteID: site.ID, Title: title, Path: path, Icon: icon,
		Position: pos, CreatedAt: s.svc.Now()}
	return sec, st.CreateSiteSection(ctx, sec)
}

// wrapRootSiteSpaces moves the site spaces at a site's root, if any, into
// a new section named after the default one's space, keeping their order
// and default.
func (s *Sites) wrapRootSiteSpaces(ctx context.Context, st quire.Store, u *quire.User, site *quire.Site) error {
	structure, err := s.siteStructure(ctx, st, u, site)
	if err != nil || len(structure.SiteSpaces) == 0 {
		return err
	}
	title := site.Title
	for _, v := range structure.SiteSpaces {
		if v.Default {
			title = sectionTitle(v.Space.Space.Title)
		}
	}
	sec, err := s.newSection(ctx, st, site, title, "")
	if err != nil {
		return err
	}
	for _, v := range structure.SiteSpaces {
		if err := st.PlaceSiteItem(ctx, quire.SiteItemSpace, v.SiteSpace.ID, sec.ID, v.SiteSpace.Position); err != nil {
			return err
		}
		if v.Default {
			if err := st.UpdateSiteSection(ctx, sec.ID, quire.SiteSectionUpdate{DefaultSiteSpace: &v.SiteSpace.ID}); err != nil {
				return err
			}
		}
	}
	empty := ""
	_, err = st.UpdateSite(ctx, site.ID, quire.SiteUpdate{DefaultSiteSpace: &empty})
	return err
}

// UpdateSection applies a section PATCH.
func (s *Sites) UpdateSection(ctx context.Context, u *quire.User, orgID, siteID, id string, upd quire.SiteSectionUpdate) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		sec := findSection(tree, id)
		if sec == nil {
			return "", quire.NotFound("site section")
		}
		if upd.Title != nil {
			t := strings.TrimSpace(*upd.Title)
			if len([]rune(t)) < 2 {
				return "", quire.Invalid("title", "a section title has 2 to 128 characters")
			}
			upd.Title = &t
		}
		if upd.Path != nil {
			if err := checkSitePath("path", *upd.Path); err != nil {
				return "", err
			}
			for _, o := range tree.Sections {
				if o.ID != sec.ID && o.Path == *upd.Path {
					return "", quire.Invalid("path", "another section of the site already uses the path %q", *upd.Path)
				}
			}
		}
		if upd.DefaultSiteSpace != nil {
			ss := findSiteSpace(tree, *upd.DefaultSiteSpace)
			if ss == nil || ss.Section != sec.ID {
				return "", quire.Invalid("defaultSiteSpace", "site space %q is not in this section", *upd.DefaultSiteSpace)
			}
		}
		if upd.Condition != nil && *upd.Condition != "" {
			if err := s.checkCondition(ctx, st, site, "condition", *upd.Condition); err != nil {
				return "", err
			}
		}
		return sec.ID, st.UpdateSiteSection(ctx, sec.ID, upd)
	})
}

// DeleteSection deletes a section with its site spaces; the site's default
// section falls to the first remaining. It reports whether it was there.
func (s *Sites) DeleteSection(ctx context.Context, orgID, siteID, id string) (bool, error) {
	return s.deleteSiteItem(ctx, orgID, siteID, func(st quire.Store, tree *quire.SiteTree) (bool, error) {
		if findSection(tree, id) == nil {
			return false, nil
		}
		return st.DeleteSiteSection(ctx, id)
	})
}

// GroupCreate is a new section group: its title and icon, the sections to
// move into it, and the group to nest it in ("" for the root).
type GroupCreate struct {
	Title    string
	Icon     string
	Sections []string
	Parent   string
}

// AddSectionGroup adds a section group at the end of the site's root or of
// a parent group at the root (groups nest once), and moves the sections
// given into it.
func (s *Sites) AddSectionGroup(ctx context.Context, u *quire.User, orgID, siteID string, in GroupCreate) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		title := strings.TrimSpace(in.Title)
		if title == "" {
			return "", quire.Invalid("title", "a section group title has 1 to 100 characters")
		}
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		if in.Parent != "" {
			p := findGroup(tree, in.Parent)
			if p == nil {
				return "", quire.Invalid("parent", "section group %q is not in this site", in.Parent)
			}
			if p.Parent != "" {
				return "", quire.Invalid("parent", "section groups nest only once: %q is already inside a group", in.Parent)
			}
		}
		for i, id := range in.Sections {
			if findSection(tree, id) == nil {
				return "", quire.Invalid("sections["+strconv.Itoa(i)+"]", "section %q is not in this site", id)
			}
		}
		pos, err := lastSiteKey(ctx, st, site.ID, quire.SiteItemGroup, in.Parent)
		if err != nil {
			return "", err
		}
		g := &quire.SiteSectionGroup{ID: quire.NewID(), SiteID: site.ID, Parent: in.Parent, Title: title, Icon: in.Icon,
			Position: pos, CreatedAt: s.svc.Now()}
		if err := st.CreateSiteSectionGroup(ctx, g); err != nil {
			return "", err
		}
		key := ""
		for _, id := range in.Sections {
			key = quire.KeyBetween(key, "")
			if err := st.PlaceSiteItem(ctx, quire.SiteItemSection, id, g.ID, key); err != nil {
				return "", err
			}
		}
		return g.ID, nil
	})
}

// UpdateSectionGroup sets a group's title and icon; nil keeps them, and an
// icon of "" removes it.
func (s *Sites) UpdateSectionGroup(ctx context.Context, u *quire.User, orgID, siteID, id string, title, icon *string) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		g := findGroup(tree, id)
		if g == nil {
			return "", quire.NotFound("site section group")
		}
		if title != nil {
			t := strings.TrimSpace(*title)
			if t == "" {
				return "", quire.Invalid("title", "a section group title has 1 to 100 characters")
			}
			g.Title = t
		}
		if icon != nil {
			g.Icon = *icon
		}
		return g.ID, st.UpdateSiteSectionGroup(ctx, g)
	})
}

// DeleteSectionGroup deletes a group; what it holds moves, in order, to the
// end of the group's parent. It reports whether the group was there.
func (s *Sites) DeleteSectionGroup(ctx context.Context, orgID, siteID, id string) (bool, error) {
	return s.deleteSiteItem(ctx, orgID, siteID, func(st quire.Store, tree *quire.SiteTree) (bool, error) {
		g := findGroup(tree, id)
		if g == nil {
			return false, nil
		}
		var kids []quire.Sibling
		for _, sec := range tree.Sections {
			if sec.Group == g.ID {
				kids = append(kids, quire.Sibling{Kind: quire.SiblingKind(quire.SiteItemSection), ID: sec.ID, Position: sec.Position})
			}
		}
		for _, c := range tree.Groups {
			if c.Parent == g.ID {
				kids = append(kids, quire.Sibling{Kind: quire.SiblingKind(quire.SiteItemGroup), ID: c.ID, Position: c.Position})
			}
		}
		sortSiblings(kids)
		key, err := lastSiteKey(ctx, st, g.SiteID, quire.SiteItemSection, g.Parent)
		if err != nil {
			return false, err
		}
		for _, k := range kids {
			if err := st.PlaceSiteItem(ctx, quire.SiteItemKind(k.Kind), k.ID, g.Parent, key); err != nil {
				return false, err
			}
			key = quire.KeyBetween(key, "")
		}
		return st.DeleteSiteSectionGroup(ctx, g.ID)
	})
}

// AddSectionToGroup moves a section to the end of a group.
func (s *Sites) AddSectionToGroup(ctx context.Context, u *quire.User, orgID, siteID, groupID, sectionID string) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		if findGroup(tree, groupID) == nil {
			return "", quire.NotFound("site section group")
		}
		sec := findSection(tree, sectionID)
		if sec == nil {
			return "", quire.Invalid("sectionId", "section %q is not in this site", sectionID)
		}
		if sec.Group != groupID {
			key, err := lastSiteKey(ctx, st, site.ID, quire.SiteItemSection, groupID)
			if err != nil {
				return "", err
			}
			if err := st.PlaceSiteItem(ctx, quire.SiteItemSection, sec.ID, groupID, key); err != nil {
				return "", err
			}
		}
		return groupID, nil
	})
}

// RemoveSectionFromGroup moves a section out of a group, to the end of the
// group's parent. It reports whether the section was in the group.
func (s *Sites) RemoveSectionFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (bool, error) {
	return s.deleteSiteItem(ctx, orgID, siteID, func(st quire.Store, tree *quire.SiteTree) (bool, error) {
		g := findGroup(tree, groupID)
		if g == nil {
			return false, quire.NotFound("site section group")
		}
		sec := findSection(tree, sectionID)
		if sec == nil || sec.Group != g.ID {
			return false, nil
		}
		key, err := lastSiteKey(ctx, st, g.SiteID, quire.SiteItemSection, g.Parent)
		if err != nil {
			return false, err
		}
		return true, st.PlaceSiteItem(ctx, quire.SiteItemSection, sec.ID, g.Parent, key)
	})
}
