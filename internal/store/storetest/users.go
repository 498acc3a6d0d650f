package storetest

import (
	"bytes"
	"testing"
	"time"

	"quire/internal/quire"
)

func userTests() []test {
	return []test{
		{"users/create and read", func(t *testing.T, f *fixture) {
			n, err := f.st.CountUsers(ctx(t))
			must(t, err)
			equal(t, "count on a fresh store", n, 0)
			u := f.user("Ada", "Ada@Example.COM")
			got, err := f.st.User(ctx(t), u.ID)
			must(t, err)
			equal(t, "user by id", *got, *u)
			got, err = f.st.UserByEmail(ctx(t), "ada@example.com")
			must(t, err)
			equal(t, "user by email, other case", *got, *u)
			f.user("Bob", "bob@example.com")
			n, err = f.st.CountUsers(ctx(t))
			must(t, err)
			equal(t, "count", n, 2)
		}},
		{"users/email taken in another case", func(t *testing.T, f *fixture) {
			f.user("Ada", "ada@example.com")
			u := &quire.User{ID: quire.NewID(), DisplayName: "Other", Email: "ADA@example.com", CreatedAt: f.tick()}
			wantCode(t, f.st.CreateUser(ctx(t), u), quire.ECONFLICT)
			n, err := f.st.CountUsers(ctx(t))
			must(t, err)
			equal(t, "count", n, 1)
		}},
		{"users/display name", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@example.com")
			must(t, f.st.SetDisplayName(ctx(t), u.ID, "Ada Lovelace"))
			got, err := f.st.User(ctx(t), u.ID)
			must(t, err)
			equal(t, "name", got.DisplayName, "Ada Lovelace")
			wantCode(t, f.st.SetDisplayName(ctx(t), "nope", "X"), quire.ENOTFOUND)
		}},
		{"users/not found", func(t *testing.T, f *fixture) {
			_, err := f.st.User(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.UserByEmail(ctx(t), "nobody@example.com")
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.Token(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"users/tokens", func(t *testing.T, f *fixture) {
			u := f.user("Ada", "ada@example.com")
			secret, tok := quire.NewToken(u.ID, f.tick())
			must(t, f.st.CreateToken(ctx(t), tok))
			got, err := f.st.Token(ctx(t), tok.ID)
			must(t, err)
			equal(t, "token", *got, *tok)
			id, s, ok := quire.ParseToken(secret)
			if !ok || id != tok.ID || !quire.CheckSecret(got, s) || !bytes.Equal(got.Hash, tok.Hash) {
				t.Fatal("stored token does not check against its secret")
			}
			wantCode(t, f.st.CreateToken(ctx(t), tok), quire.ECONFLICT)
			equal(t, "default name", got.Name, quire.DefaultTokenName)
		}},
		{"users/token names, list, last use and revocation", func(t *testing.T, f *fixture) {
			ada, bob := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			_, t1 := quire.NewToken(ada.ID, f.tick())
			t1.Name = "CI"
			must(t, f.st.CreateToken(ctx(t), t1))
			_, t2 := quire.NewToken(ada.ID, f.tick())
			t2.Name = "laptop"
			must(t, f.st.CreateToken(ctx(t), t2))
			_, tb := quire.NewToken(bob.ID, f.tick())
			must(t, f.st.CreateToken(ctx(t), tb))
			list, err := f.st.Tokens(ctx(t), ada.ID)
			must(t, err)
			if len(list) != 2 {
				t.Fatalf("listed %d tokens, want 2", len(list))
			}
			equal(t, "newest first", *list[0], *t2)
			equal(t, "then", *list[1], *t1)
			got, gu, err := f.st.TokenUser(ctx(t), t1.ID)
			must(t, err)
			equal(t, "token", *got, *t1)
			equal(t, "user", *gu, *ada)

			now := f.tick()
			ok, err := f.st.TouchToken(ctx(t), t1.ID, now, now.Add(-time.Minute))
			must(t, err)
			equal(t, "first use written", ok, true)
			ok, err = f.st.TouchToken(ctx(t), t1.ID, now.Add(time.Second), now.Add(time.Second-time.Minute))
			must(t, err)
			equal(t, "use within the minute not written", ok, false)
			got, err = f.st.Token(ctx(t), t1.ID)
			must(t, err)
			equal(t, "last used", got.LastUsedAt, now)

			ok, err = f.st.DeleteToken(ctx(t), ada.ID, tb.ID)
			must(t, err)
			equal(t, "deleted another's", ok, false)
			ok, err = f.st.DeleteToken(ctx(t), ada.ID, t1.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			_, _, err = f.st.TokenUser(ctx(t), t1.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
