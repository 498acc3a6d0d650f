package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// healthcheckSynopsis is the first line of healthcheck's usage.
const healthcheckSynopsis = "quire healthcheck [flags]"

// defaultHealthcheckTimeout bounds one check when --timeout is not given.
const defaultHealthcheckTimeout = 5 * time.Second

// runHealthcheck asks the server listening on --addr (QUIRE_ADDR, read as
// serve reads it) for /healthz and fails unless it answers 200. It is the
// health check of the container image, which has no curl.
func runHealthcheck(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("healthcheck")
	addr := fs.String("addr", envDefault(env.Getenv, "QUIRE_ADDR", DefaultAddr),
		"address the server listens on, as given to serve; an unspecified host (0.0.0.0, ::) is asked on loopback (env QUIRE_ADDR)")
	timeout := fs.Duration("timeout", defaultHealthcheckTimeout, "time allowed to the check")
	if err := parseFlags(fs, healthcheckSynopsis, args); err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	target, err := healthzURL(*addr)
	if err != nil {
		return usageError{err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	// The server is local: no proxy from the environment applies.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %s answered %s", target, resp.Status)
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", target, resp.Status)
	return nil
}

// healthzURL returns the /healthz URL of a server listening on addr,
// asking an unspecified or empty host on the loopback address of its
// family.
func healthzURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return "", fmt.Errorf("--addr %q: want host:port with a fixed port", addr)
	}
	switch ip := net.ParseIP(host); {
	case host == "":
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified() && ip.To4() == nil:
		host = "::1"
	case ip != nil && ip.IsUnspecified():
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
