package cli

import (
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

func TestAdminResetPassword(t *testing.T) {
	dir := t.TempDir()
	getenv := env(map[string]string{"QUIRE_DATA": dir, "QUIRE_BASE_URL": "https://docs.example"})
	code, _, stderr := runCmd(t, getenv, "admin", "bootstrap", "--email", "owner@example.com", "--name", "Owner")
	if code != 0 {
		t.Fatalf("admin bootstrap: %d %s", code, stderr)
	}
	code, out, stderr := runCmd(t, getenv, "admin", "user", "reset-password", "owner@example.com")
	if code != 0 {
		t.Fatalf("reset-password: %d %s", code, stderr)
	}
	link, _ := decode(t, out)["link"].(string)
	secret, ok := strings.CutPrefix(link, "https://docs.example/app/reset/")
	if !ok {
		t.Fatalf("link = %q", link)
	}
	code, out, stderr = runCmd(t, getenv, "admin", "user", "reset-password", "--email", "owner@example.com", "--base-url", "http://other:1")
	if code != 0 || !strings.Contains(out, `"http://other:1/app/reset/`) {
		t.Errorf("with flags: %d %s %s", code, out, stderr)
	}
	if code, _, stderr := runCmd(t, getenv, "admin", "user", "reset-password", "nobody@example.com"); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("unknown user: %d %q", code, stderr)
	}
	if code, _, stderr := runCmd(t, getenv, "admin", "user", "reset-password"); code != 2 || !strings.Contains(stderr, "--email is required") {
		t.Errorf("no email: %d %q", code, stderr)
	}

	// The link sets the password, once.
	st, err := store.Open(t.Context(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acc := service.NewAccounts(service.New(st), service.AccountsConfig{})
	if _, err := acc.CompleteReset(t.Context(), secret, "the owner's new password", service.Client{}); err != nil {
		t.Fatal(err)
	}
	if _, err := acc.CompleteReset(t.Context(), secret, "the owner's new password", service.Client{}); quire.ErrorCode(err) != quire.ENOTFOUND {
		t.Errorf("second use: %v", err)
	}
	if _, err := acc.SignIn(t.Context(), service.SignInInput{Email: "owner@example.com", Password: "the owner's new password"}); err != nil {
		t.Errorf("sign in: %v", err)
	}
}
