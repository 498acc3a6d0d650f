package service

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

// testParams keep the tests' hashes cheap; TestPasswordHash checks the
// defaults.
var testParams = PasswordParams{Memory: 64, Time: 1, Threads: 1}

// sentMail is an email a fakeMailer was asked to send.
type sentMail struct{ to, subject, body string }

// fakeMailer records what it sends.
type fakeMailer struct {
	mu   sync.Mutex
	sent []sentMail
}

func (m *fakeMailer) Send(_ context.Context, to, subject, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, sentMail{to, subject, body})
	return nil
}

func (m *fakeMailer) all() []sentMail {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]sentMail(nil), m.sent...)
}

// accountsFixture is a bootstrapped store with Accounts over it.
type accountsFixture struct {
	st    quire.Store
	svc   *Service
	acc   *Accounts
	mail  *fakeMailer
	org   string
	admin *quire.User
	clock *testClock
}

// testClock is a clock the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newAccountsFixture(t *testing.T, st quire.Store) *accountsFixture {
	t.Helper()
	clock := &testClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	svc := New(st, WithClock(clock.Now))
	boot, err := svc.Bootstrap(t.Context(), BootstrapInput{OrgTitle: "Org", Email: "admin@example.com", Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := st.User(t.Context(), boot.User)
	if err != nil {
		t.Fatal(err)
	}
	mail := &fakeMailer{}
	acc := NewAccounts(svc, AccountsConfig{BaseURL: "https://q.example/", Mailer: mail, Params: testParams})
	return &accountsFixture{st: st, svc: svc, acc: acc, mail: mail, org: boot.Organization, admin: admin, clock: clock}
}

// secretOf returns the secret ending a link.
func secretOf(t *testing.T, link, prefix string) string {
	t.Helper()
	s, ok := strings.CutPrefix(link, "https://q.example"+prefix)
	if !ok {
		t.Fatalf("link %q does not start with %s", link, prefix)
	}
	return s
}

func wantErr(t *testing.T, err error, code, field string) {
	t.Helper()
	var e *quire.Error
	if quire.ErrorCode(err) != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
	if field != "" {
		if !asError(err, &e) || e.Field != field {
			t.Fatalf("err = %v, want field %s", err, field)
		}
	}
}

func asError(err error, e **quire.Error) bool {
	q, ok := err.(*quire.Error)
	*e = q
	return ok
}

func TestPasswordHash(t *testing.T) {
	t.Parallel()
	p := DefaultPasswordParams()
	h := hashPassword("a long enough secret", p)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("encoded = %q", h)
	}
	if h2 := hashPassword("a long enough secret", p); h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	if ok, stale := checkPassword(h, "a long enough secret", p); !ok || stale {
		t.Errorf("right password: ok %v stale %v", ok, stale)
	}
	if ok, _ := checkPassword(h, "a long enough secreT", p); ok {
		t.Error("wrong password accepted")
	}
	if _, stale := checkPassword(h, "a long enough secret", testParams); !stale {
		t.Error("hash with other parameters not stale")
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=1,t=1,p=1$AA$AA", "$argon2id$v=19$m=99999999,t=1,p=1$AA$AA", h[:len(h)-44]} {
		if ok, _ := checkPassword(bad, "x", p); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPasswordFloor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ pw, email, msg string }{
		{"short", "ada@x.io", "at least 10"},
		{"123456789", "ada@x.io", "at least 10"},
		{"Password123", "ada@x.io", "common"},
		{"qwertyuiop", "ada@x.io", "common"},
		{"ada.lovelace@x.io", "ada.lovelace@x.io", "email"},
		{"ada.lovelace", "Ada.Lovelace@x.io", "email"},
		{"ada.lovelace1", "ada.lovelace@x.io", "email"},
	} {
		err := checkPasswordStrength("password", tc.pw, tc.email)
		var e *quire.Error
		if !asError(err, &e) || e.Code != quire.EINVALID || e.Field != "password" || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%q: err = %v, want a password error about %q", tc.pw, err, tc.msg)
		}
	}
	for _, ok := range []string{"correct horse battery", "ada lovelace wrote the first program", "T7#kq9!mZp"} {
		if err := checkPasswordStrength("password", ok, "ada.lovelace@x.io"); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

func TestSetupLinkSetsPasswordOnce(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		link, err := f.acc.SetupLink(ctx, f.admin.ID)
		if err != nil {
			t.Fatal(err)
		}
		secret := secretOf(t, link, "/app/setup/")
		u, err := f.acc.SetupUser(ctx, secret)
		if err != nil || u.ID != f.admin.ID {
			t.Fatalf("setup user = %v, %v", u, err)
		}
		// A weak password leaves the link usable.
		_, err = f.acc.CompleteSetup(ctx, secret, "admin", Client{})
		wantErr(t, err, quire.EINVALID, "password")
		si, err := f.acc.CompleteSetup(ctx, secret, "a fine admin password", Client{Address: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := f.svc.AuthenticateSession(ctx, si.Secret); err != nil || got.ID != f.admin.ID {
			t.Fatalf("session = %v, %v", got, err)
		}
		_, err = f.acc.CompleteSetup(ctx, secret, "another fine password", Client{})
		wantErr(t, err, quire.ENOTFOUND, "")
		if _, err := f.acc.SignIn(ctx, SignInInput{Email: "ADMIN@example.com", Password: "a fine admin password"}); err != nil {
			t.Fatalf("sign in after setup: %v", err)
		}

		// Links expire.
		link, err = f.acc.SetupLink(ctx, f.admin.ID)
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(SetupLinkLifetime)
		_, err = f.acc.SetupUser(ctx, secretOf(t, link, "/app/setup/"))
		wantErr(t, err, quire.ENOTFOUND, "")
	})
}

func TestSignInSameAnswerForUnknownEmail(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		if err := f.st.SetPassword(ctx, f.admin.ID, hashPassword("the right password", testParams), f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		noPassword, _, err := f.svc.CreateUser(ctx, CreateUserInput{Email: "sso@example.com", Name: "SSO"})
		if err != nil {
			t.Fatal(err)
		}
		var answers []string
		for _, in := range []SignInInput{
			{Email: "admin@example.com", Password: "a wrong password"},
			{Email: "nobody@example.com", Password: "a wrong password"},
			{Email: noPassword.Email, Password: "a wrong password"},
		} {
			_, err := f.acc.SignIn(ctx, in)
			answers = append(answers, quire.ErrorCode(err)+": "+quire.ErrorMessage(err))
		}
		if answers[0] != answers[1] || answers[1] != answers[2] || !strings.HasPrefix(answers[0], quire.EUNAUTHORIZED) {
			t.Errorf("answers differ: %q", answers)
		}
		si, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the right password"})
		if err != nil || si.User.ID != f.admin.ID {
			t.Fatalf("sign in = %v, %v", si, err)
		}
	})
}

