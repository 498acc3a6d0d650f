package service_test

import (
	"context"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// nextLive waits for the watch's next event, failing after a while.
func nextLive(t *testing.T, w *service.Watch) service.LiveEvent {
	t.Helper()
	select {
	case ev, ok := <-w.C:
		if !ok {
			t.Fatal("the watch ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no live event")
	}
	return service.LiveEvent{}
}

// quietLive checks the watch gets nothing within a few of Live's looks.
func quietLive(t *testing.T, w *service.Watch, what string) {
	t.Helper()
	select {
	case ev := <-w.C:
		t.Fatalf("%s: got %+v", what, ev)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestLive watches a space and an inbox while another replica (a second
// service over the same database) records what people do: the watcher
// hears of others' activity in its space only, of its own unread count,
// a merge's move becomes an activity by its author, and closing ends
// every watch.
func TestLive(t *testing.T) {
	t.Parallel()
	service.EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := context.Background()
		svc, owner, org := bootstrap(t, st)
		other := service.New(st)
		ada := member(t, st, org, "Ada", quire.RoleEdit)
		bob := member(t, st, org, "Bob", quire.RoleReview)
		sp, err := svc.CreateSpace(ctx, owner, org, service.SpaceInput{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		elsewhere, err := svc.CreateSpace(ctx, owner, org, service.SpaceInput{Title: "Elsewhere"})
		if err != nil {
			t.Fatal(err)
		}
		live := service.NewLive(svc, service.WithLivePoll(10*time.Millisecond))
		defer live.Close()
		watch, stop := live.Subscribe(ctx, ada, sp.Space.ID)
		defer stop()

		cr, err := other.CreateChangeRequest(ctx, bob, sp.Space.ID, "Fix")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []*quire.Activity{
			{SpaceID: elsewhere.Space.ID, Kind: quire.ActivityComment, Actor: bob.ID},
			{SpaceID: sp.Space.ID, Kind: quire.ActivityEdit, Actor: ada.ID, ChangeRequestID: cr.ID},
			{SpaceID: sp.Space.ID, Kind: quire.ActivityComment, Actor: bob.ID, ChangeRequestID: cr.ID},
		} {
			a.CreatedAt = time.Now()
			if err := st.AddActivity(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		ev := nextLive(t, watch)
		if a := ev.Activity; a == nil || a.Kind != quire.ActivityComment || a.Actor != bob.ID || a.ActorName != "Bob" ||
			a.ChangeRequestID != cr.ID || a.Number != cr.Number {
			t.Fatalf("first event: %+v %+v, want Bob's comment on #%d", ev, ev.Activity, cr.Number)
		}
		quietLive(t, watch, "ada's own edit and another space's comment")

		// A notification for Ada brings her unread count.
		if err := st.AddNotifications(ctx, []*quire.Notification{{Recipient: ada.ID, Kind: quire.NotifyMentioned,
			SpaceID: sp.Space.ID, Actor: bob.ID, CreatedAt: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		if ev := nextLive(t, watch); ev.Activity != nil || ev.Unread != 1 {
			t.Fatalf("after a notification: %+v, want unread 1", ev)
		}

		// A merge's move, handed over by the content events, becomes an
		// activity of the space by the merge's author.
		page := service.ContentChange{Operation: service.OpInsertPage, Fields: service.PageFields{Title: ptr("Intro")},
			Document: &service.DocumentInput{Markdown: ptr("Hello")}}
		if _, _, err := svc.UpdateChangeRequestContent(ctx, bob, sp.Space.ID, cr.ID, []service.ContentChange{page}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.MergeChangeRequest(ctx, owner, sp.Space.ID, cr.ID); err != nil {
			t.Fatal(err)
		}
		evs, err := st.ContentEvents(ctx, sp.Space.ID, 10)
		if err != nil || len(evs) == 0 {
			t.Fatalf("content events: %v, %v", evs, err)
		}
		for _, e := range evs {
			if err := live.RecordMoves(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		for {
			ev := nextLive(t, watch)
			if ev.Activity == nil || ev.Activity.Kind == quire.ActivityEdit {
				continue // Bob's edit of his change request comes first.
			}
			if a := ev.Activity; a.Kind != quire.ActivityMerge || a.Actor != owner.ID || a.Number != cr.Number {
				t.Fatalf("after the merge: %+v, want the owner's merge of #%d", a, cr.Number)
			}
			break
		}

		live.Close()
		select {
		case _, ok := <-watch.C:
			for ok {
				_, ok = <-watch.C
			}
		case <-time.After(5 * time.Second):
			t.Fatal("closing did not end the watch")
		}
		if w, _ := live.Subscribe(ctx, ada, ""); w == nil {
			t.Fatal("no watch after closing")
		} else {
			if _, ok := <-w.C; ok {
				t.Fatal("a watch after closing is open")
			}
		}
	})
}
