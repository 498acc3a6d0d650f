package cli

import (
	"flag"
	"strings"
	"time"
)

// envDuration is envDefault for durations (such as 90s or 1h).
func envDuration(getenv func(string) string, key string, def time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, usagef("%s: %q is not a duration such as 90s or 1h", key, v)
	}
	return d, nil
}

// registerOpenAPIFlags binds the flags of the OpenAPI specifications.
func (c *Config) registerOpenAPIFlags(fs *flag.FlagSet, getenv func(string) string) error {
	d := DefaultConfig()
	refresh, err := envDuration(getenv, "QUIRE_OPENAPI_REFRESH", d.OpenAPIRefresh)
	if err != nil {
		return err
	}
	timeout, err := envDuration(getenv, "QUIRE_OPENAPI_FETCH_TIMEOUT", d.OpenAPIFetchTimeout)
	if err != nil {
		return err
	}
	fs.DurationVar(&c.OpenAPIRefresh, "openapi-refresh", refresh,
		"how often OpenAPI specifications given by URL are fetched again (env QUIRE_OPENAPI_REFRESH)")
	fs.DurationVar(&c.OpenAPIFetchTimeout, "openapi-fetch-timeout", timeout,
		"time allowed to fetch an OpenAPI specification's files, all together, before FETCH_TIMEOUT (env QUIRE_OPENAPI_FETCH_TIMEOUT)")
	return nil
}
