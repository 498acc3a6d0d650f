package cli

import (
	"strings"
	"testing"
	"time"

	"quire/internal/ratelimit"
	"quire/internal/service"
)

func TestLoadRateLimits(t *testing.T) {
	vars := map[string]string{
		"QUIRE_RATE_LIMIT":         "600/1m",
		"QUIRE_RATE_LIMIT_ADDRESS": "50",
		"QUIRE_RATE_LIMIT_SIGN_IN": "5/15m",
		"QUIRE_RATE_LIMIT_SEARCH":  "0",
		"QUIRE_TRUSTED_PROXIES":    "10.0.0.0/8",
	}
	c, err := Load(nil, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want := RateLimitConfig{RateLimits: service.RateLimitsConfig{
		Caller:  ratelimit.PerMinute(600),
		Address: ratelimit.PerMinute(50),
		SignIn:  ratelimit.Rate{Requests: 5, Window: 15 * time.Minute},
		Reset:   service.DefaultRateLimits().Reset,
	}, TrustedProxies: "10.0.0.0/8"}
	if c.RateLimitConfig != want {
		t.Errorf("env: got %+v\nwant %+v", c.RateLimitConfig, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("valid limits refused: %v", err)
	}

	c, err = Load([]string{"--rate-limit", "0", "--rate-limit-reset", "3/1h", "--rate-limit-search", "200/30s", "--trusted-proxies", ""}, env(vars))
	if err != nil {
		t.Fatal(err)
	}
	want.RateLimits.Caller, want.RateLimits.Reset = ratelimit.Rate{}, ratelimit.Rate{Requests: 3, Window: time.Hour}
	want.RateLimits.Search, want.TrustedProxies = ratelimit.Rate{Requests: 200, Window: 30 * time.Second}, ""
	if c.RateLimitConfig != want {
		t.Errorf("flags: got %+v\nwant %+v", c.RateLimitConfig, want)
	}

	if _, err := Load(nil, env(map[string]string{"QUIRE_RATE_LIMIT_RESET": "often"})); err == nil ||
		!strings.Contains(err.Error(), "QUIRE_RATE_LIMIT_RESET") {
		t.Errorf("bad env rate: %v", err)
	}
	if _, err := Load([]string{"--rate-limit", "10/0s"}, env(nil)); err == nil || !strings.Contains(err.Error(), "rate-limit") {
		t.Errorf("bad flag rate: %v", err)
	}
	c = DefaultConfig()
	c.TrustedProxies = "10.0.0.0/8, proxy"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--trusted-proxies") {
		t.Errorf("bad proxies: %v", err)
	}
}
