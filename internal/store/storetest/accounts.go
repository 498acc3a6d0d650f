package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func accountTests() []test {
	return []test{
		{"accounts/passwords: set, replace, read", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@x.io")
			_, err := f.st.PasswordHash(ctx(t), u.ID)
			wantCode(t, err, quire.ENOTFOUND)
			must(t, f.st.SetPassword(ctx(t), u.ID, "$argon2id$one", f.tick()))
			must(t, f.st.SetPassword(ctx(t), u.ID, "$argon2id$two", f.tick()))
			h, err := f.st.PasswordHash(ctx(t), u.ID)
			must(t, err)
			equal(t, "hash", h, "$argon2id$two")
			wantCode(t, f.st.SetPassword(ctx(t), "nouser", "x", f.tick()), quire.ENOTFOUND)
		}},
		{"accounts/links: single use, until they expire", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@x.io")
			now := f.tick()
			l := &quire.AccountLink{Hash: []byte("h1"), Purpose: quire.LinkReset, UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
			must(t, f.st.CreateAccountLink(ctx(t), l))
			wantCode(t, f.st.CreateAccountLink(ctx(t), l), quire.ECONFLICT)
			c := &quire.AccountLink{Hash: []byte("h2"), Purpose: quire.LinkConfirm, Email: "new@x.io", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
			must(t, f.st.CreateAccountLink(ctx(t), c))

			_, err := f.st.AccountLink(ctx(t), quire.LinkSetup, l.Hash, now)
			wantCode(t, err, quire.ENOTFOUND)
			got, err := f.st.AccountLink(ctx(t), quire.LinkReset, l.Hash, now)
			must(t, err)
			equal(t, "peeked", *got, *l)
			_, err = f.st.TakeAccountLink(ctx(t), quire.LinkReset, l.Hash, now.Add(time.Hour))
			wantCode(t, err, quire.ENOTFOUND)
			got, err = f.st.TakeAccountLink(ctx(t), quire.LinkReset, l.Hash, now)
			must(t, err)
			equal(t, "taken", *got, *l)
			_, err = f.st.TakeAccountLink(ctx(t), quire.LinkReset, l.Hash, now)
			wantCode(t, err, quire.ENOTFOUND)
			got, err = f.st.TakeAccountLink(ctx(t), quire.LinkConfirm, c.Hash, now)
			must(t, err)
			equal(t, "confirmation", *got, *c)

			// A user's links of a purpose go together.
			for _, h := range []string{"a", "b"} {
				must(t, f.st.CreateAccountLink(ctx(t), &quire.AccountLink{Hash: []byte(h), Purpose: quire.LinkReset,
					UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}))
			}
			must(t, f.st.DeleteAccountLinks(ctx(t), u.ID, quire.LinkReset))
			_, err = f.st.AccountLink(ctx(t), quire.LinkReset, []byte("a"), now)
			wantCode(t, err, quire.ENOTFOUND)
			wantCode(t, f.st.CreateAccountLink(ctx(t), &quire.AccountLink{Hash: []byte("c"), Purpose: quire.LinkReset,
				UserID: "nouser", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}), quire.ENOTFOUND)
		}},
		{"accounts/sign-in failures: counted per key within a window", func(t *testing.T, f *fixture) {
			t0 := f.tick()
			for i := range 3 {
				at := t0.Add(time.Duration(i) * time.Minute)
				must(t, f.st.RecordSignInFailure(ctx(t), []string{"account:ada", "address:1"}, at, at.Add(-time.Hour)))
			}
			must(t, f.st.RecordSignInFailure(ctx(t), []string{"address:1"}, t0.Add(3*time.Minute), t0))
			n, err := f.st.SignInFailures(ctx(t), "account:ada", t0)
			must(t, err)
			equal(t, "account failures", n, 3)
			n, err = f.st.SignInFailures(ctx(t), "account:ada", t0.Add(time.Minute))
			must(t, err)
			equal(t, "account failures in a shorter window", n, 2)
			n, err = f.st.SignInFailures(ctx(t), "address:1", t0)
			must(t, err)
			equal(t, "address failures", n, 4)
			must(t, f.st.ClearSignInFailures(ctx(t), "account:ada"))
			n, err = f.st.SignInFailures(ctx(t), "account:ada", t0)
			must(t, err)
			equal(t, "cleared", n, 0)

			// Another key's failure prunes the old records of every key.
			must(t, f.st.RecordSignInFailure(ctx(t), []string{"address:2"}, t0.Add(time.Hour), t0.Add(2*time.Minute)))
			n, err = f.st.SignInFailures(ctx(t), "address:1", time.Time{})
			must(t, err)
			equal(t, "address:1 failures kept after another key's", n, 2)
		}},
		{"accounts/ending a user's other sessions", func(t *testing.T, f *fixture) {
			u, v := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			now := f.tick()
			for _, s := range []struct{ hash, user string }{{"s1", u.ID}, {"s2", u.ID}, {"s3", u.ID}, {"s4", v.ID}} {
				must(t, f.st.CreateSession(ctx(t), &quire.Session{ID: "id-" + s.hash, Hash: []byte(s.hash), UserID: s.user, Method: quire.SessionPassword, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}))
			}
			n, err := f.st.DeleteUserSessions(ctx(t), u.ID, "id-s1")
			must(t, err)
			equal(t, "ended", n, 2)
			_, _, err = f.st.Session(ctx(t), []byte("s1"), now, time.Time{})
			must(t, err)
			_, _, err = f.st.Session(ctx(t), []byte("s4"), now, time.Time{})
			must(t, err)
			n, err = f.st.DeleteUserSessions(ctx(t), u.ID, "")
			must(t, err)
			equal(t, "ended all", n, 1)
		}},
	}
}
