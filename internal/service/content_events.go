package service

import (
	"context"
	"fmt"
	"time"

	"quire/internal/quire"
)

// ContentJob asks for the content events of a space to be handed to the
// subscribers. It carries no event: the events are rows written with the
// moves, so a job lost or run twice loses or repeats nothing.
type ContentJob struct {
	Space string `json:"space"`
}

// Kind names the job's worker.
func (ContentJob) Kind() string { return "content_events" }

// ContentSubscriber reacts to a move of a space's current revision. It
// may be called again for an event it has seen (after a failure of its
// own or of another subscriber), so it must be idempotent.
type ContentSubscriber func(ctx context.Context, ev *quire.ContentEvent) error

// contentEventBatch is how many events of a space one round hands over.
const contentEventBatch = 100

// advanceSpace is the one way a space's current revision moves: from
// prev to next by compare-and-swap, with the content event recorded in
// the same transaction (a savepoint of st's when st is one). Once the
// transaction has committed, the caller calls announceContent.
func advanceSpace(ctx context.Context, st quire.Store, spaceID, prev, next string) error {
	return st.WithTx(ctx, func(st quire.Store) error {
		if err := st.AdvanceSpaceRevision(ctx, spaceID, prev, next); err != nil {
			return err
		}
		return st.AddContentEvent(ctx, &quire.ContentEvent{SpaceID: spaceID, Previous: prev, Next: next})
	})
}

// announceContent queues the job handing a space's recorded content
// events to the subscribers. It runs after the move's transaction has
// committed (on SQLite the queue writes on the same single writer). A
// failure is only logged: the events stay recorded, and RecoverContent
// queues them again.
func (s *Service) announceContent(ctx context.Context, spaceID string) {
	if s.queue == nil {
		return
	}
	if _, err := s.enqueue(context.WithoutCancel(ctx), ContentJob{Space: spaceID}, quire.JobOptions{}); err != nil {
		s.log.WarnContext(ctx, "content event not queued; it waits for recovery", "space", spaceID, "error", err)
	}
}

// ContentEvents hands the recorded content events to the subscribers,
// registered in one place (internal/cli, and the API tests' harness).
type ContentEvents struct {
	s    *Service
	subs []namedSubscriber
}

// namedSubscriber is a subscriber and its name, for the logs.
type namedSubscriber struct {
	name string
	fn   ContentSubscriber
}

// NewContentEvents returns a dispatcher of s's content events with no
// subscriber.
func NewContentEvents(s *Service) *ContentEvents { return &ContentEvents{s: s} }

// Subscribe adds a subscriber; call it before the queue starts.
func (c *ContentEvents) Subscribe(name string, fn ContentSubscriber) {
	c.subs = append(c.subs, namedSubscriber{name: name, fn: fn})
}

// RunJob hands every recorded event of the job's space, oldest first, to
// every subscriber, and forgets the events handed over. A subscriber's
// failure fails the job, which the queue tries again: the events stay.
func (c *ContentEvents) RunJob(ctx context.Context, job ContentJob) error {
	for {
		evs, err := c.s.store.ContentEvents(ctx, job.Space, contentEventBatch)
		if err != nil || len(evs) == 0 {
			return err
		}
		for _, ev := range evs {
			for _, sub := range c.subs {
				if err := sub.fn(ctx, ev); err != nil {
					return fmt.Errorf("content subscriber %s: space %s: %w", sub.name, ev.SpaceID, err)
				}
			}
		}
		if err := c.s.store.DeleteContentEvents(ctx, job.Space, evs[len(evs)-1].ID); err != nil {
			return err
		}
		if len(evs) < contentEventBatch {
			return nil
		}
	}
}

// RecoverContent queues the job of every space whose events have waited
// longer than age: those whose job was never queued (the process stopped
// between the commit and the queuing). It returns how many it queued.
func (c *ContentEvents) RecoverContent(ctx context.Context, age time.Duration) (int, error) {
	ids, err := c.s.store.PendingContentSpaces(ctx, c.s.Now().Add(-age), 1000)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if _, err := c.s.enqueue(ctx, ContentJob{Space: id}, quire.JobOptions{Unique: true}); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
