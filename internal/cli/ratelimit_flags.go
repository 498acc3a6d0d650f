package cli

import (
	"flag"

	"quire/internal/httpmw"
	"quire/internal/ratelimit"
	"quire/internal/service"
)

// RateLimitConfig is the rate limits of the server, and the proxies
// whose X-Forwarded-For says which client address a request counts for.
type RateLimitConfig struct {
	RateLimits service.RateLimitsConfig
	// TrustedProxies lists the addresses and networks of the reverse
	// proxies in front of the server, comma-separated; empty trusts none.
	TrustedProxies string
}

// register binds the rate limit flags, defaulting to the environment,
// then to the service's defaults.
func (c *RateLimitConfig) register(fs *flag.FlagSet, getenv func(string) string) error {
	c.RateLimits = service.DefaultRateLimits()
	for _, f := range []struct {
		rate        *ratelimit.Rate
		name, env   string
		description string
	}{
		{&c.RateLimits.Caller, "rate-limit", "QUIRE_RATE_LIMIT",
			"API requests allowed to one API token, browser session or integration installation; a `RATE` is N/WINDOW (600/1m, 5000/1h), N for N a minute, or 0 for no limit; counted by each replica on its own"},
		{&c.RateLimits.Address, "rate-limit-address", "QUIRE_RATE_LIMIT_ADDRESS",
			"`RATE` of API requests allowed to one client address without a valid credential (no token, a wrong one, signed download links, the OpenAPI document); counted by each replica on its own"},
		{&c.RateLimits.SignIn, "rate-limit-sign-in", "QUIRE_RATE_LIMIT_SIGN_IN",
			"`RATE` of password sign-ins allowed to one client address; counted in the database, for every replica together"},
		{&c.RateLimits.Reset, "rate-limit-reset", "QUIRE_RATE_LIMIT_RESET",
			"`RATE` of password reset requests and resets allowed to one client address; counted in the database, for every replica together"},
		{&c.RateLimits.Search, "rate-limit-search", "QUIRE_RATE_LIMIT_SEARCH",
			"`RATE` of searches of published sites (search box, results page, MCP search tool) allowed to one client address; counted by each replica on its own"},
	} {
		if v := getenv(f.env); v != "" {
			if err := f.rate.Set(v); err != nil {
				return usagef("%s: %v", f.env, err)
			}
		}
		fs.Var(f.rate, f.name, f.description+" (env "+f.env+")")
	}
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", envDefault(getenv, "QUIRE_TRUSTED_PROXIES", ""),
		"reverse proxies whose X-Forwarded-For names the client address that rate limits and sign-in failures count, comma-separated addresses or networks such as 10.0.0.0/8; empty trusts none (env QUIRE_TRUSTED_PROXIES)")
	return nil
}

// Validate refuses a list of proxies that does not parse.
func (c RateLimitConfig) Validate() error {
	if _, err := httpmw.ParseProxies(c.TrustedProxies); err != nil {
		return usagef("--trusted-proxies: %v", err)
	}
	return nil
}
