package service

import (
	"context"
	"fmt"
	"strings"

	"quire/internal/quire"
)

// SiteCreate is what a new site starts with; zero values take defaults.
type SiteCreate struct {
	Type       quire.SiteType
	Title      string
	Visibility quire.Visibility
	// Spaces become the site spaces at the site's root, in order.
	Spaces []string
}

// Site returns a site of an organization; a site of another organization
// is not found.
func (s *Sites) Site(ctx context.Context, orgID, id string) (*quire.Site, error) {
	return siteIn(ctx, s.svc.store, orgID, id)
}

// siteIn reads a site of an organization on st.
func siteIn(ctx context.Context, st quire.Store, orgID, id string) (*quire.Site, error) {
	site, err := st.Site(ctx, id)
	if quire.IsNotFound(err) || (err == nil && site.OrgID != orgID) {
		return nil, quire.NotFound("site")
	}
	return site, err
}

// Sites lists an organization's sites.
func (s *Sites) Sites(ctx context.Context, f quire.SiteFilter, p quire.Page) (*quire.List[*quire.Site], error) {
	return s.svc.store.Sites(ctx, f, p)
}

// CreateSite creates a site with a new private key signing its visitor
// tokens; the spaces given become its site spaces.
func (s *Sites) CreateSite(ctx context.Context, u *quire.User, orgID string, in SiteCreate) (*quire.Site, error) {
	if in.Type == "" {
		in.Type = quire.SiteBasic
	}
	if in.Visibility == "" {
		in.Visibility = quire.VisibilityPublic
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		in.Title = "Untitled site"
	}
	if len([]rune(in.Title)) < 2 {
		return nil, quire.Invalid("title", "a site title has 2 to 128 characters")
	}
	id := quire.NewID()
	auth, err := s.newSitePublishingAuth(ctx, id)
	if err != nil {
		return nil, err
	}
	var out *quire.Site
	err = s.svc.store.WithTx(ctx, func(st quire.Store) error {
		now := s.svc.Now()
		site := &quire.Site{ID: id, OrgID: orgID, Type: in.Type, Title: in.Title, Visibility: in.Visibility,
			AgentsContext: quire.AgentsIncluded, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateSite(ctx, site); err != nil {
			return err
		}
		if _, err := st.EnsureSitePublishingAuth(ctx, auth); err != nil {
			return err
		}
		for i, id := range in.Spaces {
			if _, err := s.addSiteSpace(ctx, st, u, site, id, "", fmt.Sprintf("spaces[%d]", i)); err != nil {
				return err
			}
		}
		var err error
		out, err = st.Site(ctx, site.ID)
		return err
	})
	return out, err
}

// UpdateSite applies a PATCH. A default site space becomes the default of
// the section (or root) holding it; a default section must be one of the
// site's.
func (s *Sites) UpdateSite(ctx context.Context, orgID, id string, upd quire.SiteUpdate, defaultSiteSpace *string) (*quire.Site, error) {
	if upd.Title != nil {
		t := strings.TrimSpace(*upd.Title)
		if len([]rune(t)) < 2 {
			return nil, quire.Invalid("title", "a site title has 2 to 128 characters")
		}
		upd.Title = &t
	}
	if upd.Basename != nil && strings.TrimSpace(*upd.Basename) == "" {
		return nil, quire.Invalid("basename", "a basename cannot be blank")
	}
	var out *quire.Site
	err := s.svc.store.WithTx(ctx, func(st quire.Store) error {
		site, err := siteIn(ctx, st, orgID, id)
		if err != nil {
			return err
		}
		if upd.DefaultSection != nil || defaultSiteSpace != nil {
			tree, err := st.SiteTree(ctx, site.ID)
			if err != nil {
				return err
			}
			if upd.DefaultSection != nil && findSection(tree, *upd.DefaultSection) == nil {
				return quire.Invalid("defaultSiteSection", "section %q is not in this site", *upd.DefaultSection)
			}
			if defaultSiteSpace != nil {
				ss := findSiteSpace(tree, *defaultSiteSpace)
				if ss == nil {
					return quire.Invalid("defaultSiteSpace", "site space %q is not in this site", *defaultSiteSpace)
				}
				if ss.Section == "" {
					upd.DefaultSiteSpace = &ss.ID
				} else if err := st.UpdateSiteSection(ctx, ss.Section, quire.SiteSectionUpdate{DefaultSiteSpace: &ss.ID}); err != nil {
					return err
				}
			}
		}
		out, err = st.UpdateSite(ctx, site.ID, upd)
		if err != nil {
			return err
		}
		return auditSiteChange(ctx, st, site, out)
	})
	return out, err
}

// auditSiteChange records the publishing and visibility changes between
// a site as it was and as it is.
func auditSiteChange(ctx context.Context, st quire.Store, was, is *quire.Site) error {
	if was.Published != is.Published {
		action := quire.AuditSiteUnpublished
		if is.Published {
			action = quire.AuditSitePublished
		}
		if err := audit(ctx, st, quire.AuditEvent{OrgID: is.OrgID, Action: action, TargetKind: quire.AuditTargetSite,
			TargetID: is.ID, Details: map[string]string{"title": is.Title}}); err != nil {
			return err
		}
	}
	if was.Visibility != is.Visibility {
		return audit(ctx, st, quire.AuditEvent{OrgID: is.OrgID, Action: quire.AuditSiteVisibilityChanged,
			TargetKind: quire.AuditTargetSite, TargetID: is.ID,
			Details: map[string]string{"title": is.Title, "from": string(was.Visibility), "to": string(is.Visibility)}})
	}
	return nil
}

// PublishSite sets whether a site is published.
func (s *Sites) PublishSite(ctx context.Context, orgID, id string, published bool) (*quire.Site, error) {
	return s.UpdateSite(ctx, orgID, id, quire.SiteUpdate{Published: &published}, nil)
}

// DeleteSite deletes a site with its structure and share links; the spaces
// stay. It reports whether the site was there.
func (s *Sites) DeleteSite(ctx context.Context, orgID, id string) (bool, error) {
	var ok bool
	err := s.svc.store.WithTx(ctx, func(st quire.Store) error {
		if _, err := siteIn(ctx, st, orgID, id); err != nil {
			if quire.IsNotFound(err) {
				return nil
			}
			return err
		}
		var err error
		ok, err = st.DeleteSite(ctx, id)
		return err
	})
	return ok, err
}

// findSection returns the section of a tree with an id, or nil.
func findSection(t *quire.SiteTree, id string) *quire.SiteSection {
	for _, sec := range t.Sections {
		if sec.ID == id {
			return sec
		}
	}
	return nil
}

// findSiteSpace returns the site space of a tree with an id, or nil.
func findSiteSpace(t *quire.SiteTree, id string) *quire.SiteSpace {
	for _, ss := range t.SiteSpaces {
		if ss.ID == id {
			return ss
		}
	}
	return nil
}

// findGroup returns the section group of a tree with an id, or nil.
func findGroup(t *quire.SiteTree, id string) *quire.SiteSectionGroup {
	for _, g := range t.Groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}
