package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// SectionPath names a section of a site.
type SectionPath struct {
	SitePath
	SiteSectionID string `path:"siteSectionId"`
}

// GroupPath names a section group of a site.
type GroupPath struct {
	SitePath
	SiteSectionGroupID string `path:"siteSectionGroupId"`
}

// SiteSpacePath names a site space of a site.
type SiteSpacePath struct {
	SitePath
	SiteSpaceID string `path:"siteSpaceId"`
}

// sectionOf converts the section a write made or changed.
func (s *Server) sectionOf(r *service.SiteItemResult) (*body[siteSectionJSON], error) {
	v := r.Structure.SectionByID(r.ID)
	if v == nil {
		return nil, quire.NotFound("site section")
	}
	return reply(s.newStructureOut(r.Structure).section(v)), nil
}

// groupOf converts the group a write made or changed.
func (s *Server) groupOf(r *service.SiteItemResult) (*body[siteGroupJSON], error) {
	v := r.Structure.GroupByID(r.ID)
	if v == nil {
		return nil, quire.NotFound("site section group")
	}
	return reply(s.newStructureOut(r.Structure).group(v)), nil
}

// siteSpaceOf converts the site space a write made or changed.
func (s *Server) siteSpaceOf(r *service.SiteItemResult) (*body[siteSpaceJSON], error) {
	v := r.Structure.SiteSpaceByID(r.ID)
	if v == nil {
		return nil, quire.NotFound("site space")
	}
	return reply(s.newStructureOut(r.Structure).siteSpace(v)), nil
}

func (s *Server) listSiteSections(ctx context.Context, in *struct {
	SitePath
	ShareKeyParam
	ListParams
}) (*body[listOf[siteSectionJSON]], error) {
	st, l, err := s.siteSvc.SiteSections(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.ShareKey, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.newStructureOut(st).section)), nil
}

func (s *Server) addSectionToSite(ctx context.Context, in *struct {
	SitePath
	Body struct {
		SpaceID string           `json:"spaceId" minLength:"1" doc:"Space the section's first site space publishes"`
		Title   nullable[string] `json:"title,omitempty" minLength:"2" maxLength:"128"`
		Icon    nullable[string] `json:"icon,omitempty" maxLength:"50"`
	}
}) (*body[siteSectionJSON], error) {
	r, err := s.siteSvc.AddSection(ctx, userFrom(ctx), in.OrganizationID, in.SiteID,
		service.SectionCreate{SpaceID: in.Body.SpaceID, Title: in.Body.Title.Value, Icon: in.Body.Icon.Value})
	if err != nil {
		return nil, err
	}
	return s.sectionOf(r)
}

func (s *Server) updateSiteSection(ctx context.Context, in *struct {
	SectionPath
	Body struct {
		Title            *string          `json:"title,omitempty" minLength:"2" maxLength:"128"`
		Path             *string          `json:"path,omitempty" minLength:"1" maxLength:"100"`
		DefaultSiteSpace *string          `json:"defaultSiteSpace,omitempty" minLength:"1" doc:"Site space of this section to make its default"`
		Condition        nullable[string] `json:"condition,omitempty" maxLength:"1024" doc:"Condition on the visitor's claims deciding whether the section is shown; null removes it"`
		Icon             nullable[string] `json:"icon,omitempty" maxLength:"50"`
		Description      nullable[string] `json:"description,omitempty" maxLength:"256"`
	}
}) (*body[siteSectionJSON], error) {
	b := in.Body
	upd := quire.SiteSectionUpdate{Title: b.Title, Path: b.Path, DefaultSiteSpace: b.DefaultSiteSpace,
		Condition: b.Condition.ptr(), Icon: b.Icon.ptr(), Description: b.Description.ptr()}
	r, err := s.siteSvc.UpdateSection(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.SiteSectionID, upd)
	if err != nil {
		return nil, err
	}
	return s.sectionOf(r)
}