func TestSignInRateLimitAcrossReplicas(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		if err := f.st.SetPassword(ctx, f.admin.ID, hashPassword("the right password", testParams), f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		// A second replica: its own Service and Accounts, the same database.
		other := NewAccounts(New(st, WithClock(f.clock.Now)), AccountsConfig{Params: testParams})
		replicas := []*Accounts{f.acc, other}
		for i := range MaxSignInFailuresAccount {
			_, err := replicas[i%2].SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "wrong password",
				Client: Client{Address: "10.0.0." + string(rune('1'+i))}})
			wantErr(t, err, quire.EUNAUTHORIZED, "")
		}
		for _, r := range replicas {
			_, err := r.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the right password", Client: Client{Address: "10.9.9.9"}})
			wantErr(t, err, quire.ETOOMANY, "")
		}
		f.clock.Add(SignInWindow + time.Second)
		if _, err := other.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the right password"}); err != nil {
			t.Fatalf("after the window: %v", err)
		}

		// One address trying many accounts.
		for i := range MaxSignInFailuresAddress {
			_, err := replicas[i%2].SignIn(ctx, SignInInput{Email: "guess" + string(rune('a'+i)) + "@example.com",
				Password: "wrong password", Client: Client{Address: "192.0.2.7"}})
			wantErr(t, err, quire.EUNAUTHORIZED, "")
		}
		_, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the right password", Client: Client{Address: "192.0.2.7"}})
		wantErr(t, err, quire.ETOOMANY, "")
		if _, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the right password", Client: Client{Address: "192.0.2.8"}}); err != nil {
			t.Fatalf("from another address: %v", err)
		}
	})
}

