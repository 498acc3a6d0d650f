package service

import (
	"context"
	"slices"
	"sync"
	"time"

	"quire/internal/quire"
)

// Default pacing of Live.
const (
	// livePollEvery is how often Live reads what was recorded since its
	// last look, while anyone watches.
	livePollEvery = time.Second
	// liveKeep is how long a space's activity is kept for watchers: the
	// rows are only read within seconds of being written.
	liveKeep = time.Hour
	// livePruneEvery is how often old activity is removed.
	livePruneEvery = 10 * time.Minute
	// liveBatch bounds one read of new activity or notifications.
	liveBatch = 500
	// liveBuffer is how many events a slow watcher may be behind before
	// it misses some (it is then told it missed some).
	liveBuffer = 16
	// liveSettle is how long rows are read again after they were first
	// seen: PostgreSQL hands out an id at insert and shows the row at
	// commit, so a row may appear behind one already read.
	liveSettle = 5 * time.Second
)

// Live carries what people do in spaces, and the notifications they
// receive, to the people watching: a page or a change request open in
// the app, and the inbox count in its header. It works across replicas
// through the database: one loop per process reads the activities and
// notifications recorded since its last look, by any replica, and hands
// each to the watchers it concerns. The loop runs while anyone watches;
// nothing is read while no one does.
type Live struct {
	s     *Service
	every time.Duration

	mu      sync.Mutex
	watches map[*Watch]struct{}
	running bool
	closed  bool
	stop    chan struct{}
	// fresh says the loop is to start again from what is recorded now
	// (nobody watched meanwhile, so it did not follow); start, when set,
	// is where, read by the first watcher.
	fresh bool
	start *[2]int64
}

// cursor follows one table by id. Rows at or below floor are done; the
// rows above it already handed over are in seen, with when they were
// first seen, and are read again until they settle (liveSettle), so
// that a row committed late behind them is still found.
type cursor struct {
	floor int64
	seen  map[int64]time.Time
}

// reset starts the cursor after id.
func (c *cursor) reset(id int64) { c.floor, c.seen = id, map[int64]time.Time{} }

// take reports whether row id is new, and marks it seen.
func (c *cursor) take(id int64, now time.Time) bool {
	if _, ok := c.seen[id]; ok || id <= c.floor {
		return false
	}
	c.seen[id] = now
	return true
}

// settle raises the floor over the rows seen long enough ago, up to the
// first one still settling.
func (c *cursor) settle(now time.Time) {
	ids := make([]int64, 0, len(c.seen))
	for id := range c.seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if now.Sub(c.seen[id]) < liveSettle {
			return
		}
		c.floor = id
		delete(c.seen, id)
	}
}

// LiveOption changes how Live works.
type LiveOption func(*Live)

// WithLivePoll sets how often Live reads new activity while anyone
// watches (tests shorten it).
func WithLivePoll(d time.Duration) LiveOption {
	return func(l *Live) {
		if d > 0 {
			l.every = d
		}
	}
}