func (s *Server) deleteSiteSection(ctx context.Context, in *SectionPath) (*statusOnly, error) {
	ok, err := s.siteSvc.DeleteSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

// siteItemPointer names an item of a site's structure in sortSiteStructure.
type siteItemPointer struct {
	Type string `json:"type" enum:"site-space,site-section,site-section-group"`
	ID   string `json:"id" minLength:"1"`
}

// anchor converts the pointer.
func (p *siteItemPointer) anchor() *service.SiteAnchor {
	if p == nil {
		return nil
	}
	return &service.SiteAnchor{Kind: quire.SiteItemKind(p.Type), ID: p.ID}
}

// sitePositionInput places an item before and/or after another.
type sitePositionInput struct {
	Before *siteItemPointer `json:"before,omitempty"`
	After  *siteItemPointer `json:"after,omitempty"`
}

// domain converts the position.
func (p *sitePositionInput) domain() service.SitePosition {
	if p == nil {
		return service.SitePosition{}
	}
	return service.SitePosition{Before: p.Before.anchor(), After: p.After.anchor()}
}

func (s *Server) sortSiteStructure(ctx context.Context, in *struct {
	SitePath
	Body struct {
		Item     siteItemPointer   `json:"item" doc:"The site space, section or section group to move"`
		Position sitePositionInput `json:"position" doc:"Where it goes; with neither before nor after, at the end of where it is"`
	}
}) (*body[any], error) {
	kind := quire.SiteItemKind(in.Body.Item.Type)
	r, err := s.siteSvc.MoveSiteItem(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, kind, in.Body.Item.ID, in.Body.Position.domain())
	if err != nil {
		return nil, err
	}
	var out any
	switch kind {
	case quire.SiteItemSpace:
		b, err := s.siteSpaceOf(r)
		if err != nil {
			return nil, err
		}
		out = b.Body
	case quire.SiteItemSection:
		b, err := s.sectionOf(r)
		if err != nil {
			return nil, err
		}
		out = b.Body
	default:
		b, err := s.groupOf(r)
		if err != nil {
			return nil, err
		}
		out = b.Body
	}
	return reply(out), nil
}

// sectionPosition places a moved section before and/or after another.
type sectionPosition struct {
	Before *sectionPointer `json:"before,omitempty"`
	After  *sectionPointer `json:"after,omitempty"`
}

// sectionPointer names a section a moved section goes next to.
type sectionPointer struct {
	Type        string `json:"type" enum:"site-section"`
	SiteSection string `json:"siteSection" minLength:"1"`
}

func (s *Server) moveSiteSection(ctx context.Context, in *struct {
	SectionPath
	Body *struct {
		Position *sectionPosition `json:"position,omitempty" doc:"Where the section goes; without it, at the end of where it is"`
	} `required:"false"`
}) (*body[siteSectionJSON], error) {
	var pos service.SitePosition
	if in.Body != nil && in.Body.Position != nil {
		if p := in.Body.Position.Before; p != nil {
			pos.Before = &service.SiteAnchor{Kind: quire.SiteItemSection, ID: p.SiteSection}
		}
		if p := in.Body.Position.After; p != nil {
			pos.After = &service.SiteAnchor{Kind: quire.SiteItemSection, ID: p.SiteSection}
		}
	}
	r, err := s.siteSvc.MoveSiteItem(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, quire.SiteItemSection, in.SiteSectionID, pos)
	if err != nil {
		return nil, err
	}
	return s.sectionOf(r)
}

// siteSpacePosition places a moved site space before and/or after another.
type siteSpacePosition struct {
	Before *siteSpacePointer `json:"before,omitempty"`
	After  *siteSpacePointer `json:"after,omitempty"`
}

// siteSpacePointer names a site space a moved site space goes next to.
type siteSpacePointer struct {
	Type      string `json:"type" enum:"site-space"`
	SiteSpace string `json:"siteSpace" minLength:"1"`
}

func (s *Server) moveSiteSpace(ctx context.Context, in *struct {
	SiteSpacePath
	Body *struct {
		Position *siteSpacePosition `json:"position,omitempty" doc:"Where the site space goes; without it, at the end of where it is"`
	} `required:"false"`
}) (*body[siteSpaceJSON], error) {
	var pos service.SitePosition
	if in.Body != nil && in.Body.Position != nil {
		if p := in.Body.Position.Before; p != nil {
			pos.Before = &service.SiteAnchor{Kind: quire.SiteItemSpace, ID: p.SiteSpace}
		}
		if p := in.Body.Position.After; p != nil {
			pos.After = &service.SiteAnchor{Kind: quire.SiteItemSpace, ID: p.SiteSpace}
		}
	}
	r, err := s.siteSvc.MoveSiteItem(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, quire.SiteItemSpace, in.SiteSpaceID, pos)
	if err != nil {
		return nil, err
	}
	return s.siteSpaceOf(r)
}

// groupPosition places a moved section group before and/or after another.
type groupPosition struct {
	Before *groupPointer `json:"before,omitempty"`
	After  *groupPointer `json:"after,omitempty"`
}

// groupPointer names a section or group a moved group goes next to.
type groupPointer struct {
	Type string `json:"type" enum:"site-section,site-section-group"`
	ID   string `json:"id" minLength:"1"`
}

func (s *Server) moveSiteSectionGroup(ctx context.Context, in *struct {
	GroupPath
	Body *struct {
		Position *groupPosition `json:"position,omitempty" doc:"Where the group goes; without it, at the end of where it is"`
	} `required:"false"`
}) (*body[siteGroupJSON], error) {
	var pos service.SitePosition
	if in.Body != nil && in.Body.Position != nil {
		if p := in.Body.Position.Before; p != nil {
			pos.Before = &service.SiteAnchor{Kind: quire.SiteItemKind(p.Type), ID: p.ID}
		}
		if p := in.Body.Position.After; p != nil {
			pos.After = &service.SiteAnchor{Kind: quire.SiteItemKind(p.Type), ID: p.ID}
		}
	}
	r, err := s.siteSvc.MoveSiteItem(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, quire.SiteItemGroup, in.SiteSectionGroupID, pos)
	if err != nil {
		return nil, err
	}
	return s.groupOf(r)
}

func (s *Server) listSiteSectionGroups(ctx context.Context, in *struct {
	SitePath
	ListParams
}) (*body[listOf[siteGroupJSON]], error) {
	st, l, err := s.siteSvc.SiteSectionGroups(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.newStructureOut(st).group)), nil
}

