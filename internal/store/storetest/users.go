package storetest

import (
	"bytes"
	"testing"

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
		}},
	}
}
