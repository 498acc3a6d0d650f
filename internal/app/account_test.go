package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// apiStatus is the status of GET /v1/user with a bearer token.
func (h *harness) apiStatus(t *testing.T, token string) int {
	t.Helper()
	code, _, _ := h.do(t, h.client(t, nil), http.MethodGet, "/v1/user", nil, http.Header{"Authorization": {"Bearer " + token}})
	return code
}

func TestAccountTokens(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		c := h.client(t, h.signIn(t, h.Admin))
		code, _, body := h.postForm(t, c, "/app/account/tokens", url.Values{"name": {"  "}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Name must not be empty") {
			t.Fatalf("empty name: %d %s", code, body)
		}
		code, _, body = h.postForm(t, c, "/app/account/tokens", url.Values{"name": {"CI deploys"}})
		if code != http.StatusCreated {
			t.Fatalf("create: %d %s", code, body)
		}
		i := strings.Index(body, `value="qt_`)
		if i < 0 {
			t.Fatalf("the new token is not shown: %s", body)
		}
		token := body[i+len(`value="`):]
		token = token[:strings.IndexByte(token, '"')]
		if h.apiStatus(t, token) != http.StatusOK {
			t.Fatal("the new token is refused by the API")
		}
		code, _, body = h.get(t, c, "/app/account")
		if code != http.StatusOK || !strings.Contains(body, "CI deploys") || strings.Contains(body, token) {
			t.Fatalf("the list shows the secret or not the name: %d", code)
		}
		tokens, err := h.Svc.ListTokens(context.Background(), h.Admin)
		if err != nil || len(tokens) != 2 || tokens[0].Name != "CI deploys" {
			t.Fatalf("tokens %v %v", tokens, err)
		}
		// Another person cannot revoke it.
		bob := h.newUser(t, "bob@acme.test", "Bob", "read")
		code, _, _ = h.postForm(t, h.client(t, h.signIn(t, bob)), "/app/account/tokens/"+tokens[0].ID+"/revoke", nil)
		if code != http.StatusNotFound || h.apiStatus(t, token) != http.StatusOK {
			t.Fatalf("another's revoke: %d", code)
		}
		code, loc, _ := h.postForm(t, c, "/app/account/tokens/"+tokens[0].ID+"/revoke", nil)
		if code != http.StatusSeeOther || !strings.Contains(loc, "done=token-revoked") {
			t.Fatalf("revoke: %d %s", code, loc)
		}
		if got := h.apiStatus(t, token); got != http.StatusUnauthorized {
			t.Fatalf("a revoked token: %d", got)
		}
	})
}

func TestAccountSessions(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		here := h.client(t, h.signIn(t, h.Admin))
		there := h.client(t, h.signIn(t, h.Admin))
		third := h.client(t, h.signIn(t, h.Admin))
		code, _, body := h.get(t, here, "/app/account")
		if code != http.StatusOK || strings.Count(body, "This device") != 1 || strings.Count(body, `aria-label="Sign out `) != 2 {
			t.Fatalf("account: %d %s", code, body)
		}
		if !strings.Contains(body, `<h2 id="password-heading">Password</h2>`) || !strings.Contains(body, `href="/app/account/password"`) {
			t.Error("no password section linking to its form")
		}
		list, err := h.Svc.ListSessions(ctx, h.Admin, "")
		if err != nil || len(list) != 3 {
			t.Fatalf("sessions %v %v", list, err)
		}
		// Find the session of "there": the one its page marks current.
		_, _, thereBody := h.get(t, there, "/app/account")
		var thereID string
		for _, s := range list {
			if !strings.Contains(thereBody, "/app/account/sessions/"+s.ID+"/revoke") {
				thereID = s.ID
			}
		}
		bob := h.newUser(t, "bob@acme.test", "Bob", "read")
		if code, _, _ := h.postForm(t, h.client(t, h.signIn(t, bob)), "/app/account/sessions/"+thereID+"/revoke", nil); code != http.StatusNotFound {
			t.Fatalf("another's revoke: %d", code)
		}
		if code, _, _ := h.postForm(t, here, "/app/account/sessions/"+thereID+"/revoke", nil); code != http.StatusSeeOther {
			t.Fatalf("revoke: %d", code)
		}
		if code, loc, _ := h.get(t, there, "/app/account"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
			t.Fatalf("a revoked session: %d %s", code, loc)
		}
		if code, _, _ := h.get(t, third, "/app/account"); code != http.StatusOK {
			t.Fatal("a session not revoked was ended")
		}
		if code, _, _ := h.postForm(t, here, "/app/account/sessions/revoke-others", nil); code != http.StatusSeeOther {
			t.Fatalf("revoke others: %d", code)
		}
		if code, _, _ := h.get(t, third, "/app/account"); code != http.StatusSeeOther {
			t.Fatal("sign out everywhere else left a session")
		}
		if code, _, _ := h.get(t, here, "/app/account"); code != http.StatusOK {
			t.Fatal("sign out everywhere else ended this one")
		}
		// A week without use ends it.
		h.Clock.Advance(7*24*time.Hour + time.Minute)
		if code, loc, _ := h.get(t, here, "/app/account"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in?next=%2Fapp%2Faccount") {
			t.Fatalf("an idle session: %d %s", code, loc)
		}
	})
}

func TestAccountProfile(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		c := h.client(t, h.signIn(t, h.Admin))
		code, _, body := h.postForm(t, c, "/app/account/profile", url.Values{"displayName": {""}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "Display name must not be empty") {
			t.Fatalf("empty name: %d %s", code, body)
		}
		if code, _, _ := h.postForm(t, c, "/app/account/profile", url.Values{"displayName": {"Ada Lovelace"}}); code != http.StatusSeeOther {
			t.Fatalf("save: %d", code)
		}
		if _, _, body := h.get(t, c, "/app/account"); !strings.Contains(body, `value="Ada Lovelace"`) {
			t.Fatal("the name was not saved")
		}
		if code, loc, _ := h.get(t, h.client(t, nil), "/app/account"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
			t.Fatalf("signed out: %d %s", code, loc)
		}
	})
}
