package service

import (
	"encoding/json"
	"time"
)

// The layout of an organization export: the manifest at the top, and
// one GitBook-format repository per space under SpacesDir.
const (
	// ManifestFile is the name of the manifest, at the top of an export.
	ManifestFile = "manifest.json"
	// SpacesDir holds the spaces' repositories, one directory each.
	SpacesDir = "spaces"
	// ManifestFormat names the manifest's format in its "format" member.
	ManifestFormat = "quire-organization-export"
	// ManifestVersion is the version of the format this server writes
	// and the only one it reads.
	ManifestVersion = 1
)

// OrgManifest is the manifest of an organization export: what the
// spaces' repositories cannot hold. Ids are those of the exporting
// server; an import gives everything new ids and maps every reference.
type OrgManifest struct {
	Format       string               `json:"format"`
	Version      int                  `json:"version"`
	ExportedAt   time.Time            `json:"exportedAt"`
	Organization ManifestOrg          `json:"organization"`
	Users        []ManifestUser       `json:"users"`
	Members      []ManifestMember     `json:"members"`
	Teams        []ManifestTeam       `json:"teams"`
	Collections  []ManifestCollection `json:"collections"`
	Spaces       []ManifestSpace      `json:"spaces"`
	Sites        []ManifestSite       `json:"sites"`
}

// ManifestOrg is the organization's own settings.
type ManifestOrg struct {
	ID            string             `json:"id"`
	Title         string             `json:"title"`
	CreatedAt     time.Time          `json:"createdAt"`
	EmailDomains  []string           `json:"emailDomains"`
	Hostname      string             `json:"hostname,omitempty"`
	Type          string             `json:"type"`
	UseCase       string             `json:"useCase,omitempty"`
	CommunityType string             `json:"communityType,omitempty"`
	DefaultRole   string             `json:"defaultRole"` // "" for guest
	DefaultSite   string             `json:"defaultSite,omitempty"`
	SSO           bool               `json:"sso"`
	AI            bool               `json:"ai"`
	InviteLinks   bool               `json:"inviteLinks"`
	Plan          string             `json:"plan"`
	LogoURL       string             `json:"logoURL,omitempty"`
	MergeRules    ManifestMergeRules `json:"mergeRules"`
}

// ManifestMergeRules are merge rules; Users are user ids of the manifest.
type ManifestMergeRules struct {
	Type  string              `json:"type"`
	Rules []ManifestMergeRule `json:"rules"`
}

// ManifestMergeRule is one merge rule.
type ManifestMergeRule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users"`
	Expression string   `json:"expression,omitempty"`
}

// ManifestUser is a person the export names: a member, or the author of
// a comment, a reply or a reaction. An import matches them by email.
type ManifestUser struct {
	ID       string `json:"id"`
	Email    string `json:"email"`
	Name     string `json:"name"`
	PhotoURL string `json:"photoURL,omitempty"`
}

// ManifestMember is a membership; Role "" is a guest.
type ManifestMember struct {
	User     string    `json:"user"`
	Role     string    `json:"role"`
	Disabled bool      `json:"disabled"`
	SSO      bool      `json:"sso"`
	JoinedAt time.Time `json:"joinedAt"`
}

// ManifestTeam is a team with its members and their role in it.
type ManifestTeam struct {
	ID        string               `json:"id"`
	Title     string               `json:"title"`
	CreatedAt time.Time            `json:"createdAt"`
	Members   []ManifestTeamMember `json:"members"`
}

// ManifestTeamMember is one member of a team: owner or member.
type ManifestTeamMember struct {
	User string `json:"user"`
	Role string `json:"role"`
}

// ManifestGrant is a role given on a collection or space to a user or
// to a team (one of the two is set).
type ManifestGrant struct {
	User string `json:"user,omitempty"`
	Team string `json:"team,omitempty"`
	Role string `json:"role"`
}

// ManifestCollection is a collection; Parent is "" at the root.
// Collections are listed parents first, each level in order.
type ManifestCollection struct {
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	Description  string          `json:"description,omitempty"`
	Parent       string          `json:"parent,omitempty"`
	DefaultLevel string          `json:"defaultLevel"`
	Position     string          `json:"position"`
	CreatedAt    time.Time       `json:"createdAt"`
	UpdatedAt    time.Time       `json:"updatedAt"`
	Grants       []ManifestGrant `json:"grants"`
}

// ManifestSpace is a space: its settings, where its repository is, its
// grants and its comments. Spaces are listed in the order of the
// organization's tree.
type ManifestSpace struct {
	ID           string             `json:"id"`
	Title        string             `json:"title"`
	Emoji        string             `json:"emoji,omitempty"`
	IconURL      string             `json:"iconURL,omitempty"`
	Visibility   string             `json:"visibility"`
	EditMode     string             `json:"editMode"`
	Collection   string             `json:"collection,omitempty"`
	Language     string             `json:"language,omitempty"`
	DefaultLevel string             `json:"defaultLevel"`
	MergeRules   ManifestMergeRules `json:"mergeRules"`
	Position     string             `json:"position"`
	CreatedAt    time.Time          `json:"createdAt"`
	// Directory is the space's repository, relative to the export's
	// top: spaces/<name>.
	Directory string            `json:"directory"`
	Grants    []ManifestGrant   `json:"grants"`
	Comments  []ManifestComment `json:"comments"`
}

