package service

import (
	"context"
	"fmt"
	"strconv"

	"quire/internal/quire"
)

// MaxNotificationsPage is the most notifications one inbox page lists.
const MaxNotificationsPage = 50

// NotificationView is a notification with what it names: who did it, the
// space and the change request.
type NotificationView struct {
	*quire.Notification
	Actor         *quire.User
	Space         *quire.Space
	ChangeRequest *quire.ChangeRequest // nil when the notification names none
	// Unreadable says the recipient may no longer read the space: its
	// name, the change request's and the address are not shown.
	Unreadable bool
}

// Summary says in a sentence what happened, for the inbox and email; of
// a space the recipient may no longer read, a neutral line.
func (v NotificationView) Summary() string {
	if v.Unreadable {
		return "A notification about a space you can no longer read"
	}
	who := "Someone"
	if v.Actor != nil && v.Actor.DisplayName != "" {
		who = v.Actor.DisplayName
	}
	what := "a change request"
	if v.ChangeRequest != nil {
		what = fmt.Sprintf("change request #%d", v.ChangeRequest.Number)
		if v.ChangeRequest.Subject != "" {
			what += " “" + v.ChangeRequest.Subject + "”"
		}
	}
	where := ""
	if v.Space != nil {
		where = " in " + v.Space.Title
	}
	switch v.Kind {
	case quire.NotifyReviewRequested:
		return who + " asked you to review " + what + where
	case quire.NotifyApproved:
		return who + " approved your " + what + where
	case quire.NotifyChangesRequested:
		return who + " requested changes to your " + what + where
	case quire.NotifyMerged:
		return who + " merged your " + what + where
	case quire.NotifyEdited:
		return who + " edited your " + what + where
	case quire.NotifyMentioned:
		return who + " mentioned you in a comment" + where
	case quire.NotifyReplied:
		return who + " replied to your comment" + where
	}
	return who + " did something" + where
}

// Path is the app's address of what the notification is about: the
// change request, or the space of a comment on its main content (its
// comment named in the fragment); "" of a space the recipient may no
// longer read.
func (v NotificationView) Path() string {
	if v.Unreadable {
		return ""
	}
	p := "/app/s/" + v.SpaceID
	if v.ChangeRequest != nil {
		p += "/~/changes/" + strconv.Itoa(v.ChangeRequest.Number)
	}
	if v.CommentID != "" {
		p += "#comment-" + v.CommentID
	}
	return p
}

// Notifications lists up to limit of the person's notifications, newest
// first, below the id before when before > 0; more says whether older
// ones follow.
func (s *Service) Notifications(ctx context.Context, u *quire.User, before int64, limit int) (views []NotificationView, more bool, err error) {
	if before < 0 {
		return nil, false, quire.Invalid("before", "must be a notification id")
	}
	if limit <= 0 || limit > MaxNotificationsPage {
		limit = MaxNotificationsPage
	}
	ns, err := s.store.Notifications(ctx, u.ID, before, limit+1)
	if err != nil {
		return nil, false, err
	}
	if len(ns) > limit {
		ns, more = ns[:limit], true
	}
	views = make([]NotificationView, 0, len(ns))
	look := newNotificationLookup(s)
	for _, n := range ns {
		v := NotificationView{Notification: n}
		if !look.readable(ctx, u.ID, n.SpaceID) {
			v.Unreadable = true
		} else {
			look.fill(ctx, &v)
		}
		views = append(views, v)
	}
	return views, more, nil
}

// notificationView looks up what a notification names; what is gone
// since is left nil.
func (s *Service) notificationView(ctx context.Context, n *quire.Notification) NotificationView {
	v := NotificationView{Notification: n}
	newNotificationLookup(s).fill(ctx, &v)
	return v
}

// notificationLookup reads what a page of notifications names, each
// person, space and change request once, and whether the recipient may
// read each space.
type notificationLookup struct {
	s       *Service
	users   map[string]*quire.User
	spaces  map[string]*quire.Space
	crs     map[string]*quire.ChangeRequest
	canRead map[string]bool
}

// newNotificationLookup returns an empty lookup.
func newNotificationLookup(s *Service) *notificationLookup {
	return &notificationLookup{s: s, users: map[string]*quire.User{}, spaces: map[string]*quire.Space{},
		crs: map[string]*quire.ChangeRequest{}, canRead: map[string]bool{}}
}

