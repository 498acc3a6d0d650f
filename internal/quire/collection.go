package quire

import (
	"context"
	"time"
)

// Collection groups spaces and other collections inside an organization.
type Collection struct {
	ID           string
	OrgID        string
	Title        string
	Description  string
	Parent       string // "" at the organization's root
	DefaultLevel DefaultLevel
	Position     string // order among siblings (spaces and collections)
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// CollectionUpdate holds the fields a PATCH may change; nil keeps a field.
type CollectionUpdate struct {
	Title        *string
	Description  *string
	DefaultLevel *DefaultLevel
}

// CollectionFilter narrows a collection list. With Nested false only
// collections at the organization's root are listed.
type CollectionFilter struct {
	Nested bool
}

// CollectionStore persists collections.
type CollectionStore interface {
	// CreateCollection stores a collection.
	CreateCollection(ctx context.Context, c *Collection) error
	// Collection returns a collection. Returns ENOTFOUND.
	Collection(ctx context.Context, id string) (*Collection, error)
	// Collections lists an organization's collections, in tree order
	// position then id.
	Collections(ctx context.Context, orgID string, f CollectionFilter, p Page) (*List[*Collection], error)
	// UpdateCollection applies upd. Returns ENOTFOUND.
	UpdateCollection(ctx context.Context, id string, upd CollectionUpdate) (*Collection, error)
	// PlaceCollection sets a collection's organization, parent and position
	// and moves its whole subtree (sub-collections and spaces) along to
	// orgID; grants stay as they are. Returns ENOTFOUND, or EINVALID if
	// parent is not a collection of orgID or lies inside the collection.
	PlaceCollection(ctx context.Context, id, orgID, parent, position string) (*Collection, error)
	// DeleteCollection deletes a collection and its sub-collections and
	// soft-deletes the spaces they hold; it reports whether it existed.
	DeleteCollection(ctx context.Context, id string, at time.Time) (bool, error)
	// Ancestors returns the ids of the collection's ancestors, nearest first.
	Ancestors(ctx context.Context, id string) ([]string, error)
}