func TestResetByEmail(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		if err := f.acc.RequestReset(ctx, "nobody@example.com"); err != nil {
			t.Fatalf("unknown email: %v", err)
		}
		if err := f.acc.RequestReset(ctx, "admin@example.com"); err != nil {
			t.Fatal(err)
		}
		f.acc.WaitMail()
		sent := f.mail.all()
		if len(sent) != 1 || sent[0].to != "admin@example.com" {
			t.Fatalf("sent %+v, want one email to the admin", sent)
		}
		i := strings.Index(sent[0].body, "https://q.example/app/reset/")
		if i < 0 {
			t.Fatalf("no link in %q", sent[0].body)
		}
		link, _, _ := strings.Cut(sent[0].body[i:], "\n")
		secret := secretOf(t, link, "/app/reset/")
		old, _, err := f.svc.OpenSession(ctx, f.admin.ID, SessionOrigin{Method: quire.SessionPassword})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.acc.CompleteReset(ctx, secret, "a brand new password", Client{}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.AuthenticateSession(ctx, old); err == nil {
			t.Error("a reset left an old session open")
		}
		_, err = f.acc.CompleteReset(ctx, secret, "yet another password", Client{})
		wantErr(t, err, quire.ENOTFOUND, "")

		// Without email the page says to ask an administrator.
		quiet := NewAccounts(f.svc, AccountsConfig{Params: testParams})
		wantErr(t, quiet.RequestReset(ctx, "admin@example.com"), quire.EUNAVAILABLE, "")
	})
}

func TestChangePasswordEndsOtherSessions(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		if err := f.st.SetPassword(ctx, f.admin.ID, hashPassword("the first password", testParams), f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		mine, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the first password"})
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the first password"})
		if err != nil {
			t.Fatal(err)
		}
		_, own, err := f.svc.AuthenticateSession(ctx, mine.Secret)
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, f.acc.ChangePassword(ctx, f.admin, "not it", "the second password", own.ID), quire.EINVALID, "currentPassword")
		wantErr(t, f.acc.ChangePassword(ctx, f.admin, "the first password", "short", own.ID), quire.EINVALID, "password")
		if err := f.acc.ChangePassword(ctx, f.admin, "the first password", "the second password", own.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.AuthenticateSession(ctx, mine.Secret); err != nil {
			t.Errorf("own session ended: %v", err)
		}
		if _, _, err := f.svc.AuthenticateSession(ctx, theirs.Secret); err == nil {
			t.Error("other session still open")
		}
		if _, err := f.acc.SignIn(ctx, SignInInput{Email: "admin@example.com", Password: "the second password"}); err != nil {
			t.Error(err)
		}
	})
}