// ManifestComment is a comment on a space's content with its replies.
// Page is the page's file, relative to the space's directory ("" for a
// comment on the whole space, or on a page written without a file);
// Block is where the commented block is in that page's document, as
// indexes from the top (empty for the whole page), since block keys do
// not survive Markdown.
type ManifestComment struct {
	ID              string             `json:"id"`
	Page            string             `json:"page,omitempty"`
	PageTitle       string             `json:"pageTitle,omitempty"`
	PageEmoji       string             `json:"pageEmoji,omitempty"`
	PageIcon        string             `json:"pageIcon,omitempty"`
	PagePath        string             `json:"pagePath,omitempty"`
	Block           []int              `json:"block,omitempty"`
	BlockKey        string             `json:"blockKey,omitempty"`
	BlockPreview    string             `json:"blockPreview,omitempty"`
	TableRecord     string             `json:"tableRecord,omitempty"`
	TableDefinition string             `json:"tableDefinition,omitempty"`
	Body            json.RawMessage    `json:"body"`
	Author          string             `json:"author"`
	PostedAt        time.Time          `json:"postedAt"`
	EditedAt        *time.Time         `json:"editedAt,omitempty"`
	Status          string             `json:"status"`
	ResolvedAt      *time.Time         `json:"resolvedAt,omitempty"`
	ResolvedBy      string             `json:"resolvedBy,omitempty"`
	Reactions       []ManifestReaction `json:"reactions,omitempty"`
	Replies         []ManifestReply    `json:"replies"`
}

// ManifestReply is a reply in a comment's thread.
type ManifestReply struct {
	ID        string             `json:"id"`
	Body      json.RawMessage    `json:"body"`
	Author    string             `json:"author"`
	PostedAt  time.Time          `json:"postedAt"`
	EditedAt  *time.Time         `json:"editedAt,omitempty"`
	Reactions []ManifestReaction `json:"reactions,omitempty"`
}

// ManifestReaction is one emoji with who reacted with it and when.
type ManifestReaction struct {
	Emoji string            `json:"emoji"`
	Users []ManifestReacted `json:"users"`
}

// ManifestReacted is one user's reaction.
type ManifestReacted struct {
	User string    `json:"user"`
	At   time.Time `json:"at"`
}

// ManifestSite is a site with its structure, customization and visitor
// schema. Share links and the key signing visitor tokens are not
// exported: they are secrets of this server.
type ManifestSite struct {
	ID               string                 `json:"id"`
	Title            string                 `json:"title"`
	Type             string                 `json:"type"`
	Basename         string                 `json:"basename,omitempty"`
	Visibility       string                 `json:"visibility"`
	Published        bool                   `json:"published"`
	AdaptiveContent  bool                   `json:"adaptiveContent"`
	AgentsContext    string                 `json:"agentsContext"`
	Proxy            string                 `json:"proxy,omitempty"`
	DefaultSection   string                 `json:"defaultSection,omitempty"`
	DefaultSiteSpace string                 `json:"defaultSiteSpace,omitempty"`
	CreatedAt        time.Time              `json:"createdAt"`
	Customization    json.RawMessage        `json:"customization,omitempty"`
	AdaptiveSchema   json.RawMessage        `json:"adaptiveSchema,omitempty"`
	SectionGroups    []ManifestSectionGroup `json:"sectionGroups"`
	Sections         []ManifestSection      `json:"sections"`
	SiteSpaces       []ManifestSiteSpace    `json:"siteSpaces"`
}

// ManifestSectionGroup is a group of sections; Parent is "" at the root.
type ManifestSectionGroup struct {
	ID        string    `json:"id"`
	Parent    string    `json:"parent,omitempty"`
	Title     string    `json:"title"`
	Icon      string    `json:"icon,omitempty"`
	Position  string    `json:"position"`
	CreatedAt time.Time `json:"createdAt"`
}

// ManifestSection is a section of a site; Group is "" at the root.
type ManifestSection struct {
	ID               string    `json:"id"`
	Group            string    `json:"group,omitempty"`
	Title            string    `json:"title"`
	Path             string    `json:"path"`
	Description      string    `json:"description,omitempty"`
	Icon             string    `json:"icon,omitempty"`
	Condition        string    `json:"condition,omitempty"`
	DefaultSiteSpace string    `json:"defaultSiteSpace,omitempty"`
	Position         string    `json:"position"`
	CreatedAt        time.Time `json:"createdAt"`
}

// ManifestSiteSpace is a space published in a site; Section is "" at
// the site's root, Space a space of the manifest.
type ManifestSiteSpace struct {
	ID        string    `json:"id"`
	Section   string    `json:"section,omitempty"`
	Space     string    `json:"space"`
	Path      string    `json:"path"`
	Condition string    `json:"condition,omitempty"`
	Position  string    `json:"position"`
	CreatedAt time.Time `json:"createdAt"`
}