func (s *Server) addSectionGroupToSite(ctx context.Context, in *struct {
	SitePath
	Body struct {
		Title    string           `json:"title" minLength:"1" maxLength:"100"`
		Icon     nullable[string] `json:"icon,omitempty" maxLength:"50"`
		Sections []string         `json:"sections,omitempty" maxItems:"1000" doc:"Sections to move into the group"`
		Parent   string           `json:"parent,omitempty" doc:"Group at the root to nest the group in; the root when omitted"`
	}
}) (*body[siteGroupJSON], error) {
	b := in.Body
	r, err := s.siteSvc.AddSectionGroup(ctx, userFrom(ctx), in.OrganizationID, in.SiteID,
		service.GroupCreate{Title: b.Title, Icon: b.Icon.Value, Sections: b.Sections, Parent: b.Parent})
	if err != nil {
		return nil, err
	}
	return s.groupOf(r)
}

func (s *Server) updateSiteSectionGroup(ctx context.Context, in *struct {
	GroupPath
	Body struct {
		Title *string          `json:"title,omitempty" minLength:"1" maxLength:"100"`
		Icon  nullable[string] `json:"icon,omitempty" maxLength:"50"`
	}
}) (*body[siteGroupJSON], error) {
	r, err := s.siteSvc.UpdateSectionGroup(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.Body.Title, in.Body.Icon.ptr())
	if err != nil {
		return nil, err
	}
	return s.groupOf(r)
}

func (s *Server) deleteSiteSectionGroup(ctx context.Context, in *GroupPath) (*statusOnly, error) {
	ok, err := s.siteSvc.DeleteSectionGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) addSectionToGroup(ctx context.Context, in *struct {
	GroupPath
	Body struct {
		SectionID string `json:"sectionId" minLength:"1" doc:"Section to move to the end of the group"`
	}
}) (*body[siteGroupJSON], error) {
	r, err := s.siteSvc.AddSectionToGroup(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.Body.SectionID)
	if err != nil {
		return nil, err
	}
	return s.groupOf(r)
}

func (s *Server) removeSectionFromGroup(ctx context.Context, in *struct {
	GroupPath
	SiteSectionID string `path:"siteSectionId"`
}) (*statusOnly, error) {
	ok, err := s.siteSvc.RemoveSectionFromGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.SiteSectionID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) listSiteSpaces(ctx context.Context, in *struct {
	SitePath
	ShareKeyParam
	ListParams
	Default string `query:"default" enum:"true,false" doc:"Only the site's default site space (true) or only the others (false)"`
}) (*body[listOf[siteSpaceJSON]], error) {
	var def *bool
	if in.Default != "" {
		d := in.Default == "true"
		def = &d
	}
	st, l, err := s.siteSvc.SiteSpaces(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.ShareKey, def, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.newStructureOut(st).siteSpace)), nil
}

func (s *Server) addSpaceToSite(ctx context.Context, in *struct {
	SitePath
	Body struct {
		SpaceID   string `json:"spaceId" minLength:"1"`
		SectionID string `json:"sectionId,omitempty" doc:"Section to add to; the default section, or the root when the site has no sections"`
	}
}) (*body[siteSpaceJSON], error) {
	r, err := s.siteSvc.AddSiteSpace(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.Body.SpaceID, in.Body.SectionID)
	if err != nil {
		return nil, err
	}
	return s.siteSpaceOf(r)
}

func (s *Server) updateSiteSpace(ctx context.Context, in *struct {
	SiteSpacePath
	Body struct {
		Path      *string          `json:"path,omitempty" minLength:"1" maxLength:"100"`
		Condition nullable[string] `json:"condition,omitempty" maxLength:"1024" doc:"Condition on the visitor's claims deciding whether the site space is shown; null removes it"`
		SpaceID   *string          `json:"spaceId,omitempty" minLength:"1" doc:"Space the site space publishes"`
	}
}) (*body[siteSpaceJSON], error) {
	b := in.Body
	upd := quire.SiteSpaceUpdate{Path: b.Path, Condition: b.Condition.ptr(), SpaceID: b.SpaceID}
	r, err := s.siteSvc.UpdateSiteSpace(ctx, userFrom(ctx), in.OrganizationID, in.SiteID, in.SiteSpaceID, upd)
	if err != nil {
		return nil, err
	}
	return s.siteSpaceOf(r)
}

func (s *Server) deleteSiteSpace(ctx context.Context, in *SiteSpacePath) (*statusOnly, error) {
	ok, err := s.siteSvc.DeleteSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
