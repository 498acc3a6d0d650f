package cli

import (
	"net"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

func TestLoadDefaults(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c != DefaultConfig() {
		t.Errorf("Load with nothing = %+v, want %+v", c, DefaultConfig())
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
}

func TestLoadPrecedence(t *testing.T) {
	vars := map[string]string{
		"QUIRE_ADDR":              "127.0.0.1:9000",
		"QUIRE_DATA":              "/env/data",
		"QUIRE_DATABASE_URL":      "postgres://env/db",
		"QUIRE_BASE_URL":          "https://env.example",
		"QUIRE_MAX_BODY_BYTES":    "2048",
		"QUIRE_LOG_FORMAT":        "json",
		"QUIRE_LOG_LEVEL":         "debug",
		"QUIRE_ALLOW_LOCAL_FETCH": "true",
		"QUIRE_METRICS_ADDR":      "127.0.0.1:9100",
		"QUIRE_STRICT_INPUT":      "true",
		"QUIRE_GIT_TIMEOUT":       "40m",
		"QUIRE_SESSION_LIFETIME":  "48h",
		"QUIRE_SESSION_IDLE":      "1h",
	}
	// Environment over defaults.
	c, err := Load(nil, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Addr, want.DataDir, want.DatabaseURL, want.BaseURL = "127.0.0.1:9000", "/env/data", "postgres://env/db", "https://env.example"
	want.MaxBodyBytes, want.LogFormat, want.LogLevel = 2048, "json", "debug"
	want.AllowLocalFetch = true
	want.MetricsAddr = "127.0.0.1:9100"
	want.StrictInput = true
	want.GitTimeout = 40 * time.Minute
	want.SessionLifetime, want.SessionIdle = 48*time.Hour, time.Hour
	if c != want {
		t.Errorf("env: got %+v\nwant %+v", c, want)
	}

	// Flags over environment.
	c, err = Load([]string{
		"--addr", ":7000", "--data", "/flag/data", "--database", "", "--base-url", "http://flag.example",
		"--max-body", "10", "--log-format", "text", "--log-level", "warn", "--allow-local-fetch=false", "--strict-input=false",
		"--org-title", "Acme", "--admin-email", "a@b.c", "--admin-name", "Ann", "--metrics-addr", "",
		"--openapi-refresh", "10m", "--openapi-fetch-timeout", "5s", "--git-timeout", "90s",
		"--session-lifetime", "72h", "--session-idle", "2h",
	}, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want = Config{
		StoreConfig: StoreConfig{DataDir: "/flag/data"},
		Addr:        ":7000", BaseURL: "http://flag.example", MaxBodyBytes: 10,
		LogFormat: "text", LogLevel: "warn", OrgTitle: "Acme", AdminEmail: "a@b.c", AdminName: "Ann",
		OpenAPIRefresh: 10 * time.Minute, OpenAPIFetchTimeout: 5 * time.Second, GitTimeout: 90 * time.Second,
		SessionConfig:   SessionConfig{SessionLifetime: 72 * time.Hour, SessionIdle: 2 * time.Hour},
		RateLimitConfig: RateLimitConfig{RateLimits: service.DefaultRateLimits()},
	}
	if c != want {
		t.Errorf("flags: got %+v\nwant %+v", c, want)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(nil, env(map[string]string{"QUIRE_MAX_BODY_BYTES": "lots"})); err == nil ||
		!strings.Contains(err.Error(), "QUIRE_MAX_BODY_BYTES") {
		t.Errorf("bad env integer: %v", err)
	}
	if _, err := Load(nil, env(map[string]string{"QUIRE_ALLOW_LOCAL_FETCH": "perhaps"})); err == nil ||
		!strings.Contains(err.Error(), "QUIRE_ALLOW_LOCAL_FETCH") {
		t.Errorf("bad env boolean: %v", err)
	}
	if _, err := Load(nil, env(map[string]string{"QUIRE_STRICT_INPUT": "sometimes"})); err == nil ||
		!strings.Contains(err.Error(), "QUIRE_STRICT_INPUT") {
		t.Errorf("bad env boolean: %v", err)
	}
	if _, err := Load(nil, env(map[string]string{"QUIRE_GIT_TIMEOUT": "forever"})); err == nil ||
		!strings.Contains(err.Error(), "QUIRE_GIT_TIMEOUT") {
		t.Errorf("bad env duration: %v", err)
	}
	if _, err := Load([]string{"--nope"}, env(nil)); err == nil {
		t.Error("unknown flag accepted")
	}
	if _, err := Load([]string{"extra"}, env(nil)); err == nil {
		t.Error("positional argument accepted")
	}
}

func TestValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		mod  func(*Config)
		want string
	}{
		"addr":         {func(c *Config) { c.Addr = "8080" }, "--addr"},
		"data":         {func(c *Config) { c.DataDir = " " }, "--data"},
		"database":     {func(c *Config) { c.DatabaseURL = "mysql://x" }, "--database"},
		"base url":     {func(c *Config) { c.BaseURL = "ftp://x" }, "--base-url"},
		"relative url": {func(c *Config) { c.BaseURL = "/x" }, "--base-url"},
		"max body":     {func(c *Config) { c.MaxBodyBytes = 0 }, "--max-body"},
		"metrics addr": {func(c *Config) { c.MetricsAddr = "9090" }, "--metrics-addr"},
		"log format":   {func(c *Config) { c.LogFormat = "xml" }, "--log-format"},
		"log level":    {func(c *Config) { c.LogLevel = "loud" }, "--log-level"},
		"org title":    {func(c *Config) { c.OrgTitle = "" }, "--org-title"},
		"admin email":  {func(c *Config) { c.AdminEmail = "" }, "--admin-email"},
		"admin name":   {func(c *Config) { c.AdminName = "" }, "--admin-name"},
		"git timeout":  {func(c *Config) { c.GitTimeout = 0 }, "--git-timeout"},
		"session idle": {func(c *Config) { c.SessionIdle = 0 }, "--session-idle"},
	} {
		t.Run(name, func(t *testing.T) {
			c := DefaultConfig()
			tc.mod(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate = %v, want an error about %s", err, tc.want)
			}
		})
	}
	c := DefaultConfig()
	c.DatabaseURL = "postgresql://u@h/db"
	c.BaseURL = "https://quire.example/base"
	c.MetricsAddr = "127.0.0.1:9090"
	if err := c.Validate(); err != nil {
		t.Errorf("valid config refused: %v", err)
	}
}

func TestDeriveBaseURL(t *testing.T) {
	for _, tc := range []struct {
		addr  string
		bound *net.TCPAddr
		want  string
	}{
		{"127.0.0.1:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5555}, "http://127.0.0.1:5555"},
		{":8080", &net.TCPAddr{IP: net.IPv6zero, Port: 8080}, "http://127.0.0.1:8080"},
		{"0.0.0.0:80", &net.TCPAddr{IP: net.IPv4zero, Port: 80}, "http://127.0.0.1:80"},
		{"[::]:0", &net.TCPAddr{IP: net.IPv6zero, Port: 81}, "http://localhost:81"},
		{"[::1]:0", &net.TCPAddr{IP: net.IPv6loopback, Port: 9}, "http://[::1]:9"},
		{"quire.internal:8080", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 8080}, "http://quire.internal:8080"},
	} {
		if got := deriveBaseURL(tc.addr, tc.bound); got != tc.want {
			t.Errorf("deriveBaseURL(%q, %v) = %q, want %q", tc.addr, tc.bound, got, tc.want)
		}
	}
}
