package quire

import (
	"context"
	"time"
)

// Space visibilities.
const (
	VisibilityPublic       = "public"
	VisibilityUnlisted     = "unlisted"
	VisibilityShareLink    = "share-link"
	VisibilityVisitorAuth  = "visitor-auth"
	VisibilityInCollection = "in-collection"
	VisibilityPrivate      = "private"
)

// Space edit modes.
const (
	EditModeLive   = "live"
	EditModeLocked = "locked"
)

// RestoreWindow is how long a deleted space can be restored before it is
// purged.
const RestoreWindow = 7 * 24 * time.Hour

// Space is a container of versioned content inside an organization.
type Space struct {
	ID           string
	OrgID        string
	Title        string
	Emoji        string
	IconURL      string
	Visibility   string
	EditMode     string
	Parent       string // collection id, "" at the root
	Language     string
	DefaultLevel DefaultLevel
	MergeRules   MergeRules
	Revision     string
	Position     string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeletedAt    *time.Time

	// Counters maintained by the content, comment and change request
	// engines.
	Comments            int
	ChangeRequests      int
	ChangeRequestsOpen  int
	ChangeRequestsDraft int
}

// SpaceUpdate holds the fields a PATCH may change; nil keeps a field.
type SpaceUpdate struct {
	Title        *string
	Emoji        *string
	IconURL      *string
	Visibility   *string
	EditMode     *string
	Language     *string
	DefaultLevel *DefaultLevel
	MergeRules   *MergeRules
}

// SpaceFilter narrows a space list. Parent, when set, keeps only the spaces
// directly in that collection. Deleted spaces are never listed.
type SpaceFilter struct {
	OrgID  string
	Parent *string
}

// Sibling is an item placed among spaces and collections under one parent.
type Sibling struct {
	Kind     string // "space" or "collection"
	ID       string
	Position string
}

// SpaceStore persists spaces.
type SpaceStore interface {
	// CreateSpace stores a space together with its first, empty revision.
	CreateSpace(ctx context.Context, s *Space) error
	// Space returns a space, deleted or not. Returns ENOTFOUND.
	Space(ctx context.Context, id string) (*Space, error)
	// Spaces lists live spaces ordered by position then id.
	Spaces(ctx context.Context, f SpaceFilter, p Page) (*List[*Space], error)
	// UpdateSpace applies upd. Returns ENOTFOUND.
	UpdateSpace(ctx context.Context, id string, upd SpaceUpdate) (*Space, error)
	// PlaceSpace sets a space's organization, parent and position. Moved
	// to another organization, the space loses its old teams' grants.
	// Returns ENOTFOUND, or EINVALID if parent is not a collection of orgID.
	PlaceSpace(ctx context.Context, id, orgID, parent, position string) (*Space, error)
	// DeleteSpace marks a live space deleted at the given time; it reports
	// whether a live space was there.
	DeleteSpace(ctx context.Context, id string, at time.Time) (bool, error)
	// RestoreSpace clears deletedAt. Returns ENOTFOUND.
	RestoreSpace(ctx context.Context, id string) (*Space, error)
	// PurgeSpaces removes for good the spaces deleted before the given time
	// and returns how many went.
	PurgeSpaces(ctx context.Context, deletedBefore time.Time) (int, error)
	// Siblings lists the live spaces and collections directly under parent
	// ("" for the root) in an organization, in order.
	Siblings(ctx context.Context, orgID, parent string) ([]Sibling, error)
	// LastPosition returns the highest position among the live spaces and
	// collections directly under parent ("" for the root) in an
	// organization, "" when there are none, without reading them all.
	LastPosition(ctx context.Context, orgID, parent string) (string, error)
}
