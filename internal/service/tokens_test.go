package service

import (
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
)

func TestPersonalTokensCreateListRevoke(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		ctx := t.Context()
		if _, _, err := f.a.CreatePersonalToken(ctx, f.user, "  "); quire.ErrorCode(err) != quire.EINVALID ||
			!strings.Contains(err.Error(), "name") {
			t.Fatalf("empty name: %v", err)
		}
		f.clock.advance(time.Second)
		secret, tok, err := f.a.CreatePersonalToken(ctx, f.user, " CI deploys ")
		if err != nil {
			t.Fatal(err)
		}
		if tok.Name != "CI deploys" || !strings.HasPrefix(secret, "qt_"+tok.ID+"_") {
			t.Fatalf("token %+v, secret %q", tok, secret)
		}
		// Both replicas accept it (and would have cached it).
		for _, svc := range []*Service{f.a, f.b} {
			if u, err := svc.Authenticate(ctx, secret); err != nil || u.ID != f.user.ID {
				t.Fatalf("authenticate: %v %v", u, err)
			}
		}
		list, err := f.b.ListTokens(ctx, f.user)
		if err != nil {
			t.Fatal(err)
		}
		// createUser made one too, named by default.
		if len(list) != 2 || list[0].ID != tok.ID || list[0].Hash != nil || list[1].Name != quire.DefaultTokenName {
			t.Fatalf("tokens: %+v", list)
		}
		if !list[0].LastUsedAt.Equal(f.clock.Now()) {
			t.Errorf("last used %v, want %v", list[0].LastUsedAt, f.clock.Now())
		}

		bob, _, err := f.a.createUser(ctx, st, "bob@example.com", "Bob")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.a.RevokeToken(ctx, bob, tok.ID); quire.ErrorCode(err) != quire.ENOTFOUND {
			t.Fatalf("another user's revoke: %v", err)
		}
		if err := f.b.RevokeToken(ctx, f.user, tok.ID); err != nil {
			t.Fatal(err)
		}
		// Refused at once by the replica that did not revoke it, with no
		// time passing.
		if _, err := f.a.Authenticate(ctx, secret); quire.ErrorCode(err) != quire.EUNAUTHORIZED {
			t.Fatalf("a revoked token: %v", err)
		}
	})
}

func TestTokenLastUsedIsWrittenAtMostOnceAMinute(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newSessionFixture(t, st)
		ctx := t.Context()
		secret, tok, err := f.a.CreatePersonalToken(ctx, f.user, "laptop")
		if err != nil {
			t.Fatal(err)
		}
		used := func() time.Time {
			got, err := st.Token(ctx, tok.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got.LastUsedAt
		}
		if !used().IsZero() {
			t.Fatal("a new token has a last use")
		}
		if _, err := f.a.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
		first := f.clock.Now()
		f.clock.advance(59 * time.Second)
		if _, err := f.b.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
		if got := used(); !got.Equal(first) {
			t.Fatalf("last used %v within the minute, want %v", got, first)
		}
		f.clock.advance(time.Second)
		if _, err := f.b.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
		if got := used(); !got.Equal(f.clock.Now()) {
			t.Fatalf("last used %v after a minute, want %v", got, f.clock.Now())
		}
	})
}
