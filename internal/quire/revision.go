package quire

import (
	"context"
	"time"
)

// Revision types.
const (
	RevisionEdits    = "edits"
	RevisionMerge    = "merge"
	RevisionUpdate   = "update"
	RevisionRollback = "rollback"
	RevisionComputed = "computed"
)

// Revision is an immutable state of a space's content. Its pages and files
// are persistent maps stored as content-addressed objects: Pages and Files
// are the hashes of their roots ("" for an empty map), so a revision that
// changes one page shares every other object with its parent.
type Revision struct {
	ID         string
	SpaceID    string
	Parents    []string
	Type       string
	Pages      string // root of the page map: page id → page object hash
	Slugs      string // root of the top-level children map: slug → page id
	Files      string // root of the file map: file id → file object hash
	MergedFrom string // change request id, for merge revisions
	CreatedBy  string
	CreatedAt  time.Time
	Git        *GitCommit
}

// GitCommit records the Git commit a revision came from or went to.
type GitCommit struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByService bool   `json:"createdByService"`
	URL              string `json:"url,omitempty"`
	Ref              string `json:"ref,omitempty"`
}

// GitBlob records where a page or file lives in a Git repository.
type GitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// ObjectStore keeps immutable content-addressed objects: the key of an
// object is the hex SHA-256 of its bytes.
type ObjectStore interface {
	// Objects returns the objects with the given keys; missing keys are
	// absent from the map.
	Objects(ctx context.Context, keys []string) (map[string][]byte, error)
	// PutObjects stores objects; storing an existing key keeps its bytes
	// and only marks it as written now.
	PutObjects(ctx context.Context, objs map[string][]byte) error
}

// RevisionStore persists revisions and which revision is a space's
// current content.
type RevisionStore interface {
	// CreateRevision stores a revision. Returns ECONFLICT if the id exists.
	CreateRevision(ctx context.Context, r *Revision) error
	// Revision returns a revision of a space. Returns ENOTFOUND.
	Revision(ctx context.Context, spaceID, id string) (*Revision, error)
	// AdvanceSpaceRevision makes next the space's current revision if its
	// current one is still prev; returns ECONFLICT if another write moved it
	// first.
	AdvanceSpaceRevision(ctx context.Context, spaceID, prev, next string) error
}
