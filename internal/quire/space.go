package quire

import (
	"context"
	"time"
)

// Visibility says who can see a space's published content.
type Visibility string

// Space visibilities.
const (
	VisibilityPublic       Visibility = "public"        // anyone
	VisibilityUnlisted     Visibility = "unlisted"      // anyone with the address
	VisibilityShareLink    Visibility = "share-link"    // holders of a share link
	VisibilityVisitorAuth  Visibility = "visitor-auth"  // visitors the site authenticates
	VisibilityInCollection Visibility = "in-collection" // as the collection holding the space
	VisibilityPrivate      Visibility = "private"       // members only
)

// EditMode says whether a space's live content may be edited directly.
type EditMode string

// Space edit modes.
const (
	EditModeLive   EditMode = "live"   // live content is edited in place
	EditModeLocked EditMode = "locked" // changes go through change requests
)

// SiblingKind names what an item among spaces and collections is.
type SiblingKind string

// Sibling kinds.
const (
	SiblingSpace      SiblingKind = "space"      // a space
	SiblingCollection SiblingKind = "collection" // a collection
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
	Visibility   Visibility
	EditMode     EditMode
	Parent       string // collection id, "" at the root
	Language     string
	DefaultLevel DefaultLevel
	MergeRules   MergeRules
	Revision     string
	Position     string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeletedAt    *time.Time
	// OrgMergeRules, when not nil, are the merge rules of the space's
	// organization, read in the same statement as the space (see
	// ChangeRequestStore.SpaceChangeRequest); nil when not read.
	OrgMergeRules *MergeRules

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
	Visibility   *Visibility
	EditMode     *EditMode
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
	Kind     SiblingKind
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
	// PlaceSpace sets a space's organization, parent and position; its
	// grants stay as they are. Returns ENOTFOUND, or EINVALID if parent is
	// not a collection of orgID.
	PlaceSpace(ctx context.Context, id, orgID, parent, position string) (*Space, error)
	// DeleteSpace marks a live space deleted at the given time; it reports
	// whether a live space was there.
	DeleteSpace(ctx context.Context, id string, at time.Time) (bool, error)
	// RestoreSpace clears deletedAt. Returns ENOTFOUND.
	RestoreSpace(ctx context.Context, id string) (*Space, error)
	// PurgeSpaces removes for good the spaces deleted before the given time
	// and returns how many went.
	PurgeSpaces(ctx context.Context, deletedBefore time.Time) (int, error)
	// DeletedSpaces lists the spaces of an organization deleted at or
	// after since, most recently deleted first, at most limit of them.
	DeletedSpaces(ctx context.Context, orgID string, since time.Time, limit int) ([]*Space, error)
	// Siblings lists the live spaces and collections directly under parent
	// ("" for the root) in an organization, in order.
	Siblings(ctx context.Context, orgID, parent string) ([]Sibling, error)
	// LastPosition returns the highest position among the live spaces and
	// collections directly under parent ("" for the root) in an
	// organization, "" when there are none, without reading them all.
	LastPosition(ctx context.Context, orgID, parent string) (string, error)
}
