package service

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now().UTC().Truncate(time.Millisecond)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// sessionFixture is two services over one store, sharing a clock, and a
// user.
type sessionFixture struct {
	clock  *fakeClock
	a, b   *Service
	st     quire.Store
	user   *quire.User
	origin SessionOrigin
}

func newSessionFixture(t *testing.T, st quire.Store, opts ...Option) *sessionFixture {
	t.Helper()
	c := newFakeClock()
	opts = append(opts, WithClock(c.Now), WithLogger(slog.New(slog.DiscardHandler)))
	f := &sessionFixture{clock: c, a: New(st, opts...), b: New(st, opts...), st: st,
		origin: SessionOrigin{Method: quire.SessionPassword, UserAgent: "Mozilla/5.0 Firefox", Address: "192.0.2.7"}}
	u, _, err := f.a.createUser(t.Context(), st, "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	f.user = u
	return f
}

// open opens a session of the fixture's user on service a.
func (f *sessionFixture) open(t *testing.T) string {
	t.Helper()
	secret, _, err := f.a.OpenSession(t.Context(), f.user.ID, f.origin)
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

// live reports whether svc accepts the session secret.
func live(t *testing.T, svc *Service, secret string) bool {
	t.Helper()
	_, _, err := svc.AuthenticateSession(t.Context(), secret)
	if err != nil && quire.ErrorCode(err) != quire.EUNAUTHORIZED {
		t.Fatal(err)
	}
	return err == nil
}

func TestSessionIdleExpiry(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st, WithSessionLifetimes(30*24*time.Hour, 7*24*time.Hour))
		s := f.open(t)
		// Used every six days, it stays open past the idle lifetime.
		for range 3 {
			f.clock.advance(6 * 24 * time.Hour)
			if !live(t, f.b, s) {
				t.Fatal("a session used within the idle lifetime was refused")
			}
		}
		f.clock.advance(7*24*time.Hour - time.Millisecond)
		if !live(t, f.a, s) {
			t.Fatal("refused a millisecond before its idle expiry")
		}
		f.clock.advance(7 * 24 * time.Hour)
		if live(t, f.a, s) {
			t.Fatal("a session unused for the idle lifetime was accepted")
		}
	})
}

func TestSessionAbsoluteExpiry(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st, WithSessionLifetimes(10*24*time.Hour, 7*24*time.Hour))
		s := f.open(t)
		_, expires, err := f.a.OpenSession(t.Context(), f.user.ID, f.origin)
		if err != nil {
			t.Fatal(err)
		}
		if want := f.clock.Now().Add(10 * 24 * time.Hour); !expires.Equal(want) {
			t.Errorf("expires %v, want %v", expires, want)
		}
		f.clock.advance(5 * 24 * time.Hour)
		if !live(t, f.a, s) {
			t.Fatal("refused within its lifetime")
		}
		f.clock.advance(5 * 24 * time.Hour)
		if live(t, f.a, s) {
			t.Fatal("a session past its absolute lifetime was accepted although used")
		}
	})
}

func TestSessionDefaults(t *testing.T) {
	t.Parallel()
	abs, idle := New(nil).sessionTimes()
	if abs != 30*24*time.Hour || idle != 7*24*time.Hour {
		t.Errorf("defaults %v, %v", abs, idle)
	}
}

func TestSessionLastSeenIsWrittenAtMostOnceAMinute(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		s := f.open(t)
		opened := f.clock.Now()
		seen := func() time.Time {
			list, err := f.a.ListSessions(t.Context(), f.user, "")
			if err != nil || len(list) != 1 {
				t.Fatalf("list: %v %v", list, err)
			}
			return list[0].LastSeenAt
		}
		f.clock.advance(59 * time.Second)
		live(t, f.a, s)
		live(t, f.b, s)
		if got := seen(); !got.Equal(opened) {
			t.Fatalf("last seen written within the minute: %v, opened %v", got, opened)
		}
		f.clock.advance(time.Second)
		live(t, f.b, s)
		if got, want := seen(), f.clock.Now(); !got.Equal(want) {
			t.Fatalf("last seen %v after a minute, want %v", got, want)
		}
	})
}

func TestSessionListRevokeAndSignOutEverywhere(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		ctx := t.Context()
		here := f.open(t)
		f.clock.advance(time.Second)
		f.origin.UserAgent = "Mozilla/5.0 Chrome"
		there := f.open(t)
		f.clock.advance(time.Second)
		f.open(t)
		_, cur, err := f.b.AuthenticateSession(ctx, here)
		if err != nil {
			t.Fatal(err)
		}
		list, err := f.b.ListSessions(ctx, f.user, cur.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The most recently seen first: the current one was seen first.
		if len(list) != 3 || list[0].Current || list[1].Current || !list[2].Current || list[2].ID != cur.ID {
			t.Fatalf("sessions: %+v", list)
		}
		if list[2].Hash != nil || list[2].Method != quire.SessionPassword || list[2].Address != "192.0.2.7" ||
			list[2].UserAgent != "Mozilla/5.0 Firefox" {
			t.Errorf("listed %+v", list[2].Session)
		}
		_, other, err := f.a.AuthenticateSession(ctx, there)
		if err != nil {
			t.Fatal(err)
		}
		if other.UserAgent != "Mozilla/5.0 Chrome" {
			t.Errorf("user agent %q", other.UserAgent)
		}

		// Another user cannot end it; its owner can, on any replica.
		bob, _, err := f.a.createUser(ctx, st, "bob@example.com", "Bob")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.b.RevokeSession(ctx, bob, other.ID); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("another user's revoke: %v", err)
		}
		if err := f.b.RevokeSession(ctx, f.user, other.ID); err != nil {
			t.Fatal(err)
		}
		if live(t, f.a, there) {
			t.Fatal("a revoked session was accepted by the other service")
		}
		if err := f.b.RevokeSession(ctx, f.user, other.ID); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("revoked twice: %v", err)
		}

		// Signing out everywhere else keeps the current one only.
		n, err := f.b.EndUserSessions(ctx, f.user.ID, cur.ID)
		if err != nil || n != 1 {
			t.Fatalf("ended %d, %v", n, err)
		}
		if !live(t, f.a, here) {
			t.Fatal("the current session was ended")
		}
		// A password change ends them all.
		if n, err := f.a.EndUserSessions(ctx, f.user.ID, ""); err != nil || n != 1 {
			t.Fatalf("ended %d, %v", n, err)
		}
		if live(t, f.b, here) {
			t.Fatal("a session outlived the end of all")
		}
	})
}

func TestSessionsAreSweptWhenOthersOpen(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		f.open(t)
		f.clock.advance(8 * 24 * time.Hour)
		f.open(t)
		// The idle one is gone from the table, not just hidden.
		n, err := st.SweepSessions(t.Context(), f.clock.Now().Add(-time.Hour), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d expired sessions were left to sweep", n)
		}
		list, err := st.UserSessions(t.Context(), f.user.ID, f.clock.Now(), time.Time{})
		if err != nil || len(list) != 1 {
			t.Fatalf("left %d sessions, %v", len(list), err)
		}
	})
}

func TestOpenSessionNeedsAMethod(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		_, _, err := f.a.OpenSession(t.Context(), f.user.ID, SessionOrigin{Method: "magic"})
		if quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("open with an unknown method: %v", err)
		}
	})
}
