package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

// session stores a password session of u opened at now, lasting a day.
func (f *fixture) session(u *quire.User, hash string, now time.Time) *quire.Session {
	f.t.Helper()
	s := &quire.Session{ID: quire.NewID(), Hash: []byte(hash), UserID: u.ID, Method: quire.SessionPassword,
		UserAgent: "Firefox", Address: "192.0.2.1", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(24 * time.Hour)}
	must(f.t, f.st.CreateSession(ctx(f.t), s))
	return s
}

func sessionTests() []test {
	return []test{
		{"sessions/idle and absolute expiry", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@x.io")
			now := f.tick()
			s := f.session(u, "h1", now)
			got, _, err := f.st.Session(ctx(t), s.Hash, now, now.Add(-time.Hour))
			must(t, err)
			equal(t, "session", *got, *s)
			// Last seen at the idle cutoff or before: no longer live.
			_, _, err = f.st.Session(ctx(t), s.Hash, now, now)
			wantCode(t, err, quire.ENOTFOUND)
			// Past its absolute expiry, however recently seen.
			_, _, err = f.st.Session(ctx(t), s.Hash, s.ExpiresAt, now.Add(-time.Hour))
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"sessions/touch is spaced", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@x.io")
			now := f.tick()
			s := f.session(u, "h1", now)
			later := now.Add(30 * time.Second)
			// Seen after the cutoff already: no write.
			ok, err := f.st.TouchSession(ctx(t), s.ID, later, later.Add(-time.Minute))
			must(t, err)
			equal(t, "touched within the minute", ok, false)
			later = now.Add(2 * time.Minute)
			ok, err = f.st.TouchSession(ctx(t), s.ID, later, later.Add(-time.Minute))
			must(t, err)
			equal(t, "touched after a minute", ok, true)
			got, _, err := f.st.Session(ctx(t), s.Hash, later, later.Add(-time.Second))
			must(t, err)
			equal(t, "last seen", got.LastSeenAt, later)
		}},
		{"sessions/list, end one, end all but one, sweep", func(t *testing.T, f *fixture) {
			ada, bob := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			now := f.tick()
			a1 := f.session(ada, "a1", now)
			a2 := f.session(ada, "a2", now.Add(time.Second))
			a3 := f.session(ada, "a3", now.Add(2*time.Second))
			b1 := f.session(bob, "b1", now)
			idle := now.Add(-time.Hour)
			list, err := f.st.UserSessions(ctx(t), ada.ID, now, idle)
			must(t, err)
			equal(t, "ids, last seen first", sessionIDs(list), []string{a3.ID, a2.ID, a1.ID})
			equal(t, "first", *list[0], *a3)

			// Another user's session cannot be ended by id.
			ok, err := f.st.DeleteUserSession(ctx(t), ada.ID, b1.ID)
			must(t, err)
			equal(t, "ended another's", ok, false)
			ok, err = f.st.DeleteUserSession(ctx(t), ada.ID, a2.ID)
			must(t, err)
			equal(t, "ended", ok, true)
			n, err := f.st.DeleteUserSessions(ctx(t), ada.ID, a3.ID)
			must(t, err)
			equal(t, "ended all but one", n, 1)
			list, err = f.st.UserSessions(ctx(t), ada.ID, now, idle)
			must(t, err)
			equal(t, "left", sessionIDs(list), []string{a3.ID})
			n, err = f.st.DeleteUserSessions(ctx(t), ada.ID, "")
			must(t, err)
			equal(t, "ended all", n, 1)
			_, _, err = f.st.Session(ctx(t), b1.Hash, now, idle)
			must(t, err)

			// The sweep deletes the idle and the expired, not the live.
			f.session(bob, "b2", now.Add(time.Minute))
			b3 := f.session(bob, "b3", now.Add(time.Hour))
			n, err = f.st.SweepSessions(ctx(t), now.Add(24*time.Hour+time.Minute), now.Add(time.Minute))
			must(t, err)
			equal(t, "swept", n, 2)
			list, err = f.st.UserSessions(ctx(t), bob.ID, now.Add(time.Hour), idle)
			must(t, err)
			equal(t, "bob's left", sessionIDs(list), []string{b3.ID})
		}},
	}
}

// sessionIDs lists the ids of sessions.
func sessionIDs(list []*quire.Session) []string {
	ids := []string{}
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	return ids
}
