package quire

import (
	"context"
	"time"
)

// SiteType is the plan of a site.
type SiteType string

// Site types.
const (
	SiteBasic         SiteType = "basic"
	SitePremium       SiteType = "premium"
	SiteUltimate      SiteType = "ultimate"
	SiteSponsored     SiteType = "sponsored"
	SiteLegacyBasic   SiteType = "legacy-basic"
	SiteLegacyPremium SiteType = "legacy-premium"
)

// SiteAgentsContext says whether AI agents may read a site.
type SiteAgentsContext string

// Agents contexts.
const (
	AgentsIncluded SiteAgentsContext = "included"
	AgentsExcluded SiteAgentsContext = "excluded"
)

// Site is how spaces reach readers: a published structure of site spaces,
// optionally in sections and section groups.
type Site struct {
	ID              string
	OrgID           string
	Type            SiteType
	Title           string
	Basename        string // "" when none is set; the published address then uses the id
	Visibility      Visibility
	Published       bool
	AdaptiveContent bool
	AgentsContext   SiteAgentsContext
	Proxy           string // proxy origin, "" for none
	// DefaultSection and DefaultSiteSpace are the chosen defaults (the
	// site space at the root); "" or an id no longer there falls back to
	// the first item in order.
	DefaultSection   string
	DefaultSiteSpace string
	// SiteSpaces counts the site spaces of the site, on reads.
	SiteSpaces int
	// Version counts the writes to what the site shows its readers (see
	// SiteVersion), on reads.
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Name is the segment naming the site in its published address: its
// basename, or its id when it has none.
func (s *Site) Name() string {
	if s.Basename == "" {
		return s.ID
	}
	return s.Basename
}

// SiteVersion names what a published site shows its readers at one time.
// The store moves Version in the transaction of every write to the site,
// its section groups, sections, site spaces and share links, to the
// title, emoji, icon, language, current revision or trash state of a
// space it publishes, and to the latest version (or the set) of its
// organization's OpenAPI specifications; so whoever keeps something
// derived from these may keep it as long as the version stays.
type SiteVersion struct {
	ID      string
	Version int64
}

// SiteUpdate holds the fields a PATCH may change; nil keeps a field. A
// pointer to "" clears Basename or Proxy.
type SiteUpdate struct {
	Title            *string
	Visibility       *Visibility
	Basename         *string
	AdaptiveContent  *bool
	AgentsContext    *SiteAgentsContext
	Proxy            *string
	Published        *bool
	DefaultSection   *string
	DefaultSiteSpace *string
}

// SiteFilter narrows a site list.
type SiteFilter struct {
	OrgID     string
	SpaceID   string     // sites with a site space of this space
	Title     string     // title contains, case-insensitive
	Published *bool      // published or not
	Types     []SiteType // any of these types
}

// PublishedSiteFilter selects published sites across organizations.
type PublishedSiteFilter struct {
	// Visibilities are those the sites may have; none selects nothing.
	Visibilities []Visibility
	// SpaceID, when set, keeps the sites that publish this space.
	SpaceID string
}

// SiteSectionGroup groups sections of a site; a group may sit in another
// group that sits at the root.
type SiteSectionGroup struct {
	ID        string
	SiteID    string
	Parent    string // "" at the site's root
	Title     string
	Icon      string
	Position  string
	CreatedAt time.Time
}

// SiteSection is a section of a site, holding its own site spaces.
type SiteSection struct {
	ID          string
	SiteID      string
	Group       string // "" at the site's root
	Title       string
	Path        string
	Description string
	Icon        string
	Condition   string // "" for none
	// DefaultSiteSpace is the chosen default site space; "" or an id no
	// longer there falls back to the first in order.
	DefaultSiteSpace string
	Position         string
	CreatedAt        time.Time
}

// SiteSectionUpdate holds the fields a section PATCH may change; nil keeps
// a field, a pointer to "" clears the optional ones.
type SiteSectionUpdate struct {
	Title            *string
	Path             *string
	Description      *string
	Icon             *string
	Condition        *string
	DefaultSiteSpace *string
}

// SiteSpace is a space published in a site, at its root or in a section.
type SiteSpace struct {
	ID        string
	SiteID    string
	Section   string // "" at the site's root
	SpaceID   string
	Path      string
	Condition string // "" for none
	Position  string
	CreatedAt time.Time
}

// SiteSpaceUpdate holds the fields a site space PATCH may change; nil
// keeps a field, a pointer to "" clears Condition.
type SiteSpaceUpdate struct {
	Path      *string
	Condition *string
	SpaceID   *string
}

// SiteTree is the whole structure of a site, each kind in position order
// (ties by id).
type SiteTree struct {
	Groups     []*SiteSectionGroup
	Sections   []*SiteSection
	SiteSpaces []*SiteSpace
	// Spaces are the spaces the site spaces publish.
	Spaces []*Space
}

// SiteShareLink opens a share-link site to whoever holds its key.
type SiteShareLink struct {
	ID        string
	SiteID    string
	Name      string
	Key       string // random secret carried in the link's address
	Active    bool
	CreatedAt time.Time
}

// SiteShareLinkUpdate holds the fields a share link PATCH may change.
type SiteShareLinkUpdate struct {
	Name   *string
	Active *bool
}

// SiteAdaptiveSchema is the JSON Schema of a site's visitor attributes.
type SiteAdaptiveSchema struct {
	JSON      []byte
	UpdatedAt time.Time
}

// SiteItemKind names a kind of item of a site's structure.
type SiteItemKind string

// Site structure item kinds; they are also the sibling kinds of moves.
const (
	SiteItemSpace   SiteItemKind = "site-space"
	SiteItemSection SiteItemKind = "site-section"
	SiteItemGroup   SiteItemKind = "site-section-group"
)

// SiteStore persists sites and their structure. Deleting a site deletes its
// structure and share links; the spaces stay.
type SiteStore interface {
	// CreateSite stores a site.
	CreateSite(ctx context.Context, s *Site) error
	// Site returns a site with its site space count. Returns ENOTFOUND.
	Site(ctx context.Context, id string) (*Site, error)
	// Sites lists sites in creation order.
	Sites(ctx context.Context, f SiteFilter, p Page) (*List[*Site], error)
	// UpdateSite applies upd. Returns ENOTFOUND, or ECONFLICT when the
	// basename is taken by another site.
	UpdateSite(ctx context.Context, id string, upd SiteUpdate) (*Site, error)
	// DeleteSite deletes a site and everything it holds; it reports whether
	// it existed.
	DeleteSite(ctx context.Context, id string) (bool, error)
	// PublishedSiteByName returns the published site whose basename, or
	// else whose id, is name. Returns ENOTFOUND.
	PublishedSiteByName(ctx context.Context, name string) (*Site, error)
	// PublishedSiteVersion returns the id and version of the site
	// PublishedSiteByName returns, with one cheap read. Returns ENOTFOUND.
	PublishedSiteVersion(ctx context.Context, name string) (SiteVersion, error)
	// PublishedSitesOf lists, across organizations, the published sites
	// the filter selects, by title, at most limit of them.
	PublishedSitesOf(ctx context.Context, f PublishedSiteFilter, limit int) ([]*Site, error)

	// SiteTree reads the whole structure of a site.
	SiteTree(ctx context.Context, siteID string) (*SiteTree, error)
	// LastSitePosition returns the highest position among the items of
	// kind under parent ("" for the root): site spaces under a section,
	// or sections and section groups (together) under a group. It reads
	// the end of an index, never the siblings. "" when there are none.
	LastSitePosition(ctx context.Context, siteID string, kind SiteItemKind, parent string) (string, error)
	// SitePathsLike returns the paths of the items of kind under parent
	// (site spaces under a section; sections anywhere in the site) equal
	// to base or starting with base followed by "-".
	SitePathsLike(ctx context.Context, siteID string, kind SiteItemKind, parent, base string) ([]string, error)

	// CreateSiteSectionGroup stores a section group.
	CreateSiteSectionGroup(ctx context.Context, g *SiteSectionGroup) error
	// UpdateSiteSectionGroup sets a group's title and icon. Returns ENOTFOUND.
	UpdateSiteSectionGroup(ctx context.Context, g *SiteSectionGroup) error
	// DeleteSiteSectionGroup deletes a group; it reports whether it existed.
	DeleteSiteSectionGroup(ctx context.Context, id string) (bool, error)

	// CreateSiteSection stores a section.
	CreateSiteSection(ctx context.Context, s *SiteSection) error
	// UpdateSiteSection applies upd. Returns ENOTFOUND, or ECONFLICT when
	// the path is taken.
	UpdateSiteSection(ctx context.Context, id string, upd SiteSectionUpdate) error
	// DeleteSiteSection deletes a section with its site spaces; it reports
	// whether it existed.
	DeleteSiteSection(ctx context.Context, id string) (bool, error)

	// CreateSiteSpace stores a site space. Returns ECONFLICT when the path
	// is taken.
	CreateSiteSpace(ctx context.Context, s *SiteSpace) error
	// UpdateSiteSpace applies upd. Returns ENOTFOUND, or ECONFLICT when the
	// path is taken.
	UpdateSiteSpace(ctx context.Context, id string, upd SiteSpaceUpdate) error
	// DeleteSiteSpace deletes a site space; it reports whether it existed.
	DeleteSiteSpace(ctx context.Context, id string) (bool, error)

	// PlaceSiteItem sets the parent (a section for a site space, a group
	// for a section or group; "" for the root) and position of an item.
	// Returns ENOTFOUND.
	PlaceSiteItem(ctx context.Context, kind SiteItemKind, id, parent, position string) error

	// SiteAdaptiveSchema returns the site's visitor schema. Returns
	// ENOTFOUND when none is set.
	SiteAdaptiveSchema(ctx context.Context, siteID string) (*SiteAdaptiveSchema, error)
	// PutSiteAdaptiveSchema sets the site's visitor schema.
	PutSiteAdaptiveSchema(ctx context.Context, siteID string, s *SiteAdaptiveSchema) error
	// SiteCustomization returns the site's stored customization JSON, nil
	// when none was set.
	SiteCustomization(ctx context.Context, siteID string) ([]byte, error)
	// PutSiteCustomization sets the site's customization JSON.
	PutSiteCustomization(ctx context.Context, siteID string, settings []byte) error

	// CreateSiteShareLink stores a share link.
	CreateSiteShareLink(ctx context.Context, l *SiteShareLink) error
	// SiteShareLinks lists a site's share links by creation.
	SiteShareLinks(ctx context.Context, siteID string, p Page) (*List[*SiteShareLink], error)
	// SiteShareLink returns a share link of a site. Returns ENOTFOUND.
	SiteShareLink(ctx context.Context, siteID, id string) (*SiteShareLink, error)
	// SiteShareLinkByKey returns the share link of a site holding key.
	// Returns ENOTFOUND.
	SiteShareLinkByKey(ctx context.Context, siteID, key string) (*SiteShareLink, error)
	// UpdateSiteShareLink applies upd. Returns ENOTFOUND.
	UpdateSiteShareLink(ctx context.Context, siteID, id string, upd SiteShareLinkUpdate) (*SiteShareLink, error)
	// DeleteSiteShareLink deletes a share link; it reports whether it
	// existed.
	DeleteSiteShareLink(ctx context.Context, siteID, id string) (bool, error)
}