// readable says whether the user may read a space now; a space gone, or
// a failure to tell, counts as unreadable.
func (l *notificationLookup) readable(ctx context.Context, userID, spaceID string) bool {
	ok, seen := l.canRead[spaceID]
	if !seen {
		f, err := l.s.store.SpaceFacts(ctx, spaceID, userID)
		ok = err == nil && f.Level() >= quire.LevelRead
		l.canRead[spaceID] = ok
	}
	return ok
}

// fill sets what v names; what is gone since is left nil.
func (l *notificationLookup) fill(ctx context.Context, v *NotificationView) {
	n := v.Notification
	a, seen := l.users[n.Actor]
	if !seen {
		a, _ = l.s.store.User(ctx, n.Actor)
		l.users[n.Actor] = a
	}
	v.Actor = a
	sp, seen := l.spaces[n.SpaceID]
	if !seen {
		sp, _ = l.s.store.Space(ctx, n.SpaceID)
		l.spaces[n.SpaceID] = sp
	}
	v.Space = sp
	if n.ChangeRequestID != "" {
		key := n.SpaceID + "/" + n.ChangeRequestID
		cr, seen := l.crs[key]
		if !seen {
			cr, _ = l.s.store.ChangeRequest(ctx, n.SpaceID, n.ChangeRequestID)
			l.crs[key] = cr
		}
		v.ChangeRequest = cr
	}
}

// UnreadNotifications counts the person's unread notifications.
func (s *Service) UnreadNotifications(ctx context.Context, u *quire.User) (int, error) {
	return s.store.UnreadNotifications(ctx, u.ID)
}

// MarkNotificationRead marks one of the person's notifications read; an
// id that is not theirs is ENOTFOUND.
func (s *Service) MarkNotificationRead(ctx context.Context, u *quire.User, id int64) error {
	if id <= 0 {
		return quire.Invalid("id", "must be a notification id")
	}
	n, err := s.store.MarkNotificationsRead(ctx, u.ID, id, s.Now())
	if err != nil {
		return err
	}
	if n == 0 {
		// Already read, or not theirs: tell them apart.
		ns, err := s.store.Notifications(ctx, u.ID, id+1, 1)
		if err != nil {
			return err
		}
		if len(ns) == 0 || ns[0].ID != id {
			return quire.NotFound("notification")
		}
	}
	return nil
}

// MarkAllNotificationsRead marks every notification of the person read.
func (s *Service) MarkAllNotificationsRead(ctx context.Context, u *quire.User) error {
	_, err := s.store.MarkNotificationsRead(ctx, u.ID, 0, s.Now())
	return err
}

// NotificationPreferences returns the person's preference of every kind,
// in the order of quire.NotificationKinds; kinds never changed are on.
func (s *Service) NotificationPreferences(ctx context.Context, u *quire.User) ([]quire.NotificationPreference, error) {
	stored, err := s.store.NotificationPreferences(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	byKind := map[quire.NotificationKind]quire.NotificationPreference{}
	for _, p := range stored {
		byKind[p.Kind] = p
	}
	var out []quire.NotificationPreference
	for _, k := range quire.NotificationKinds() {
		p, ok := byKind[k]
		if !ok {
			p = quire.NotificationPreference{Kind: k, Inbox: true, Email: true}
		}
		out = append(out, p)
	}
	return out, nil
}

// notificationPreference returns a person's preference of one kind.
func (s *Service) notificationPreference(ctx context.Context, userID string, k quire.NotificationKind) (quire.NotificationPreference, error) {
	ps, err := s.store.NotificationPreferences(ctx, userID)
	if err != nil {
		return quire.NotificationPreference{}, err
	}
	for _, p := range ps {
		if p.Kind == k {
			return p, nil
		}
	}
	return quire.NotificationPreference{Kind: k, Inbox: true, Email: true}, nil
}

// SetNotificationPreferences stores the person's preferences; every kind
// must be known (field "kind").
func (s *Service) SetNotificationPreferences(ctx context.Context, u *quire.User, ps []quire.NotificationPreference) error {
	for _, p := range ps {
		if !p.Kind.Valid() {
			return quire.Invalid("kind", "unknown notification kind %q", p.Kind)
		}
	}
	return s.store.WithTx(ctx, func(st quire.Store) error {
		for _, p := range ps {
			if err := st.SetNotificationPreference(ctx, u.ID, p); err != nil {
				return err
			}
		}
		return nil
	})
}
