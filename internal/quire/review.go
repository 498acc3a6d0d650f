package quire

import (
	"context"
	"time"
)

// ReviewStatus is the verdict of a review.
type ReviewStatus string

// Review statuses.
const (
	ReviewApproved         ReviewStatus = "approved"          // the reviewer approves the change
	ReviewChangesRequested ReviewStatus = "changes-requested" // the reviewer asks for changes first
)

// Review is a reviewer's verdict on a change request, made against the
// change request's revision of the time. It is outdated once the change
// request has moved to another revision, or once the same reviewer has
// reviewed again (Superseded). CommentID is the comment its text became,
// "" without one; RequestedBy the user who asked for it, "" when nobody
// did.
type Review struct {
	ID              string
	SpaceID         string
	ChangeRequestID string
	Revision        string
	Reviewer        string
	RequestedBy     string
	Status          ReviewStatus
	CommentID       string
	Superseded      bool
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Outdated reports whether the review no longer speaks for the change
// request as it is at revision current.
func (r *Review) Outdated(current string) bool { return r.Superseded || r.Revision != current }

// ReviewFilter narrows the reviews of a change request. Outdated, when
// set, keeps the reviews that are (true) or are not (false) outdated
// against Current, the change request's revision.
type ReviewFilter struct {
	ChangeRequestID string
	Current         string
	Outdated        *bool
}

// RequestedReviewer is a user asked to review a change request: who asked,
// when, and at which revision of the change request.
type RequestedReviewer struct {
	ChangeRequestID string
	UserID          string
	Revision        string
	RequestedBy     string
	CreatedAt       time.Time
}

// MergeBypass records a merge that the merge rules refused and a user
// allowed to bypass them made anyway: who, the revision merged, and the
// rules that failed.
type MergeBypass struct {
	ChangeRequestID string
	SpaceID         string
	UserID          string
	Revision        string
	Rules           []MergeRuleKind
	CreatedAt       time.Time
}

// ReviewStore persists reviews, requested reviewers and merge bypasses.
type ReviewStore interface {
	// CreateReview stores a review, marks the reviewer's earlier reviews of
	// the change request superseded, and removes the reviewer from the
	// change request's requested reviewers.
	CreateReview(ctx context.Context, r *Review) error
	// Reviews lists a change request's reviews, oldest first.
	Reviews(ctx context.Context, f ReviewFilter, p Page) (*List[*Review], error)
	// CurrentReviews returns the reviews of a change request that are not
	// outdated against its revision current, oldest first: at most one a
	// reviewer.
	CurrentReviews(ctx context.Context, changeRequestID, current string) ([]*Review, error)
	// RequestReviewers records requests, replacing an earlier request of
	// the same user on the same change request.
	RequestReviewers(ctx context.Context, rs []*RequestedReviewer) error
	// RequestedReviewers lists a change request's requested reviewers,
	// oldest request first.
	RequestedReviewers(ctx context.Context, changeRequestID string, p Page) (*List[*RequestedReviewer], error)
	// AllRequestedReviewers returns every requested reviewer of a change
	// request, oldest request first.
	AllRequestedReviewers(ctx context.Context, changeRequestID string) ([]*RequestedReviewer, error)
	// RemoveRequestedReviewer withdraws a request and reports whether
	// there was one.
	RemoveRequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error)
	// RecordMergeBypass stores the bypass of a merge.
	RecordMergeBypass(ctx context.Context, b *MergeBypass) error
	// MergeBypass returns the bypass recorded for a change request's
	// merge. Returns ENOTFOUND.
	MergeBypass(ctx context.Context, changeRequestID string) (*MergeBypass, error)
}
