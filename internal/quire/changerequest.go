package quire

import (
	"context"
	"encoding/json"
	"time"
)

// ChangeRequestStatus is where a change request stands.
type ChangeRequestStatus string

// Change request statuses.
const (
	CRDraft    ChangeRequestStatus = "draft"    // being written, not yet up for review
	CROpen     ChangeRequestStatus = "open"     // up for review and merge
	CRArchived ChangeRequestStatus = "archived" // closed without merging
	CRMerged   ChangeRequestStatus = "merged"   // merged into the space
)

// ChangeRequest is a branch of a space's content: it starts from the
// space's revision, collects its own revisions, can pull in main content
// that moved meanwhile, and merges back.
type ChangeRequest struct {
	ID                     string
	SpaceID                string
	Number                 int
	Status                 ChangeRequestStatus
	Subject                string
	Description            json.RawMessage // a rich-text document, or nil
	CreatedBy              string
	CreatedAt              time.Time
	UpdatedAt              time.Time
	Revision               string // current revision of the change request
	RevisionInitial        string // space revision it started from
	RevisionMergedAncestor string // space revision last pulled in by an update
	RevisionMerged         string // space revision its merge produced
	Comments               int
}

// Base returns the space revision the change request's content is based
// on: the last one pulled in, or the one it started from.
func (c *ChangeRequest) Base() string {
	if c.RevisionMergedAncestor != "" {
		return c.RevisionMergedAncestor
	}
	return c.RevisionInitial
}

// WritableStatuses are the statuses in which a change request's content may
// change.
func WritableStatuses() []ChangeRequestStatus { return []ChangeRequestStatus{CRDraft, CROpen} }

// ChangeRequestFilter narrows a change request list. Status "" keeps all.
type ChangeRequestFilter struct {
	SpaceID string
	OrgID   string
	// SpaceIDs, when not nil, keeps the change requests of these spaces
	// alone: an empty list keeps none.
	SpaceIDs    []string
	Status      ChangeRequestStatus
	Creator     string
	Contributor string
	// Reviewer keeps the change requests this user is asked to review
	// and has not reviewed since.
	Reviewer string
}

// ChangeRequestUpdate holds the fields a PATCH or the engine may change;
// nil keeps a field.
type ChangeRequestUpdate struct {
	Subject                *string
	Description            *json.RawMessage
	Status                 *ChangeRequestStatus
	Revision               *string
	RevisionMergedAncestor *string
	RevisionMerged         *string
	// IfRevision, when set, applies the update only if the change
	// request's current revision is still this one; ECONFLICT otherwise.
	IfRevision *string
	// IfStatus, when not empty, applies the update only if the change
	// request's current status is one of these; ECONFLICT otherwise. With
	// IfRevision it makes one compare-and-swap over both, so a write
	// meant for an open change request cannot land on a merged one.
	IfStatus []ChangeRequestStatus
}

// MergeMark is the record of a merge: the change request, still on
// Revision and in status From, becomes merged as revision Next, which
// becomes the space's current revision in place of Prev.
type MergeMark struct {
	SpaceID, ChangeRequestID string
	Revision                 string
	From                     ChangeRequestStatus
	Prev, Next               string
}

// ChangeRequestStore persists change requests.
type ChangeRequestStore interface {
	// CreateChangeRequest stores a change request, giving it the next
	// number of its space (gap-free, unique across processes) and updating
	// the space's counters. It sets c.Number.
	CreateChangeRequest(ctx context.Context, c *ChangeRequest) error
	// ChangeRequest returns a change request of a space by id or by
	// number (as a decimal string). Returns ENOTFOUND.
	ChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*ChangeRequest, error)
	// SpaceChangeRequest returns a space, deleted or not, and one of its
	// change requests by id or number, read together; when found by id,
	// the space comes with its organization's merge rules (OrgMergeRules). Returns ENOTFOUND
	// naming the space when it is missing, else the change request, then
	// with the space.
	SpaceChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*Space, *ChangeRequest, error)
	// ReadChangeRequestsAhead, on a Store handed to a WithTx function,
	// reads a space and the named change requests of it in one
	// statement, where the engine saves round trips by it (elsewhere it
	// does nothing), for the operations of a batch to come: the next
	// SpaceChangeRequest of each of them in the transaction is answered
	// from that read, once, as long as the transaction wrote nothing
	// since but MarkMerged of the space, which keeps the space read
	// current. A change request read ahead may have moved by the time it
	// is answered; its compare-and-swap (MarkMerged, UpdateChangeRequest
	// with IfRevision) tells, and the retry reads it afresh.
	ReadChangeRequestsAhead(ctx context.Context, spaceID string, ids []string) error
	// ChangeRequests lists change requests, newest first.
	ChangeRequests(ctx context.Context, f ChangeRequestFilter, p Page) (*List[*ChangeRequest], error)
	// UpdateChangeRequest applies upd, keeps the space's counters right on
	// status changes, and returns the result. Returns ENOTFOUND.
	UpdateChangeRequest(ctx context.Context, spaceID, id string, upd ChangeRequestUpdate) (*ChangeRequest, error)
	// MarkMerged records a merge as one compare-and-swap over the change
	// request and the space, which moves the space's open and draft
	// counters with the status, and records the content event of the
	// space's move (see ContentEventStore). When either row moved it is a
	// quire.Stale ECONFLICT; an unknown change request or space is
	// ENOTFOUND. After an error part of it may be written: the caller's
	// transaction or savepoint must be rolled back.
	MarkMerged(ctx context.Context, m MergeMark) error
	// AddContributor records that a user wrote to a change request.
	AddContributor(ctx context.Context, changeRequestID, userID string) error
}