// NewLive returns the live updates of s, not yet running: the loop starts
// with the first watcher.
func NewLive(s *Service, opts ...LiveOption) *Live {
	l := &Live{s: s, every: livePollEvery, watches: map[*Watch]struct{}{}, stop: make(chan struct{}), fresh: true}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Watch is one person watching: their inbox count, and the activity of
// one space when Space is set. Events arrives on C, which is closed when
// the watch ends (Live closed, or the watch cancelled).
type Watch struct {
	User  string
	Space string
	C     <-chan LiveEvent
	c     chan LiveEvent
}

// LiveEvent is one thing a watcher is told: an activity in the space it
// watches by someone else, or its new unread count.
type LiveEvent struct {
	// Activity is set for an activity of the watched space.
	Activity *LiveActivity
	// Unread, when Activity is nil, is the watcher's unread count.
	Unread int
	// Missed says events were dropped before this one because the
	// watcher fell behind: it should reload what it shows.
	Missed bool
}

// LiveActivity is an activity as watchers see it: who did what, where.
type LiveActivity struct {
	// ID orders activities: a stream names each event by it, so that a
	// reconnecting browser says where it stopped (Live.Since).
	ID              int64              `json:"-"`
	Kind            quire.ActivityKind `json:"kind"`
	ChangeRequestID string             `json:"changeRequest,omitempty"`
	// Number is the change request's number, as the app's addresses
	// have it.
	Number    int    `json:"number,omitempty"`
	CommentID string `json:"comment,omitempty"`
	Actor     string `json:"actor"`
	ActorName string `json:"actorName"`
}

// Subscribe starts a watch of u's inbox count and, when spaceID is not
// "", of the activity of that space (the caller checked u may read it):
// what is recorded from about now on reaches it. Call the returned
// function to end it. A closed Live returns a watch whose channel is
// closed.
func (l *Live) Subscribe(ctx context.Context, u *quire.User, spaceID string) (*Watch, func()) {
	c := make(chan LiveEvent, liveBuffer)
	w := &Watch{User: u.ID, Space: spaceID, C: c, c: c}
	l.mu.Lock()
	fresh := l.fresh
	l.mu.Unlock()
	var start *[2]int64
	if fresh {
		// The first watcher after a quiet while reads where the loop
		// starts, outside the lock; if it cannot, the loop will.
		if act, note, err := l.s.store.LatestIDs(ctx); err == nil {
			start = &[2]int64{act, note}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		close(c)
		return w, func() {}
	}
	if l.fresh && start != nil && l.start == nil {
		l.start = start
	}
	l.watches[w] = struct{}{}
	if !l.running {
		l.running = true
		go l.run()
	}
	return w, func() { l.cancel(w) }
}

// cancel ends a watch.
func (l *Live) cancel(w *Watch) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.watches[w]; ok {
		delete(l.watches, w)
		close(w.c)
	}
}

// Close ends every watch and the loop; a server shutting down calls it
// so that open streams end at once.
func (l *Live) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	close(l.stop)
	for w := range l.watches {
		delete(l.watches, w)
		close(w.c)
	}
}

// run is the loop: it looks at what was recorded every l.every while
// anyone watches, and removes old activity now and then.
func (l *Live) run() {
	ctx := context.Background()
	tick := time.NewTicker(l.every)
	defer tick.Stop()
	var acts, notes cursor
	var pruned time.Time
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
		}
		l.mu.Lock()
		idle, fresh, start := len(l.watches) == 0, l.fresh, l.start
		if idle {
			l.fresh, l.start = true, nil
		} else if fresh {
			l.fresh, l.start = false, nil
		}
		l.mu.Unlock()
		if idle {
			continue
		}
		if fresh {
			if start == nil {
				act, note, err := l.s.store.LatestIDs(ctx)
				if err != nil {
					l.s.log.WarnContext(ctx, "live updates: reading where to start", "error", err)
					l.mu.Lock()
					l.fresh = true
					l.mu.Unlock()
					continue
				}
				start = &[2]int64{act, note}
			}
			acts.reset(start[0])
			notes.reset(start[1])
		}
		if err := l.look(ctx, &acts, &notes); err != nil {
			l.s.log.WarnContext(ctx, "live updates: reading new activity", "error", err)
		}
		if now := l.s.Now(); now.Sub(pruned) >= livePruneEvery {
			pruned = now
			if err := l.s.store.PruneActivity(ctx, now.Add(-liveKeep)); err != nil {
				l.s.log.WarnContext(ctx, "live updates: removing old activity", "error", err)
			}
		}
	}
}

// look reads the activity and notifications recorded above the
// cursors, hands the new ones to the watchers, and moves the cursors.
func (l *Live) look(ctx context.Context, acts, notes *cursor) error {
	as, err := l.s.store.ActivityAfter(ctx, acts.floor, liveBatch)
	if err != nil {
		return err
	}
	ns, err := l.s.store.NotificationsAfter(ctx, notes.floor, liveBatch)
	if err != nil {
		return err
	}
	now := time.Now()
	names, numbers := map[string]string{}, map[string]int{}
	for _, a := range as {
		if !acts.take(a.ID, now) {
			continue
		}
		la := l.activity(ctx, names, numbers, a)
		l.send(func(w *Watch) bool { return w.Space == a.SpaceID && w.User != a.Actor }, LiveEvent{Activity: la})
	}
	told := map[string]bool{}
	for _, n := range ns {
		if !notes.take(n.ID, now) || told[n.Recipient] || !l.watched(n.Recipient) {
			continue
		}
		told[n.Recipient] = true
		unread, err := l.s.store.UnreadNotifications(ctx, n.Recipient)
		if err != nil {
			return err
		}
		l.send(func(w *Watch) bool { return w.User == n.Recipient }, LiveEvent{Unread: unread})
	}
	acts.settle(now)
	notes.settle(now)
	return nil
}

