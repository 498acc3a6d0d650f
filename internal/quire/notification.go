package quire

import (
	"context"
	"time"
)

// NotificationKind says what a notification tells its recipient.
type NotificationKind string

// Notification kinds.
const (
	// NotifyReviewRequested: the recipient was asked to review a change
	// request, themselves or through a team.
	NotifyReviewRequested NotificationKind = "review-requested"
	// NotifyApproved: the recipient's change request was approved.
	NotifyApproved NotificationKind = "approved"
	// NotifyChangesRequested: a reviewer asked for changes to the
	// recipient's change request.
	NotifyChangesRequested NotificationKind = "changes-requested"
	// NotifyMerged: the recipient's change request was merged.
	NotifyMerged NotificationKind = "merged"
	// NotifyEdited: someone else edited the recipient's change request.
	NotifyEdited NotificationKind = "edited"
	// NotifyMentioned: the recipient was mentioned in a comment or reply.
	NotifyMentioned NotificationKind = "mentioned"
	// NotifyReplied: someone replied to a thread the recipient started.
	NotifyReplied NotificationKind = "replied"
)

// NotificationKinds returns every notification kind, in the order the
// preferences list them.
func NotificationKinds() []NotificationKind {
	return []NotificationKind{NotifyReviewRequested, NotifyApproved, NotifyChangesRequested, NotifyMerged,
		NotifyEdited, NotifyMentioned, NotifyReplied}
}

// Valid reports whether k is a known kind.
func (k NotificationKind) Valid() bool {
	for _, v := range NotificationKinds() {
		if v == k {
			return true
		}
	}
	return false
}

// Label is the kind as people read it in their preferences.
func (k NotificationKind) Label() string {
	switch k {
	case NotifyReviewRequested:
		return "Review requested"
	case NotifyApproved:
		return "Change request approved"
	case NotifyChangesRequested:
		return "Changes requested"
	case NotifyMerged:
		return "Change request merged"
	case NotifyEdited:
		return "Change request edited by someone else"
	case NotifyMentioned:
		return "Mentioned in a comment"
	case NotifyReplied:
		return "Reply to my comment"
	}
	return string(k)
}

// Notification tells one person that someone did something: in a space,
// on one of its change requests and, for comments, about one comment.
type Notification struct {
	ID              int64
	Recipient       string
	Kind            NotificationKind
	SpaceID         string
	ChangeRequestID string
	CommentID       string
	Actor           string
	CreatedAt       time.Time
	// ReadAt is when the recipient read it; zero while unread.
	ReadAt time.Time
}

// Unread reports whether the recipient has not read the notification.
func (n *Notification) Unread() bool { return n.ReadAt.IsZero() }

// NotificationPreference is how a person wants notifications of one kind:
// in their inbox, by email, both or neither. Without a stored preference
// both are on.
type NotificationPreference struct {
	Kind  NotificationKind
	Inbox bool
	Email bool
}

// ActivityKind says what a space activity records.
type ActivityKind string

// Space activity kinds.
const (
	ActivityComment ActivityKind = "comment"
	ActivityReview  ActivityKind = "review"
	ActivityMerge   ActivityKind = "merge"
	ActivityEdit    ActivityKind = "edit"
)

// Activity records that someone commented, reviewed, merged or edited in
// a space, for the people watching it live. Rows live a short while.
type Activity struct {
	ID              int64
	SpaceID         string
	Kind            ActivityKind
	Actor           string
	ChangeRequestID string
	CommentID       string
	CreatedAt       time.Time
}

// NotificationStore keeps notifications, preferences and the recent
// activity of spaces.
type NotificationStore interface {
	// AddNotifications records notifications; their IDs are set.
	AddNotifications(ctx context.Context, ns []*Notification) error
	// Notifications lists up to limit notifications of a recipient,
	// newest first, those with an id below before when before > 0.
	Notifications(ctx context.Context, recipient string, before int64, limit int) ([]*Notification, error)
	// UnreadNotifications counts the recipient's unread notifications.
	UnreadNotifications(ctx context.Context, recipient string) (int, error)
	// MarkNotificationsRead marks the recipient's notification id read,
	// or all of them when id is 0, and returns how many changed.
	MarkNotificationsRead(ctx context.Context, recipient string, id int64, at time.Time) (int64, error)
	// NotifiedSince reports whether the recipient was told of kind about
	// the change request at or after since: a notification of their
	// inbox, or a telling recorded by MarkNotified.
	NotifiedSince(ctx context.Context, recipient string, kind NotificationKind, changeRequestID string, since time.Time) (bool, error)
	// MarkNotified records that the recipient was told of kind about the
	// change request at a time, by whichever channel.
	MarkNotified(ctx context.Context, recipient string, kind NotificationKind, changeRequestID string, at time.Time) error
	// NotificationsAfter lists up to limit notifications of anyone with
	// an id above after, oldest first.
	NotificationsAfter(ctx context.Context, after int64, limit int) ([]*Notification, error)
	// NotificationPreferences returns the preferences a person changed.
	NotificationPreferences(ctx context.Context, userID string) ([]NotificationPreference, error)
	// SetNotificationPreference stores a person's preference of a kind.
	SetNotificationPreference(ctx context.Context, userID string, p NotificationPreference) error

	// AddActivity records an activity of a space; its ID is set.
	AddActivity(ctx context.Context, a *Activity) error
	// ActivityAfter lists up to limit activities of any space with an id
	// above after, oldest first.
	ActivityAfter(ctx context.Context, after int64, limit int) ([]*Activity, error)
	// LatestIDs returns the highest activity and notification ids, 0
	// when there are none.
	LatestIDs(ctx context.Context) (activity, notification int64, err error)
	// PruneActivity removes activities recorded before a time.
	PruneActivity(ctx context.Context, before time.Time) error
}
