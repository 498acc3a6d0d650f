package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func notificationTests() []test {
	return []test{
		{"notifications/add, list newest first, page, count, mark read", func(t *testing.T, f *fixture) {
			now := f.tick()
			var ns []*quire.Notification
			for i, k := range []quire.NotificationKind{quire.NotifyReviewRequested, quire.NotifyApproved, quire.NotifyMerged} {
				ns = append(ns, &quire.Notification{Recipient: "bob", Kind: k, SpaceID: "sp", ChangeRequestID: "cr",
					Actor: "ada", CreatedAt: now.Add(time.Duration(i) * time.Second)})
			}
			ns = append(ns, &quire.Notification{Recipient: "ada", Kind: quire.NotifyMentioned, SpaceID: "sp",
				CommentID: "cm", Actor: "bob", CreatedAt: now})
			must(t, f.st.AddNotifications(ctx(t), ns))
			if ns[0].ID == 0 || ns[1].ID <= ns[0].ID {
				t.Fatalf("ids not set in order: %d, %d", ns[0].ID, ns[1].ID)
			}
			list, err := f.st.Notifications(ctx(t), "bob", 0, 2)
			must(t, err)
			equal(t, "first page", []int64{list[0].ID, list[1].ID}, []int64{ns[2].ID, ns[1].ID})
			equal(t, "read back", *list[0], *ns[2])
			list, err = f.st.Notifications(ctx(t), "bob", list[1].ID, 2)
			must(t, err)
			equal(t, "second page", len(list), 1)
			equal(t, "second page item", list[0].ID, ns[0].ID)

			n, err := f.st.UnreadNotifications(ctx(t), "bob")
			must(t, err)
			equal(t, "unread", n, 3)
			changed, err := f.st.MarkNotificationsRead(ctx(t), "ada", ns[1].ID, now)
			must(t, err)
			equal(t, "another's notification is not marked", changed, int64(0))
			changed, err = f.st.MarkNotificationsRead(ctx(t), "bob", ns[1].ID, now)
			must(t, err)
			equal(t, "one marked", changed, int64(1))
			n, _ = f.st.UnreadNotifications(ctx(t), "bob")
			equal(t, "unread after one", n, 2)
			list, _ = f.st.Notifications(ctx(t), "bob", 0, 10)
			equal(t, "read at", list[1].ReadAt, now)
			changed, err = f.st.MarkNotificationsRead(ctx(t), "bob", 0, now)
			must(t, err)
			equal(t, "all marked", changed, int64(2))
			n, _ = f.st.UnreadNotifications(ctx(t), "bob")
			equal(t, "unread after all", n, 0)
			n, _ = f.st.UnreadNotifications(ctx(t), "ada")
			equal(t, "others untouched", n, 1)

			after, err := f.st.NotificationsAfter(ctx(t), ns[1].ID, 10)
			must(t, err)
			equal(t, "after", []int64{after[0].ID, after[1].ID}, []int64{ns[2].ID, ns[3].ID})
			act, not, err := f.st.LatestIDs(ctx(t))
			must(t, err)
			equal(t, "latest", []int64{act, not}, []int64{0, ns[3].ID})
		}},
		{"notifications/notified since", func(t *testing.T, f *fixture) {
			now := f.tick()
			must(t, f.st.AddNotifications(ctx(t), []*quire.Notification{{Recipient: "bob", Kind: quire.NotifyEdited,
				SpaceID: "sp", ChangeRequestID: "cr", Actor: "ada", CreatedAt: now}}))
			for _, c := range []struct {
				kind  quire.NotificationKind
				cr    string
				since time.Time
				want  bool
			}{
				{quire.NotifyEdited, "cr", now.Add(-time.Hour), true},
				{quire.NotifyEdited, "cr", now, true},
				{quire.NotifyEdited, "cr", now.Add(time.Second), false},
				{quire.NotifyEdited, "other", now.Add(-time.Hour), false},
				{quire.NotifyMerged, "cr", now.Add(-time.Hour), false},
			} {
				got, err := f.st.NotifiedSince(ctx(t), "bob", c.kind, c.cr, c.since)
				must(t, err)
				equal(t, string(c.kind)+" "+c.cr, got, c.want)
			}
		}},
		{"notifications/preferences", func(t *testing.T, f *fixture) {
			ps, err := f.st.NotificationPreferences(ctx(t), "bob")
			must(t, err)
			equal(t, "none by default", len(ps), 0)
			must(t, f.st.SetNotificationPreference(ctx(t), "bob", quire.NotificationPreference{Kind: quire.NotifyMerged, Inbox: true}))
			must(t, f.st.SetNotificationPreference(ctx(t), "bob", quire.NotificationPreference{Kind: quire.NotifyEdited, Email: true}))
			must(t, f.st.SetNotificationPreference(ctx(t), "bob", quire.NotificationPreference{Kind: quire.NotifyMerged, Email: true}))
			ps, err = f.st.NotificationPreferences(ctx(t), "bob")
			must(t, err)
			equal(t, "stored", ps, []quire.NotificationPreference{{Kind: quire.NotifyEdited, Email: true},
				{Kind: quire.NotifyMerged, Email: true}})
			ps, _ = f.st.NotificationPreferences(ctx(t), "ada")
			equal(t, "others", len(ps), 0)
		}},
		{"notifications/activity after, prune", func(t *testing.T, f *fixture) {
			now := f.tick()
			a1 := &quire.Activity{SpaceID: "sp", Kind: quire.ActivityComment, Actor: "ada", CommentID: "cm", CreatedAt: now.Add(-2 * time.Hour)}
			a2 := &quire.Activity{SpaceID: "sp2", Kind: quire.ActivityMerge, Actor: "bob", ChangeRequestID: "cr", CreatedAt: now}
			must(t, f.st.AddActivity(ctx(t), a1))
			must(t, f.st.AddActivity(ctx(t), a2))
			list, err := f.st.ActivityAfter(ctx(t), 0, 10)
			must(t, err)
			equal(t, "all", len(list), 2)
			equal(t, "read back", *list[1], *a2)
			list, _ = f.st.ActivityAfter(ctx(t), a1.ID, 10)
			equal(t, "after", len(list), 1)
			act, _, err := f.st.LatestIDs(ctx(t))
			must(t, err)
			equal(t, "latest", act, a2.ID)
			must(t, f.st.PruneActivity(ctx(t), now.Add(-time.Hour)))
			list, _ = f.st.ActivityAfter(ctx(t), 0, 10)
			equal(t, "pruned", len(list), 1)
			equal(t, "kept", list[0].ID, a2.ID)
		}},
	}
}
