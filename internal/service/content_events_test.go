package service

import (
	"context"
	"errors"
	"testing"
	"time"

	"quire/internal/quire"
)

// TestContentEventsFollowEveryMove checks that a template insert and a
// duplicate each record one event and queue its job, that the job hands
// the events to the subscribers in order and forgets them, that a failing
// subscriber keeps them, and that recovery queues the events left waiting.
func TestContentEventsFollowEveryMove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := &recordingQueue{}
	now := time.Now()
	f := NewBootstrapped(t, WithQueue(q), WithClock(func() time.Time { return now }))
	st, svc := f.Store, f.Svc
	u := f.Admin
	src, err := svc.CreateSpace(ctx, u, f.Org, SpaceInput{Title: "Source"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.ApplyTemplate(ctx, u, src.Space.ID, "knowledge-base", nil); err != nil {
		t.Fatal(err)
	}
	dup, err := svc.DuplicateSpace(ctx, u, src.Space.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.args) != 2 || q.args[0] != (ContentJob{Space: src.Space.ID}) || q.args[1] != (ContentJob{Space: dup.Space.ID}) {
		t.Fatalf("queued %v", q.args)
	}
	evs, err := st.ContentEvents(ctx, src.Space.ID, 10)
	if err != nil || len(evs) != 1 || evs[0].Previous != src.Space.Revision {
		t.Fatalf("events of the source: %v, %v", evs, err)
	}
	cur, _ := st.Space(ctx, src.Space.ID)
	if evs[0].Next != cur.Revision {
		t.Errorf("event moves to %s, the space is at %s", evs[0].Next, cur.Revision)
	}

	events := NewContentEvents(svc)
	fail := errors.New("down")
	var seen []string
	events.Subscribe("failing", func(_ context.Context, ev *quire.ContentEvent) error {
		seen = append(seen, ev.Next)
		return fail
	})
	if err := events.RunJob(ctx, ContentJob{Space: src.Space.ID}); !errors.Is(err, fail) {
		t.Fatalf("a failing subscriber: %v", err)
	}
	if evs, _ := st.ContentEvents(ctx, src.Space.ID, 10); len(evs) != 1 {
		t.Fatalf("a failure dropped the event: %v", evs)
	}
	events = NewContentEvents(svc)
	seen = nil
	events.Subscribe("search", svc.IndexContent)
	events.Subscribe("recorder", func(_ context.Context, ev *quire.ContentEvent) error {
		seen = append(seen, ev.Next)
		return nil
	})
	if err := events.RunJob(ctx, ContentJob{Space: src.Space.ID}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != cur.Revision {
		t.Errorf("handed %v", seen)
	}
	if evs, _ := st.ContentEvents(ctx, src.Space.ID, 10); len(evs) != 0 {
		t.Errorf("events kept after their job: %v", evs)
	}
	if rev, _ := st.SearchIndexRevision(ctx, src.Space.ID); rev != cur.Revision {
		t.Errorf("index at %q, want %q", rev, cur.Revision)
	}

	// The duplicate's event waits: recovery queues it once it is old.
	q.args = nil
	if n, err := events.RecoverContent(ctx, time.Minute); err != nil || n != 0 {
		t.Fatalf("recovery of a fresh event: %d, %v", n, err)
	}
	now = now.Add(2 * time.Minute)
	if n, err := events.RecoverContent(ctx, time.Minute); err != nil || n != 1 || q.args[0] != (ContentJob{Space: dup.Space.ID}) {
		t.Fatalf("recovery: %d, %v, queued %v", n, err, q.args)
	}
}
