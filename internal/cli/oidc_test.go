package cli

import (
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/oidctest"
	"quire/internal/service"
	"quire/internal/store"
)

// TestOIDCConfig checks the OpenID Connect settings: flags over the
// environment, the secret from the environment or a file but never a
// flag, and the settings that cannot work refused.
func TestOIDCConfig(t *testing.T) {
	c, err := Load([]string{"--oidc-name", "Keycloak"}, env(map[string]string{
		"QUIRE_OIDC_ISSUER": "https://id.example/realms/q", "QUIRE_OIDC_CLIENT_ID": "quire",
		"QUIRE_OIDC_CLIENT_SECRET": "s", "QUIRE_OIDC_NAME": "Env"}))
	if err != nil {
		t.Fatal(err)
	}
	want := OIDCConfig{Issuer: "https://id.example/realms/q", ClientID: "quire", ClientSecret: "s", Name: "Keycloak"}
	if c.OIDC != want {
		t.Fatalf("OIDC = %+v, want %+v", c.OIDC, want)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := Load([]string{"--oidc-client-secret", "x"}, env(nil)); err == nil {
		t.Fatal("a client secret on the command line was accepted")
	}
	for _, tc := range []struct {
		o    OIDCConfig
		want string
	}{
		{OIDCConfig{Issuer: "id.example", ClientID: "q"}, "--oidc-issuer"},
		{OIDCConfig{Issuer: "https://id.example"}, "--oidc-client-id"},
		{OIDCConfig{ClientID: "q"}, "need --oidc-issuer"},
		{OIDCConfig{Issuer: "https://id.example", ClientID: "q", ClientSecret: "a", ClientSecretFile: "/f"}, "not both"},
	} {
		c := DefaultConfig()
		c.OIDC = tc.o
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error naming %s", tc.o, err, tc.want)
		}
	}
}

// TestNewOIDCReadsSecretFile checks that the secret file is read, and
// that the issuer, on a loopback address as a Keycloak beside the
// server would be, is reached through the operator's allowance.
func TestNewOIDCReadsSecretFile(t *testing.T) {
	is := oidctest.New(t)
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(is.ClientSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := DefaultConfig()
	cfg.OIDC = OIDCConfig{Issuer: is.URL, ClientID: is.ClientID, ClientSecretFile: path}
	svc := service.New(st)
	if _, err := svc.Bootstrap(t.Context(), service.BootstrapInput{OrgTitle: "Org", Email: "ada@example.com", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	o, err := newOIDC(cfg, "http://127.0.0.1:1/", svc, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	start, err := o.StartLogin(t.Context(), "/app/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(start.URL, "redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fapp%2Fsign-in%2Foidc%2Fcallback") {
		t.Fatalf("authorization URL %s lacks the callback", start.URL)
	}
	// The code is exchanged with the secret read from the file.
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(start.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, _ := url.Parse(resp.Header.Get("Location"))
	login, err := o.FinishLogin(t.Context(), service.OIDCAnswer{Code: back.Query().Get("code"),
		State: back.Query().Get("state"), CookieState: start.State})
	if err != nil || login.User.Email != "ada@example.com" {
		t.Fatalf("sign-in: %+v, %v", login, err)
	}
	if o.Name() != "127.0.0.1" {
		t.Fatalf("name = %q, want the issuer's host", o.Name())
	}
	cfg.OIDC.ClientSecretFile = filepath.Join(t.TempDir(), "missing")
	if _, err := newOIDC(cfg, "http://127.0.0.1:1", service.New(st), slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("a missing secret file was accepted")
	}
}