// activity is a as watchers see it; names and numbers keep what it read.
func (l *Live) activity(ctx context.Context, names map[string]string, numbers map[string]int, a *quire.Activity) *LiveActivity {
	return &LiveActivity{ID: a.ID, Kind: a.Kind, ChangeRequestID: a.ChangeRequestID, CommentID: a.CommentID, Actor: a.Actor,
		ActorName: l.name(ctx, names, a.Actor), Number: l.number(ctx, numbers, a.SpaceID, a.ChangeRequestID)}
}

// Since returns what others did in a space after activity id after, for
// a watcher that reconnects after a break: what was recorded while it
// was away (activity is kept an hour: a longer break finds only the last
// hour). missed says there was more than one read returns; the watcher
// should then reload what it shows.
func (l *Live) Since(ctx context.Context, u *quire.User, spaceID string, after int64) (out []*LiveActivity, missed bool, err error) {
	as, err := l.s.store.ActivityAfter(ctx, after, liveBatch)
	if err != nil {
		return nil, false, err
	}
	names, numbers := map[string]string{}, map[string]int{}
	for _, a := range as {
		if a.SpaceID == spaceID && a.Actor != u.ID {
			out = append(out, l.activity(ctx, names, numbers, a))
		}
	}
	return out, len(as) == liveBatch, nil
}

// name returns a person's display name, read once per look.
func (l *Live) name(ctx context.Context, names map[string]string, id string) string {
	if n, ok := names[id]; ok || id == "" {
		return n
	}
	n := "Someone"
	if u, err := l.s.store.User(ctx, id); err == nil && u.DisplayName != "" {
		n = u.DisplayName
	}
	names[id] = n
	return n
}

// number returns a change request's number, read once per look; 0 for
// none.
func (l *Live) number(ctx context.Context, numbers map[string]int, spaceID, id string) int {
	if n, ok := numbers[id]; ok || id == "" {
		return n
	}
	n := 0
	if cr, err := l.s.store.ChangeRequest(ctx, spaceID, id); err == nil {
		n = cr.Number
	}
	numbers[id] = n
	return n
}

// watched reports whether anyone watches userID's inbox.
func (l *Live) watched(userID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for w := range l.watches {
		if w.User == userID {
			return true
		}
	}
	return false
}

// send gives ev to every watcher match accepts; a watcher whose buffer
// is full misses it and is told so with the next event it gets room for.
func (l *Live) send(match func(*Watch) bool, ev LiveEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for w := range l.watches {
		if !match(w) {
			continue
		}
		select {
		case w.c <- ev:
		default:
			// Full: drop the oldest and say something was missed, which
			// makes the page read everything again.
			select {
			case <-w.c:
			default:
			}
			missed := ev
			missed.Missed = true
			select {
			case w.c <- missed:
			default:
			}
		}
	}
}

// RecordMoves is a content subscriber: each move of a space's current
// revision becomes an activity of the space by the revision's author (a
// merge, of the change request merged; a live edit is one too; an
// import or a restore an edit), so that people looking at the
// space learn its content changed. It runs from the content job, outside
// the merge's own transaction.
func (l *Live) RecordMoves(ctx context.Context, ev *quire.ContentEvent) error {
	if !ev.Moved() {
		return nil
	}
	a := &quire.Activity{SpaceID: ev.SpaceID, Kind: quire.ActivityEdit, ChangeRequestID: ev.ChangeRequestID, CreatedAt: ev.CreatedAt}
	if ev.Next != "" {
		rev, err := l.s.store.Revision(ctx, ev.SpaceID, ev.Next)
		if err != nil && !quire.IsNotFound(err) {
			return err
		}
		if rev != nil {
			a.Actor = rev.CreatedBy
			if a.ChangeRequestID == "" {
				a.ChangeRequestID = rev.MergedFrom
			}
		}
	}
	if a.ChangeRequestID != "" {
		a.Kind = quire.ActivityMerge
	}
	return l.s.store.AddActivity(ctx, a)
}