func TestJoinByInviteGivesTheLinksRole(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		_, err := f.acc.CreateInvite(ctx, f.org, "boss")
		wantErr(t, err, quire.EINVALID, "role")
		inv, err := f.acc.CreateInvite(ctx, f.org, quire.RoleEdit)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.acc.InviteURL(inv); got != "https://q.example/app/join/"+inv.ID {
			t.Errorf("url = %q", got)
		}
		_, err = f.acc.JoinByInvite(ctx, inv.ID, SignUpInput{Name: "Bea", Email: "bea@else.io", Password: "bea@else.io"})
		wantErr(t, err, quire.EINVALID, "password")
		_, err = f.acc.JoinByInvite(ctx, inv.ID, SignUpInput{Name: "Bea", Email: "admin@example.com", Password: "a good password"})
		wantErr(t, err, quire.EINVALID, "email")
		si, err := f.acc.JoinByInvite(ctx, inv.ID, SignUpInput{Name: "Bea", Email: "bea@else.io", Password: "a good password"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := f.st.Member(ctx, f.org, si.User.ID)
		if err != nil || m.Role != quire.RoleEdit || si.OrgID != f.org {
			t.Fatalf("member = %+v, %v; org %q", m, err, si.OrgID)
		}
		list, err := f.acc.Invites(ctx, f.org)
		if err != nil || len(list) != 1 {
			t.Fatalf("invites = %v, %v", list, err)
		}

		// Turning invite links off closes every link; revoking closes one.
		off := false
		if _, err := f.st.UpdateOrganization(ctx, f.org, quire.OrganizationUpdate{InviteLinks: &off}); err != nil {
			t.Fatal(err)
		}
		_, _, err = f.acc.OpenInvite(ctx, inv.ID)
		wantErr(t, err, quire.ENOTFOUND, "")
		_, err = f.acc.CreateInvite(ctx, f.org, quire.RoleRead)
		wantErr(t, err, quire.EPRECONDITION, "")
		on := true
		if _, err := f.st.UpdateOrganization(ctx, f.org, quire.OrganizationUpdate{InviteLinks: &on}); err != nil {
			t.Fatal(err)
		}
		if err := f.acc.RevokeInvite(ctx, f.org, inv.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.acc.JoinByInvite(ctx, inv.ID, SignUpInput{Name: "Cy", Email: "cy@else.io", Password: "a good password"})
		wantErr(t, err, quire.ENOTFOUND, "")
	})
}

func TestSignUpByEmailDomain(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		f := newAccountsFixture(t, st)
		ctx := t.Context()
		domains := []string{"corp.example"}
		if _, err := f.st.UpdateOrganization(ctx, f.org, quire.OrganizationUpdate{EmailDomains: &domains}); err != nil {
			t.Fatal(err)
		}
		for _, email := range []string{"dan@other.example", "admin@example.com", "dan@corp.example"} {
			if err := f.acc.RequestSignUp(ctx, email); err != nil {
				t.Fatalf("%s: %v", email, err)
			}
		}
		f.acc.WaitMail()
		sent := f.mail.all()
		if len(sent) != 1 || sent[0].to != "dan@corp.example" {
			t.Fatalf("sent %+v, want one confirmation to dan", sent)
		}
		i := strings.Index(sent[0].body, "https://q.example/app/sign-up/")
		link, _, _ := strings.Cut(sent[0].body[i:], "\n")
		secret := secretOf(t, link, "/app/sign-up/")
		if email, err := f.acc.SignUpEmail(ctx, secret); err != nil || email != "dan@corp.example" {
			t.Fatalf("email = %q, %v", email, err)
		}
		si, err := f.acc.CompleteSignUp(ctx, secret, SignUpInput{Name: "Dan", Email: "ignored@x.io", Password: "dan's own password"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := f.st.Member(ctx, f.org, si.User.ID)
		if err != nil || m.Role != quire.RoleRead || si.User.Email != "dan@corp.example" {
			t.Fatalf("member = %+v, %v", m, err)
		}
		_, err = f.acc.CompleteSignUp(ctx, secret, SignUpInput{Name: "Dan", Password: "dan's own password"})
		wantErr(t, err, quire.ENOTFOUND, "")
		quiet := NewAccounts(f.svc, AccountsConfig{Params: testParams})
		wantErr(t, quiet.RequestSignUp(ctx, "eve@corp.example"), quire.EUNAVAILABLE, "")

		// An organization requiring SSO is not joined by signing up.
		sso := true
		if _, err := f.st.UpdateOrganization(ctx, f.org, quire.OrganizationUpdate{SSO: &sso}); err != nil {
			t.Fatal(err)
		}
		if err := f.acc.RequestSignUp(ctx, "eve@corp.example"); err != nil {
			t.Fatal(err)
		}
		f.acc.WaitMail()
		if sent := f.mail.all(); len(sent) != 1 {
			t.Fatalf("sent %+v, want no confirmation for an organization requiring SSO", sent)
		}
	})
}
