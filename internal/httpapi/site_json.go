package httpapi

import (
	"net/url"

	"quire/internal/quire"
	"quire/internal/service"
)

// siteJSON is the Site object.
type siteJSON struct {
	Object          string           `json:"object" enum:"site"`
	ID              string           `json:"id"`
	Type            string           `json:"type" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium"`
	Title           string           `json:"title"`
	Basename        string           `json:"basename,omitempty"`
	Proxy           *siteProxyJSON   `json:"proxy,omitempty"`
	Visibility      string           `json:"visibility" enum:"public,unlisted,share-link,visitor-auth"`
	Published       bool             `json:"published"`
	SiteSpaces      int              `json:"siteSpaces"`
	CreatedAt       string           `json:"createdAt" format:"date-time"`
	AdaptiveContent siteAdaptiveJSON `json:"adaptiveContent"`
	AgentsContext   string           `json:"agentsContext" enum:"excluded,included"`
	Features        []siteFeature    `json:"features"`
	URLs            siteURLs         `json:"urls"`
}

// siteProxyJSON is a site's proxy: the origin readers use and the address
// it forwards to.
type siteProxyJSON struct {
	Origin string `json:"origin"`
	Target string `json:"target"`
}

// siteAdaptiveJSON says whether adaptive content is on.
type siteAdaptiveJSON struct {
	Enabled bool `json:"enabled"`
}

// siteFeature is a premium feature of a site; Quire lists none.
type siteFeature struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Frozen bool   `json:"frozen"`
}

// siteURLs are the addresses of a site; published only once it is.
type siteURLs struct {
	Location  string `json:"location" format:"uri"`
	App       string `json:"app" format:"uri"`
	Published string `json:"published,omitempty" format:"uri"`
}

// publishedURL holds the address of a published item, when it has one.
type publishedURL struct {
	Published string `json:"published,omitempty" format:"uri"`
}

// siteBase returns the address Quire serves a site at,
// <base>/sites/<basename or id>/, followed for a share link's reader by
// ~share/<key>/; "" while the site is not published.
func (s *Server) siteBase(site *quire.Site, link *quire.SiteShareLink) string {
	if !site.Published {
		return ""
	}
	if link != nil {
		return s.urls.site(site.Name(), "~share", link.Key)
	}
	return s.urls.site(site.Name())
}

// siteOut converts a site.
func (s *Server) siteOut(site *quire.Site) siteJSON {
	out := siteJSON{Object: "site", ID: site.ID, Type: string(site.Type), Title: site.Title, Basename: site.Basename,
		Visibility: string(site.Visibility), Published: site.Published, SiteSpaces: site.SiteSpaces,
		CreatedAt: timestamp(site.CreatedAt), AdaptiveContent: siteAdaptiveJSON{Enabled: site.AdaptiveContent},
		AgentsContext: string(site.AgentsContext), Features: []siteFeature{},
		URLs: siteURLs{Location: s.urls.api("orgs", site.OrgID, "sites", site.ID), App: s.urls.app("o", site.OrgID, "sites", site.ID),
			Published: s.siteBase(site, nil)}}
	if site.Proxy != "" {
		out.Proxy = &siteProxyJSON{Origin: site.Proxy, Target: s.siteBase(site, nil)}
		if out.Proxy.Target == "" {
			out.Proxy.Target = out.URLs.Location
		}
	}
	return out
}

// siteSpaceJSON is the SiteSpace object.
type siteSpaceJSON struct {
	Object                          string       `json:"object" enum:"site-space"`
	ID                              string       `json:"id"`
	Path                            string       `json:"path"`
	Section                         string       `json:"section,omitempty"`
	Space                           spaceJSON    `json:"space"`
	Title                           string       `json:"title"`
	Default                         bool         `json:"default"`
	Condition                       string       `json:"condition,omitempty"`
	HasAdvancedCustomizationFeature bool         `json:"hasAdvancedCustomizationFeature"`
	URLs                            publishedURL `json:"urls"`
}

// siteSectionJSON is the SiteSection object.
type siteSectionJSON struct {
	Object       string          `json:"object" enum:"site-section"`
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	Description  string          `json:"description,omitempty"`
	Default      bool            `json:"default"`
	Path         string          `json:"path"`
	Condition    string          `json:"condition,omitempty"`
	SectionGroup string          `json:"sectionGroup,omitempty"`
	Icon         string          `json:"icon,omitempty"`
	SiteSpaces   []siteSpaceJSON `json:"siteSpaces"`
	URLs         publishedURL    `json:"urls"`
}

