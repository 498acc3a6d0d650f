package service

import (
	"context"
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/quire"
)

// SiteItemResult is a site's structure after a write, and the id of the
// item the write made or changed.
type SiteItemResult struct {
	Structure *SiteStructure
	ID        string
}

// siteWrite runs fn on a site of the organization in one transaction and
// reads the structure after it. The defaults are pinned before and after,
// so that the write moves none but those it deletes or chooses.
func (s *Sites) siteWrite(ctx context.Context, u *quire.User, orgID, siteID string, fn func(st quire.Store, site *quire.Site) (string, error)) (*SiteItemResult, error) {
	var out *SiteItemResult
	err := s.svc.store.WithTx(ctx, func(st quire.Store) error {
		site, err := siteIn(ctx, st, orgID, siteID)
		if err != nil {
			return err
		}
		if err := pinDefaults(ctx, st, site); err != nil {
			return err
		}
		id, err := fn(st, site)
		if err != nil {
			return err
		}
		if site, err = st.Site(ctx, siteID); err != nil {
			return err
		}
		if err := pinDefaults(ctx, st, site); err != nil {
			return err
		}
		structure, err := s.siteStructure(ctx, st, u, site)
		if err != nil {
			return err
		}
		out = &SiteItemResult{Structure: structure, ID: id}
		return nil
	})
	return out, err
}

// siteSpaceSource checks that a space can be published in a site of the
// organization: live, in the organization, readable by the caller.
func (s *Sites) siteSpaceSource(ctx context.Context, st quire.Store, u *quire.User, orgID, field, id string) (*quire.Space, error) {
	bad := quire.Invalid(field, "space %q does not exist in this organization", id)
	sp, err := st.Space(ctx, id)
	if quire.IsNotFound(err) || (err == nil && (sp.OrgID != orgID || sp.DeletedAt != nil)) {
		return nil, bad
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.svc.require(ctx, st, u, ScopeSpace, id, quire.LevelRead, quire.EFORBIDDEN); err != nil {
		if quire.IsNotFound(err) {
			return nil, bad
		}
		return nil, err
	}
	return sp, nil
}

// freePath derives a path from a title that no item next to it uses: the
// slug, or the slug with -2, -3... It reads only the paths that could
// clash.
func freePath(ctx context.Context, st quire.Store, siteID string, kind quire.SiteItemKind, parent, title string) (string, error) {
	base := content.Slugify(title)
	taken, err := st.SitePathsLike(ctx, siteID, kind, parent, base)
	if err != nil {
		return "", err
	}
	used := make(map[string]bool, len(taken))
	for _, p := range taken {
		used[p] = true
	}
	path := base
	for n := 2; used[path]; n++ {
		path = base + "-" + strconv.Itoa(n)
	}
	return path, nil
}

// lastSiteKey returns a key after every item of kind under parent, read
// from the end of an index.
func lastSiteKey(ctx context.Context, st quire.Store, siteID string, kind quire.SiteItemKind, parent string) (string, error) {
	last, err := st.LastSitePosition(ctx, siteID, kind, parent)
	if err != nil {
		return "", err
	}
	return quire.KeyBetween(last, ""), nil
}

// addSiteSpace publishes a space in a section ("" for the root) of a site,
// last.
func (s *Sites) addSiteSpace(ctx context.Context, st quire.Store, u *quire.User, site *quire.Site, spaceID, section, field string) (string, error) {
	sp, err := s.siteSpaceSource(ctx, st, u, site.OrgID, field, spaceID)
	if err != nil {
		return "", err
	}
	path, err := freePath(ctx, st, site.ID, quire.SiteItemSpace, section, sp.Title)
	if err != nil {
		return "", err
	}
	pos, err := lastSiteKey(ctx, st, site.ID, quire.SiteItemSpace, section)
	if err != nil {
		return "", err
	}
	ss := &quire.SiteSpace{ID: quire.NewID(), SiteID: site.ID, Section: section, SpaceID: sp.ID, Path: path,
		Position: pos, CreatedAt: s.svc.Now()}
	return ss.ID, st.CreateSiteSpace(ctx, ss)
}

// AddSiteSpace publishes a space in a site: in the section given, else in
// the default section, else at the root when the site has no sections.
func (s *Sites) AddSiteSpace(ctx context.Context, u *quire.User, orgID, siteID, spaceID, sectionID string) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		section := sectionID
		if section != "" {
			tree, err := st.SiteTree(ctx, site.ID)
			if err != nil {
				return "", err
			}
			if findSection(tree, section) == nil {
				return "", quire.Invalid("sectionId", "section %q is not in this site", section)
			}
		} else {
			structure, err := s.siteStructure(ctx, st, u, site)
			if err != nil {
				return "", err
			}
			for _, sec := range structure.Sections {
				if sec.Default {
					section = sec.Section.ID
				}
			}
		}
		return s.addSiteSpace(ctx, st, u, site, spaceID, section, "spaceId")
	})
}

// UpdateSiteSpace applies a site space PATCH.
func (s *Sites) UpdateSiteSpace(ctx context.Context, u *quire.User, orgID, siteID, id string, upd quire.SiteSpaceUpdate) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		ss := findSiteSpace(tree, id)
		if ss == nil {
			return "", quire.NotFound("site space")
		}
		if upd.Path != nil {
			if err := checkSitePath("path", *upd.Path); err != nil {
				return "", err
			}
			for _, o := range tree.SiteSpaces {
				if o.ID != ss.ID && o.Section == ss.Section && o.Path == *upd.Path {
					return "", quire.Invalid("path", "another site space next to it already uses the path %q", *upd.Path)
				}
			}
		}
		if upd.Condition != nil && *upd.Condition != "" {
			if err := s.checkCondition(ctx, st, site, "condition", *upd.Condition); err != nil {
				return "", err
			}
		}
		if upd.SpaceID != nil {
			if _, err := s.siteSpaceSource(ctx, st, u, site.OrgID, "spaceId", *upd.SpaceID); err != nil {
				return "", err
			}
		}
		return ss.ID, st.UpdateSiteSpace(ctx, ss.ID, upd)
	})
}

// DeleteSiteSpace removes a site space from a site; the default of its
// section falls to the first remaining. It reports whether it was there.
func (s *Sites) DeleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	return s.deleteSiteItem(ctx, orgID, siteID, func(st quire.Store, tree *quire.SiteTree) (bool, error) {
		if findSiteSpace(tree, id) == nil {
			return false, nil
		}
		return st.DeleteSiteSpace(ctx, id)
	})
}

// deleteSiteItem runs a deletion in a site of the organization; a site
// that is not there deletes nothing.
func (s *Sites) deleteSiteItem(ctx context.Context, orgID, siteID string, fn func(st quire.Store, tree *quire.SiteTree) (bool, error)) (bool, error) {
	var ok bool
	err := s.svc.store.WithTx(ctx, func(st quire.Store) error {
		site, err := siteIn(ctx, st, orgID, siteID)
		if err != nil {
			return err
		}
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return err
		}
		if ok, err = fn(st, tree); err != nil || !ok {
			return err
		}
		return pinDefaults(ctx, st, site)
	})
	return ok, err
}

// checkSitePath checks that a path is one segment of a published address.
func checkSitePath(field, path string) error {
	if strings.TrimSpace(path) == "" {
		return quire.Invalid(field, "a path cannot be blank")
	}
	if strings.ContainsAny(path, "/?#") {
		return quire.Invalid(field, "a path is one segment of an address: no /, ? or #")
	}
	return nil
}
