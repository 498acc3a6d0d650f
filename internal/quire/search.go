package quire

import (
	"context"
	"time"
)

// ContentEventKind says what a content event records.
type ContentEventKind string

// Content event kinds.
const (
	// EventRevision: the space's current revision moved from Previous to
	// Next.
	EventRevision ContentEventKind = "revision"
	// EventReviewSubmitted: a review (Subject, its id) was submitted on
	// the change request ChangeRequestID, whose revision is Next.
	EventReviewSubmitted ContentEventKind = "review-submitted"
	// EventReviewersRequested: reviewers (Subject, their user ids joined
	// by commas) were asked to review the change request ChangeRequestID
	// at its revision Next.
	EventReviewersRequested ContentEventKind = "reviewers-requested"
)

// ContentEvent records a change of a space's content or of its review:
// a move of its current revision (Kind EventRevision, the zero value
// meaning the same), or a review event of one of its change requests. It
// is written in the same transaction as the change and handed to the
// content subscribers afterwards.
type ContentEvent struct {
	ID              int64
	SpaceID         string
	Kind            ContentEventKind
	ChangeRequestID string
	Subject         string
	Previous        string
	Next            string
	CreatedAt       time.Time
}

// Moved reports whether the event is a move of the space's current
// revision.
func (e *ContentEvent) Moved() bool { return e.Kind == "" || e.Kind == EventRevision }

// ContentEventStore keeps the content events not yet handed to the
// subscribers.
type ContentEventStore interface {
	// AddContentEvent records an event; its ID is set.
	AddContentEvent(ctx context.Context, ev *ContentEvent) error
	// ContentEvents returns up to limit events of a space, oldest first.
	ContentEvents(ctx context.Context, spaceID string, limit int) ([]*ContentEvent, error)
	// DeleteContentEvents removes the space's events up to and including
	// the one with id upTo.
	DeleteContentEvents(ctx context.Context, spaceID string, upTo int64) error
	// PendingContentSpaces lists up to limit spaces having an event
	// recorded before the given time.
	PendingContentSpaces(ctx context.Context, before time.Time, limit int) ([]string, error)
}

// SearchSection is one section of an indexed page: the text before its
// first heading, or a heading and the text up to the next one. Title and
// Body are shown in results; IndexTitle and IndexBody are what is
// indexed (folded text, see internal/search).
type SearchSection struct {
	PageID     string
	Seq        int
	PageTitle  string
	PagePath   string
	Anchor     string
	Title      string
	Body       string
	IndexTitle string
	IndexBody  string
}

// SearchTerm is one required term of a search: a word, or a phrase of
// consecutive words (a run of CJK characters, one word per character).
// Prefix matches words beginning with the last word, as well as the
// word itself.
type SearchTerm struct {
	Words  []string
	Prefix bool
}

// SearchQuery is a search over the index: every term is required; only
// sections of the listed spaces are found (the caller lists live ones).
type SearchQuery struct {
	SpaceIDs []string
	Terms    []SearchTerm
	// Limit caps the number of sections returned, best first.
	Limit int
}

// SearchHit is a section found by a search.
type SearchHit struct {
	SpaceID string
	SearchSection
}

// SearchStore holds the full-text index of the spaces' current content.
type SearchStore interface {
	// SearchIndexRevision returns the revision of the space the index
	// holds, "" when it holds none.
	SearchIndexRevision(ctx context.Context, spaceID string) (string, error)
	// ReplaceSearchPages removes the sections of the given pages (every
	// section of the space when all is set), adds sections, and records
	// to as the revision the index holds for the space, in one
	// transaction, if the index still holds from ("" for none); a Stale
	// ECONFLICT otherwise, so that of two writers only one applies a
	// change computed from the same revision.
	ReplaceSearchPages(ctx context.Context, spaceID, from, to string, all bool, pageIDs []string, sections []SearchSection) error
	// SearchSections runs a query, best sections first.
	SearchSections(ctx context.Context, q SearchQuery) ([]*SearchHit, error)
}