// siteGroupJSON is the SiteSectionGroup object; children are sections and
// groups.
type siteGroupJSON struct {
	Object       string            `json:"object" enum:"site-section-group"`
	ID           string            `json:"id"`
	Title        string            `json:"title"`
	SectionGroup string            `json:"sectionGroup,omitempty"`
	Icon         string            `json:"icon,omitempty"`
	Sections     []siteSectionJSON `json:"sections" doc:"Deprecated: the sections among children"`
	Children     []any             `json:"children" doc:"Sections and section groups, in order"`
}

// siteStructureJSON is the SiteStructure object: sections and groups, or
// site spaces.
type siteStructureJSON struct {
	Type      string `json:"type" enum:"sections,siteSpaces"`
	Structure []any  `json:"structure"`
}

// structureOut converts the published addresses and objects of one read
// of a site's structure.
type structureOut struct {
	s         *Server
	structure *service.SiteStructure
	base      string
}

// newStructureOut prepares the conversion of a structure.
func (s *Server) newStructureOut(st *service.SiteStructure) structureOut {
	return structureOut{s: s, structure: st, base: s.siteBase(st.Site, st.ShareLink)}
}

// sectionURL is a section's published address: the site's for the default
// section, else the site's followed by the section's path.
func (o structureOut) sectionURL(v *service.SiteSectionView) string {
	if o.base == "" || v.Default {
		return o.base
	}
	return o.base + url.PathEscape(v.Section.Path) + "/"
}

// siteSpace converts a site space.
func (o structureOut) siteSpace(v *service.SiteSpaceView) siteSpaceJSON {
	ss := v.SiteSpace
	out := siteSpaceJSON{Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.Section,
		Space: o.s.spaceOut(v.Space.Space, v.Space.Level), Title: v.Space.Space.Title, Default: v.Default,
		Condition: ss.Condition}
	container := o.base
	if v.Section != nil {
		container = o.sectionURL(v.Section)
	}
	if container != "" {
		out.URLs.Published = container
		if !v.Default {
			out.URLs.Published += url.PathEscape(ss.Path) + "/"
		}
	}
	return out
}

// section converts a section with its site spaces.
func (o structureOut) section(v *service.SiteSectionView) siteSectionJSON {
	sec := v.Section
	out := siteSectionJSON{Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description,
		Default: v.Default, Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.Group, Icon: sec.Icon,
		SiteSpaces: make([]siteSpaceJSON, 0, len(v.SiteSpaces)), URLs: publishedURL{Published: o.sectionURL(v)}}
	for _, ss := range v.SiteSpaces {
		out.SiteSpaces = append(out.SiteSpaces, o.siteSpace(ss))
	}
	return out
}

// group converts a section group with its children.
func (o structureOut) group(v *service.SiteGroupView) siteGroupJSON {
	g := v.Group
	out := siteGroupJSON{Object: "site-section-group", ID: g.ID, Title: g.Title, SectionGroup: g.Parent, Icon: g.Icon,
		Sections: []siteSectionJSON{}, Children: o.nodes(v.Children)}
	for _, n := range v.Children {
		if n.Section != nil {
			out.Sections = append(out.Sections, o.section(n.Section))
		}
	}
	return out
}

// nodes converts sections and groups in order.
func (o structureOut) nodes(nodes []service.SiteNode) []any {
	out := make([]any, 0, len(nodes))
	for _, n := range nodes {
		if n.Section != nil {
			out = append(out, o.section(n.Section))
		} else {
			out = append(out, o.group(n.Group))
		}
	}
	return out
}

// tree converts the whole structure.
func (o structureOut) tree() siteStructureJSON {
	if o.structure.HasSections {
		return siteStructureJSON{Type: "sections", Structure: o.nodes(o.structure.Nodes)}
	}
	out := siteStructureJSON{Type: "siteSpaces", Structure: make([]any, 0, len(o.structure.SiteSpaces))}
	for _, v := range o.structure.SiteSpaces {
		out.Structure = append(out.Structure, o.siteSpace(v))
	}
	return out
}

// shareLinkJSON is the ShareLink object.
type shareLinkJSON struct {
	Object    string       `json:"object" enum:"share-link"`
	ID        string       `json:"id"`
	CreatedAt string       `json:"createdAt" format:"date-time"`
	Name      string       `json:"name"`
	Active    bool         `json:"active"`
	URLs      publishedURL `json:"urls"`
}

// shareLinkOut converts a share link; its published address carries its
// key.
func (s *Server) shareLinkOut(site *quire.Site, l *quire.SiteShareLink) shareLinkJSON {
	out := shareLinkJSON{Object: "share-link", ID: l.ID, CreatedAt: timestamp(l.CreatedAt), Name: l.Name, Active: l.Active}
	if l.Key != "" {
		// The address carries the key: a link listed without it has none.
		out.URLs.Published = s.siteBase(site, l)
	}
	return out
}
