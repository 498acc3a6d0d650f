package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
)

// cheapHashes keep the app tests' password hashes fast; the service
// tests check the real parameters.
var cheapHashes = service.PasswordParams{Memory: 64, Time: 1, Threads: 1}

// accountsOf keeps the password accounts of each harness, whose engines
// run in parallel.
type accountsOf struct {
	mu sync.Mutex
	m  map[*harness]*service.Accounts
}

// option gives the app of a harness password accounts with cheap hashes.
func (a *accountsOf) option() harnessOption {
	return func(h *harness, _ *httpapi.Config, acfg *app.Config) {
		acc := service.NewAccounts(h.Svc, service.AccountsConfig{BaseURL: h.URL, Params: cheapHashes, Clock: h.Clock.Now})
		acfg.Accounts = acc
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.m == nil {
			a.m = map[*harness]*service.Accounts{}
		}
		a.m[h] = acc
	}
}

// of returns the accounts of a harness.
func (a *accountsOf) of(h *harness) *service.Accounts {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.m[h]
}

// setPassword sets a user's password through a reset link.
func setPassword(t *testing.T, acc *service.Accounts, email, pw string) {
	t.Helper()
	link, err := acc.ResetLink(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	secret := link[strings.LastIndex(link, "/")+1:]
	if _, err := acc.CompleteReset(context.Background(), secret, pw, service.Client{}); err != nil {
		t.Fatal(err)
	}
}

func TestSignInForm(t *testing.T) {
	t.Parallel()
	var accs accountsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		setPassword(t, accs.of(h), "ada@acme.test", "ada's long password")
		c := h.client(t, nil)
		code, _, body := h.get(t, c, "/app/sign-in?next=/app/o/"+h.Org)
		if code != http.StatusOK || !strings.Contains(body, `<label for="email">Email</label>`) || strings.Contains(body, "Create an account") {
			t.Fatalf("sign-in page: %d\n%s", code, body)
		}
		wrong := func(email, pw string) string {
			code, _, body := h.postForm(t, c, "/app/sign-in", url.Values{"email": {email}, "password": {pw}})
			if code != http.StatusUnauthorized {
				t.Errorf("%s: %d", email, code)
			}
			i := strings.Index(body, `<p class="form-error"`)
			if i < 0 {
				t.Fatalf("no form error:\n%s", body)
			}
			msg, _, _ := strings.Cut(body[i:], "</p>")
			return msg
		}
		if a, b := wrong("ada@acme.test", "not the password"), wrong("nobody@acme.test", "not the password"); a != b {
			t.Errorf("wrong password %q, unknown email %q", a, b)
		}
		code, _, body = h.postForm(t, c, "/app/sign-in", url.Values{"email": {""}, "password": {"x"}})
		if code != http.StatusBadRequest || !strings.Contains(body, `id="email-error"`) {
			t.Errorf("empty email: %d\n%s", code, body)
		}
		code, loc, _ := h.postForm(t, c, "/app/sign-in", url.Values{"email": {"ada@acme.test"}, "password": {"ada's long password"},
			"next": {"/app/o/" + h.Org}})
		if code != http.StatusSeeOther || loc != "/app/o/"+h.Org {
			t.Fatalf("sign in: %d %q", code, loc)
		}
		if code, _, _ := h.get(t, c, "/app/o/"+h.Org); code != http.StatusOK {
			t.Errorf("signed in, the organization answers %d", code)
		}
		// Only local places are gone to after signing in.
		c2 := h.client(t, nil)
		_, loc, _ = h.postForm(t, c2, "/app/sign-in", url.Values{"email": {"ada@acme.test"}, "password": {"ada's long password"},
			"next": {"//evil.example/app/"}})
		if loc != "/app/" {
			t.Errorf("next to another site went to %q", loc)
		}

		// After five failures the account is refused, even with the right password.
		c3 := h.client(t, nil)
		for range service.MaxSignInFailuresAccount {
			h.postForm(t, c3, "/app/sign-in", url.Values{"email": {"ada@acme.test"}, "password": {"wrong guess!"}})
		}
		code, _, body = h.postForm(t, c3, "/app/sign-in", url.Values{"email": {"ada@acme.test"}, "password": {"ada's long password"}})
		if code != http.StatusTooManyRequests || !strings.Contains(body, "Too many failed sign-ins") {
			t.Errorf("after five failures: %d", code)
		}
	}, accs.option())
}

func TestInvitesPageNeedsAdmin(t *testing.T) {
	t.Parallel()
	var accs accountsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ed := h.newUser(t, "ed@acme.test", "Ed", quire.RoleEdit)
		if code, _, _ := h.get(t, h.client(t, h.signIn(t, ed)), "/app/o/"+h.Org+"/invites"); code != http.StatusForbidden {
			t.Errorf("an editor sees the invites page: %d", code)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		code, loc, _ := h.postForm(t, admin, "/app/o/"+h.Org+"/invites", url.Values{"role": {"review"}})
		if code != http.StatusSeeOther {
			t.Fatalf("create: %d", code)
		}
		id := loc[strings.LastIndex(loc, "=")+1:]
		code, _, body := h.get(t, admin, loc)
		if code != http.StatusOK || !strings.Contains(body, h.URL+"/app/join/"+id) {
			t.Fatalf("invites page: %d\n%s", code, body)
		}
		code, _, body = h.postForm(t, admin, "/app/o/"+h.Org+"/invites", url.Values{"role": {"boss"}})
		if code != http.StatusBadRequest || !strings.Contains(body, "Role must be") {
			t.Errorf("bad role: %d", code)
		}
		if code, _, _ := h.postForm(t, admin, "/app/o/"+h.Org+"/invites/"+id+"/revoke", nil); code != http.StatusSeeOther {
			t.Errorf("revoke: %d", code)
		}
		if code, _, body := h.get(t, h.client(t, nil), "/app/join/"+id); code != http.StatusNotFound || !strings.Contains(body, "revoked") {
			t.Errorf("revoked link: %d", code)
		}
		// Without email, there is no sign-up by domain and resets go through an administrator.
		if code, _, _ := h.get(t, h.client(t, nil), "/app/sign-up"); code != http.StatusNotFound {
			t.Errorf("sign-up without email: %d", code)
		}
		if _, _, body := h.get(t, h.client(t, nil), "/app/forgot"); !strings.Contains(body, "reset-password") {
			t.Errorf("forgot without email:\n%s", body)
		}
	}, accs.option())
}

// TestSignInFormWithSingleSignOn draws the sign-in page signed out on a
// server offering SAML, as every server does: the form and the single
// sign-on button, which keeps where to go next.
func TestSignInFormWithSingleSignOn(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		c := h.client(t, nil)
		code, _, body := h.get(t, c, "/app/sign-in?next=/app/o/"+h.Org)
		if code != http.StatusOK || !strings.Contains(body, `<label for="email">Email</label>`) ||
			!strings.Contains(body, `Sign in with your organization’s SSO</a>`) ||
			!strings.Contains(body, `href="/app/sign-in/sso?next=%2Fapp%2Fo%2F`+h.Org+`"`) {
			t.Fatalf("sign-in page with single sign-on: %d\n%s", code, body)
		}
	}, withSAMLSettings())
}
