package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestAccountPassword checks the password change of the account
// settings: a wrong current password and a weak new one are refused
// naming the field, and a change takes effect, ends the person's other
// sessions and keeps this one.
func TestAccountPassword(t *testing.T) {
	var accs accountsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		acc := accs.of(h)
		setPassword(t, acc, "ada@acme.test", "ada's long password")
		here := h.client(t, h.signIn(t, h.Admin))
		there := h.client(t, h.signIn(t, h.Admin))
		bob := h.newUser(t, "bob@acme.test", "Bob", quire.RoleRead)
		bobs := h.client(t, h.signIn(t, bob))

		code, _, body := h.get(t, here, "/app/account/password")
		if code != http.StatusOK || !strings.Contains(body, "<h1>Change your password</h1>") || !strings.Contains(body, `<label for="current">Current password</label>`) {
			t.Fatalf("password page: %d\n%s", code, body)
		}
		change := func(current, next, confirm string) (int, string) {
			code, _, body := h.postForm(t, here, "/app/account/password", url.Values{"current": {current}, "password": {next}, "confirm": {confirm}})
			return code, body
		}
		fieldError := func(body, field string) string {
			i := strings.Index(body, `<p class="field-error" id="`+field+`-error">`)
			if i < 0 {
				return ""
			}
			msg, _, _ := strings.Cut(body[i:], "</p>")
			return msg
		}

		code, body = change("not my password", "a brand new passphrase", "a brand new passphrase")
		if msg := fieldError(body, "current"); code != http.StatusBadRequest || !strings.Contains(msg, "Current password is not your current password") ||
			!strings.Contains(body, `id="current" name="current" type="password" autocomplete="current-password" required aria-invalid="true"`) {
			t.Fatalf("wrong current password: %d %q", code, msg)
		}
		code, body = change("ada's long password", "qwertyuiop", "qwertyuiop")
		if msg := fieldError(body, "password"); code != http.StatusBadRequest || !strings.HasPrefix(msg, `<p class="field-error" id="password-error">New password `) ||
			!strings.Contains(msg, "common") {
			t.Fatalf("weak new password: %d %q", code, msg)
		}
		code, body = change("ada's long password", "a brand new passphrase", "another passphrase")
		if msg := fieldError(body, "confirm"); code != http.StatusBadRequest || !strings.Contains(msg, "does not match the new password") {
			t.Fatalf("repeated password differs: %d %q", code, msg)
		}
		// Nothing refused changed the password nor ended a session.
		if _, err := acc.SignIn(ctx, service.SignInInput{Email: "ada@acme.test", Password: "ada's long password"}); err != nil {
			t.Fatalf("a refused change changed the password: %v", err)
		}
		if code, _, _ := h.get(t, there, "/app/account"); code != http.StatusOK {
			t.Fatalf("a refused change ended another session: %d", code)
		}

		code, body = change("ada's long password", "a brand new passphrase", "a brand new passphrase")
		if code != http.StatusOK || !strings.Contains(body, "Your password was changed, and your other sessions were signed out.") {
			t.Fatalf("change: %d\n%s", code, body)
		}
		if _, err := acc.SignIn(ctx, service.SignInInput{Email: "ada@acme.test", Password: "a brand new passphrase"}); err != nil {
			t.Fatalf("sign in with the new password: %v", err)
		}
		if _, err := acc.SignIn(ctx, service.SignInInput{Email: "ada@acme.test", Password: "ada's long password"}); quire.ErrorCode(err) != quire.EUNAUTHORIZED {
			t.Fatalf("sign in with the old password: %v", err)
		}
		if code, loc, _ := h.get(t, there, "/app/account"); code != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
			t.Fatalf("the other session after the change: %d %q", code, loc)
		}
		if code, _, _ := h.get(t, here, "/app/account"); code != http.StatusOK {
			t.Fatalf("this session after the change: %d", code)
		}
		if code, _, _ := h.get(t, bobs, "/app/account"); code != http.StatusOK {
			t.Fatalf("another person's session after the change: %d", code)
		}
	}, accs.option())
}
