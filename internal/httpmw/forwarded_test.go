package httpmw

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParseProxies(t *testing.T) {
	got, err := ParseProxies(" 10.0.0.0/8, 192.168.1.7 ,::1,fd00::1/8,")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.168.1.7/32", "::1/128", "fd00::/8"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	for _, bad := range []string{"proxy.local", "10.0.0.0/33", "10.0.0"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q): want an error", bad)
		}
	}
}

func TestForwardedForBelievesTrustedProxiesOnly(t *testing.T) {
	trusted, err := ParseProxies("10.0.0.0/8, 192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	var seen string
	h := ForwardedFor(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = ClientAddress(r) }))
	for _, c := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"direct, no header", "198.51.100.4:5000", nil, "198.51.100.4"},
		{"direct client forging the header", "198.51.100.4:5000", []string{"203.0.113.9"}, "198.51.100.4"},
		{"through the proxy", "10.1.2.3:443", []string{"203.0.113.9"}, "203.0.113.9"},
		{"a forged entry left of the real client", "10.1.2.3:443", []string{"1.2.3.4, 203.0.113.9"}, "203.0.113.9"},
		{"two trusted hops", "10.1.2.3:443", []string{"203.0.113.9, 192.0.2.1"}, "203.0.113.9"},
		{"hops over several header lines", "10.1.2.3:443", []string{"1.2.3.4", "203.0.113.9", "10.9.9.9"}, "203.0.113.9"},
		{"all trusted: the farthest", "10.1.2.3:443", []string{"10.4.4.4, 10.5.5.5"}, "10.4.4.4"},
		{"garbage stops at the last proxy", "10.1.2.3:443", []string{"203.0.113.9, nonsense, 10.5.5.5"}, "10.5.5.5"},
		{"an entry with a port", "10.1.2.3:443", []string{"[2001:db8::7]:4711"}, "2001:db8::7"},
		{"through the proxy, no header", "10.1.2.3:443", nil, "10.1.2.3"},
	} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = c.remote
		for _, v := range c.xff {
			req.Header.Add("X-Forwarded-For", v)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if seen != c.want {
			t.Errorf("%s: client %q, want %q", c.name, seen, c.want)
		}
	}
	direct := ForwardedFor(nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = ClientAddress(r) }))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.RemoteAddr = "10.1.2.3:443"
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	direct.ServeHTTP(httptest.NewRecorder(), req)
	if seen != "10.1.2.3" {
		t.Errorf("without trusted proxies the header is ignored: %q", seen)
	}
}
