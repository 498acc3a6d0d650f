package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPasswordLinkPages opens first start's setup link and a reset link:
// each page says what it is for, over the same new password form; a
// repeated password that differs is named beside its field; the right
// one signs the person in, and the link then reads as not valid.
func TestPasswordLinkPages(t *testing.T) {
	var accs accountsOf
	h := newHarness(t, "sqlite", accs.option())
	acc := accs.of(h)
	ctx := context.Background()
	for _, c := range []struct {
		name         string
		link         func() (string, error)
		title, intro string
	}{
		{"setup", func() (string, error) { return acc.SetupLink(ctx, h.Admin.ID) }, "Set your password", "Welcome, " + h.Admin.DisplayName + ". Choose the password you will sign in with as <strong>" + h.Admin.Email + "</strong>."},
		{"reset", func() (string, error) { return acc.ResetLink(ctx, h.Admin.Email) }, "Choose a new password", "For <strong>" + h.Admin.Email + "</strong>. Saving it signs you out everywhere else."},
	} {
		link, err := c.link()
		if err != nil {
			t.Fatal(err)
		}
		path := strings.TrimPrefix(link, h.URL)
		cl := h.client(t, nil)
		code, _, body := h.get(t, cl, path)
		for _, want := range []string{"<title>" + c.title, "<h1>" + c.title + "</h1>", c.intro, `action="` + path + `"`,
			`<label for="password">New password</label>`, `<label for="confirm">Repeat the password</label>`,
			"Save password and sign in"} {
			if code != http.StatusOK || !strings.Contains(body, want) {
				t.Fatalf("%s page: %d, no %q\n%s", c.name, code, want, body)
			}
		}
		code, _, body = h.postForm(t, cl, path, url.Values{"password": {"a long new passphrase"}, "confirm": {"another passphrase"}})
		if code != http.StatusBadRequest || !strings.Contains(body, `id="confirm-error">Repeated password does not match the password`) ||
			!strings.Contains(body, "<h1>"+c.title+"</h1>") {
			t.Fatalf("%s with a different repeat: %d\n%s", c.name, code, body)
		}
		code, hdr, _ := h.postForm(t, cl, path, url.Values{"password": {"a long new passphrase"}, "confirm": {"a long new passphrase"}})
		if code != http.StatusSeeOther || hdr != "/app/" {
			t.Fatalf("%s: %d to %q, want 303 to /app/", c.name, code, hdr)
		}
		if code, _, body := h.get(t, h.client(t, nil), path); code != http.StatusNotFound || !strings.Contains(body, "Link not valid") {
			t.Errorf("%s link used twice: %d\n%s", c.name, code, body)
		}
	}
}
