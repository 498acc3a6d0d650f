package fetch_test

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"quire/internal/fetch"
	"quire/internal/fetch/fetchtest"
)

func TestNewHTTPClientIsGuarded(t *testing.T) {
	srv := fetchtest.Serve(t, text(strings.Repeat("x", fetch.DefaultMaxBytes+1)))
	get := func(c *http.Client) (int64, error) {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, nil)
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		var n int64
		buf := make([]byte, 1<<16)
		for {
			m, err := resp.Body.Read(buf)
			n += int64(m)
			if err != nil {
				return n, nil
			}
		}
	}
	if _, err := get(fetch.NewHTTPClient(fetch.Config{})); err == nil {
		t.Error("the default client reached a loopback server")
	}
	if srv.Hits.Load() != 0 {
		t.Errorf("the loopback server was reached %d times", srv.Hits.Load())
	}
	n, err := get(fetch.NewHTTPClient(fetch.Config{AllowLocal: true}))
	if err != nil || n != fetch.DefaultMaxBytes+1 {
		t.Errorf("allowed client read %d bytes, %v; want the whole body, past the per-file cap", n, err)
	}
}

func TestNewDialerAndCheck(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ap := netip.MustParseAddrPort(ln.Addr().String())
	if _, err := fetch.NewDialer(fetch.Config{}).Dial("tcp", ap.String()); err == nil {
		t.Error("the default dialer reached loopback")
	}
	c, err := fetch.NewDialer(fetch.Config{AllowLocal: true}).Dial("tcp", ap.String())
	if err != nil {
		t.Fatalf("allowed dialer: %v", err)
	}
	c.Close()
	if c, err := fetch.NewDialer(fetch.Config{Guard: fetchtest.Only(ap)}).Dial("tcp", ap.String()); err != nil {
		t.Errorf("dialer with a guard allowing the address: %v", err)
	} else {
		c.Close()
	}

	if err := (fetch.Config{}).Check(ap); err == nil {
		t.Error("the default check lets loopback through")
	}
	if err := (fetch.Config{AllowLocal: true}).Check(ap); err != nil {
		t.Errorf("AllowLocal check: %v", err)
	}
	if err := (fetch.Config{Guard: fetchtest.Only(ap)}).Check(ap); err != nil {
		t.Errorf("check with a guard allowing the address: %v", err)
	}
	if err := (fetch.Config{}).Check(netip.MustParseAddrPort("93.184.215.14:443")); err != nil {
		t.Errorf("a public address is refused: %v", err)
	}
}
