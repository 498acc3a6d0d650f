package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/app"
	"quire/internal/httpmw"
	"quire/internal/quire"
	"quire/internal/ratelimit"
	"quire/internal/service"
)

// limitedServer is another server over a test server's service, with rate
// limits and the web app, behind a proxy it trusts: each request names
// its client address in X-Forwarded-For.
type limitedServer struct {
	*testServer
	url string
	// mails counts the reset emails sent.
	mails    *countingMailer
	accounts *service.Accounts
}

// countingMailer counts the email it is asked to send.
type countingMailer struct{ n atomic.Int32 }

// Send implements service.Mailer.
func (m *countingMailer) Send(context.Context, string, string, string) error {
	m.n.Add(1)
	return nil
}

// limitedServer starts a server over ts's service with the rate limits of
// cfg.
func (ts *testServer) limitedServer(t *testing.T, cfg service.RateLimitsConfig) *limitedServer {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	mails := &countingMailer{}
	accounts := service.NewAccounts(ts.Svc, service.AccountsConfig{BaseURL: testBaseURL, Mailer: mails, Logger: quiet})
	a, err := app.New(ts.Svc, app.Config{BaseURL: testBaseURL, Logger: quiet, Accounts: accounts, Sites: ts.Sites})
	if err != nil {
		t.Fatal(err)
	}
	h := New(ts.Svc, Config{BaseURL: testBaseURL, Logger: quiet, SiteService: ts.Sites, App: a,
		RateLimits: service.NewRateLimits(ts.Svc, cfg)})
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	hs := httptest.NewServer(httpmw.ForwardedFor(loopback)(h))
	t.Cleanup(hs.Close)
	return &limitedServer{testServer: ts, url: hs.URL, mails: mails, accounts: accounts}
}

// call sends a request from the client address from; header holds more
// headers, and a form body is sent as a same-origin form post.
func (ls *limitedServer) call(t *testing.T, from, method, path string, header http.Header, form url.Values) response {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, ls.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	req.Header.Set("X-Forwarded-For", from)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// api sends an API GET with a token ("" for none) from an address.
func (ls *limitedServer) api(t *testing.T, from, path, token string) response {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return ls.call(t, from, http.MethodGet, path, h, nil)
}

// quota reads the rate limit headers of an answer; ok is false without
// them.
func quota(t *testing.T, r response) (limit, remaining int, reset int64, ok bool) {
	t.Helper()
	if r.Header.Get("X-RateLimit-Limit") == "" {
		return 0, 0, 0, false
	}
	var err error
	num := func(name string) int64 {
		n, e := strconv.ParseInt(r.Header.Get(name), 10, 64)
		if e != nil {
			err = e
		}
		return n
	}
	limit, remaining, reset = int(num("X-RateLimit-Limit")), int(num("X-RateLimit-Remaining")), num("X-RateLimit-Reset")
	if err != nil {
		t.Fatalf("rate limit headers %v: %v", r.Header, err)
	}
	return limit, remaining, reset, true
}

// wantQuota checks an answer's status and rate limit headers.
func wantQuota(t *testing.T, what string, r response, status, limit, remaining int) {
	t.Helper()
	l, rem, _, ok := quota(t, r)
	if r.Status != status || !ok || l != limit || rem != remaining {
		t.Fatalf("%s: %d with limit %d, remaining %d (headers %t), want %d with %d, %d: %s",
			what, r.Status, l, rem, ok, status, limit, remaining, r.Body)
	}
}

// wantRefused checks a 429 with its Retry-After and, when json, the API's
// error body naming the limit.
func wantRefused(t *testing.T, what string, r response, limit int, message string, json bool) int {
	t.Helper()
	wantQuota(t, what, r, http.StatusTooManyRequests, limit, 0)
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry < 1 {
		t.Fatalf("%s: Retry-After %q", what, r.Header.Get("Retry-After"))
	}
	if json {
		wantAPIError(t, what, r, http.StatusTooManyRequests, message)
		if !strings.Contains(string(r.Body), ": try again in ") {
			t.Fatalf("%s: the message does not say when to come back (Retry-After %d): %s", what, retry, r.Body)
		}
	} else if !strings.Contains(string(r.Body), message) {
		t.Fatalf("%s: the page does not say %q: %s", what, message, r.Body)
	}
	return retry
}

// wantAPIError checks the API's error body.
func wantAPIError(t *testing.T, what string, r response, status int, message string) {
	t.Helper()
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || body.Error.Code != status ||
		!strings.HasPrefix(body.Error.Message, message) || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s: body %s (%s), want the error %d %q…", what, r.Body, r.Header.Get("Content-Type"), status, message)
	}
}

func TestRateLimitPerToken(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	ls := ts.limitedServer(t, service.RateLimitsConfig{Caller: ratelimit.Rate{Requests: 3, Window: time.Hour}})
	admin, editor := ts.token(cAdmin), ts.token(cEdit)
	before := time.Now().Unix()
	var reset int64
	for i, remaining := range []int{2, 1, 0} {
		r := ls.api(t, "203.0.113.1", "/v1/user", admin)
		wantQuota(t, "request "+strconv.Itoa(i+1), r, 200, 3, remaining)
		_, _, reset, _ = quota(t, r)
	}
	// Three requests of a bucket refilled at 3 an hour: full again an
	// hour later.
	if reset < before+3500 || reset > time.Now().Unix()+3601 {
		t.Fatalf("X-RateLimit-Reset %d is not an hour after %d in Unix seconds", reset, before)
	}
	r := ls.api(t, "203.0.113.1", "/v1/user", admin)
	retry := wantRefused(t, "fourth request", r, 3, "API rate limit exceeded", true)
	if retry < 1100 || retry > 1200 {
		t.Fatalf("Retry-After %d, want the 20 minutes one request takes to come back", retry)
	}
	// Writes count too, and are refused before anything is written.
	r = ls.call(t, "203.0.113.1", http.MethodPost, "/v1/orgs/"+ts.Org+"/spaces", http.Header{
		"Authorization": {"Bearer " + admin}, "Content-Type": {"application/json"}}, nil)
	wantRefused(t, "a write", r, 3, "API rate limit exceeded", true)

	// Another token has its own budget, from the same address.
	wantQuota(t, "another token", ls.api(t, "203.0.113.1", "/v1/user", editor), 200, 3, 2)
	// The same token from another address shares its budget.
	wantRefused(t, "the token elsewhere", ls.api(t, "198.51.100.7", "/v1/user", admin), 3, "API rate limit exceeded", true)

	// One request comes back after 20 minutes.
	ts.Clock.Advance(20 * time.Minute)
	wantQuota(t, "20 minutes later", ls.api(t, "203.0.113.1", "/v1/user", admin), 200, 3, 0)
	wantRefused(t, "and no more", ls.api(t, "203.0.113.1", "/v1/user", admin), 3, "API rate limit exceeded", true)

	// The test server without limits sends no headers.
	if _, _, _, ok := quota(t, ts.send(t, "GET", "/v1/user", admin, nil)); ok {
		t.Fatal("a server without rate limits sends their headers")
	}
	// The OpenAPI document declares the refusal.
	doc := ts.send(t, "GET", "/v1/openapi.json", "", nil).obj(t)
	if _, ok := dig(doc, "paths", "/v1/user", "get", "responses", "429").(map[string]any); !ok {
		t.Fatal("the OpenAPI document declares no 429 for GET /v1/user")
	}
}

// dig walks nested JSON objects.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

func TestRateLimitPerAddressWithoutCredential(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	ls := ts.limitedServer(t, service.RateLimitsConfig{Caller: ratelimit.PerMinute(100),
		Address: ratelimit.Rate{Requests: 3, Window: time.Hour}})
	const a = "203.0.113.9"
	// No token, a wrong one, the OpenAPI document: all count for the address.
	wantQuota(t, "no token", ls.api(t, a, "/v1/orgs", ""), 401, 3, 2)
	wantQuota(t, "a wrong token", ls.api(t, a, "/v1/orgs", "qt_nope_nope"), 401, 3, 1)
	wantQuota(t, "the OpenAPI document", ls.api(t, a, "/v1/openapi.json", ""), 200, 3, 0)
	wantRefused(t, "past the limit", ls.api(t, a, "/v1/orgs", "qt_nope_nope"), 3, "API rate limit exceeded for this address", true)
	wantRefused(t, "past the limit, no token", ls.api(t, a, "/v1/orgs", ""), 3, "API rate limit exceeded for this address", true)

	// A valid token from that address counts for the token.
	wantQuota(t, "a valid token", ls.api(t, a, "/v1/user", ts.token(cAdmin)), 200, 100, 99)
	// Other addresses have their own budget; an IPv6 client's /64 is one.
	wantQuota(t, "another address", ls.api(t, "198.51.100.7", "/v1/orgs", ""), 401, 3, 2)
	wantQuota(t, "an IPv6 address", ls.api(t, "2001:db8:1:2::1", "/v1/orgs", ""), 401, 3, 2)
	wantQuota(t, "its /64", ls.api(t, "2001:db8:1:2:ffff::9", "/v1/orgs", ""), 401, 3, 1)
	wantQuota(t, "another /64", ls.api(t, "2001:db8:1:3::1", "/v1/orgs", ""), 401, 3, 2)
}

func TestRateLimitsOff(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	ls := ts.limitedServer(t, service.RateLimitsConfig{Address: ratelimit.Rate{Requests: 1, Window: time.Hour}})
	admin := ts.token(cAdmin)
	for i := range 4 {
		r := ls.api(t, "203.0.113.9", "/v1/user", admin)
		if _, _, _, ok := quota(t, r); r.Status != 200 || ok {
			t.Fatalf("request %d with the token limit at 0: %d, headers %v", i+1, r.Status, r.Header)
		}
		r = ls.call(t, "203.0.113.9", http.MethodPost, "/app/sign-in", nil, url.Values{"email": {"a@b.c"}, "password": {"nope"}})
		if _, _, _, ok := quota(t, r); r.Status != 401 || ok {
			t.Fatalf("sign-in %d with its limit at 0: %d, headers %v", i+1, r.Status, r.Header)
		}
	}
	// The one limit that is on still counts.
	wantQuota(t, "no token", ls.api(t, "203.0.113.9", "/v1/orgs", ""), 401, 1, 0)
	wantRefused(t, "no token again", ls.api(t, "203.0.113.9", "/v1/orgs", ""), 1, "API rate limit exceeded", true)
}

// TestRateLimitsApart checks that sign-in, password resets and the
// search of published sites each have their own limit: spending one
// leaves the others and the API whole.
func TestRateLimitsApart(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	ts.newReaderSite(t)
	hour := func(n int) ratelimit.Rate { return ratelimit.Rate{Requests: n, Window: time.Hour} }
	ls := ts.limitedServer(t, service.RateLimitsConfig{Caller: hour(100), Address: hour(100),
		SignIn: hour(2), Reset: hour(2), Search: hour(2)})
	const a = "203.0.113.9"
	signIn := func() response {
		return ls.call(t, a, http.MethodPost, "/app/sign-in", nil, url.Values{"email": {"admin@acme.test"}, "password": {"wrong password"}})
	}
	wantQuota(t, "sign-in 1", signIn(), 401, 2, 1)
	wantQuota(t, "sign-in 2", signIn(), 401, 2, 0)
	wantRefused(t, "sign-in 3", signIn(), 2, "Too many sign-ins from this address: try again in", false)

	// Resets: asking for a link, and using one.
	forgot := func() response {
		return ls.call(t, a, http.MethodPost, "/app/forgot", nil, url.Values{"email": {"admin@acme.test"}})
	}
	wantQuota(t, "reset request 1", forgot(), 200, 2, 1)
	wantQuota(t, "a reset", ls.call(t, a, http.MethodPost, "/app/reset/nosuchsecret", nil, url.Values{"password": {"x"}}), 404, 2, 0)
	wantRefused(t, "reset request 3", forgot(), 2, "Too many password reset requests from this address", false)
	ls.accounts.WaitMail()
	if n := ls.mails.n.Load(); n != 1 {
		t.Fatalf("%d reset emails sent, want the one of the request let through", n)
	}

	// The published site's search: its results page, its box's JSON.
	wantQuota(t, "search 1", ls.call(t, a, http.MethodGet, "/sites/docs/~search?q=install", nil, nil), 200, 2, 1)
	wantQuota(t, "search 2", ls.call(t, a, http.MethodGet, "/sites/docs/~search?q=install",
		http.Header{"Accept": {"text/html"}}, nil), 200, 2, 0)
	r := ls.call(t, a, http.MethodGet, "/sites/docs/~search?q=install", nil, nil)
	wantRefused(t, "search 3", r, 2, "too many searches from this address", true)
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("a refused search may be cached: %q", r.Header.Get("Cache-Control"))
	}
	wantRefused(t, "the results page", ls.call(t, a, http.MethodGet, "/sites/docs/~search?q=install",
		http.Header{"Accept": {"text/html"}}, nil), 2, "Too many searches from this address", false)
	// The site's pages are not limited.
	if r := ls.call(t, a, http.MethodGet, "/sites/docs/install", nil, nil); r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "" {
		t.Fatalf("a page of the site: %d %v", r.Status, r.Header)
	}
	// Nor is the API, nor another address's search.
	wantQuota(t, "the API", ls.api(t, a, "/v1/user", ts.token(cAdmin)), 200, 100, 99)
	wantQuota(t, "another address's search", ls.call(t, "198.51.100.7", http.MethodGet, "/sites/docs/~search?q=install", nil, nil), 200, 2, 1)
	wantQuota(t, "another address's sign-in", ls.call(t, "198.51.100.7", http.MethodPost, "/app/sign-in", nil,
		url.Values{"email": {"admin@acme.test"}, "password": {"wrong password"}}), 401, 2, 1)

	// The windows end: an hour later sign-in and resets start again.
	ts.Clock.Advance(time.Hour)
	wantQuota(t, "sign-in an hour later", signIn(), 401, 2, 1)
	wantQuota(t, "reset request an hour later", forgot(), 200, 2, 1)
}

// TestRateLimitMCPSearch checks that the search tool of a site's MCP
// endpoint spends the same budget as its search box.
func TestRateLimitMCPSearch(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	ts.newReaderSite(t)
	ls := ts.limitedServer(t, service.RateLimitsConfig{Search: ratelimit.Rate{Requests: 2, Window: time.Hour}})
	from := http.Header{"X-Forwarded-For": {"203.0.113.9"}}
	cs, err := mcpSession(t, ls.url+"/sites/docs/~mcp", from)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := mcpText(t, cs, "search", map[string]any{"query": "install"}); isErr || !strings.Contains(text, "install") {
		t.Fatalf("first search: %s", text)
	}
	wantQuota(t, "the search box", ls.call(t, "203.0.113.9", http.MethodGet, "/sites/docs/~search?q=install", nil, nil), 200, 2, 0)
	text, isErr := mcpText(t, cs, "search", map[string]any{"query": "install"})
	if !isErr || !strings.Contains(text, "too many searches from this address: try again in") {
		t.Fatalf("third search through MCP: error %t, %s", isErr, text)
	}
	// Reading pages is not searching.
	if text, isErr := mcpText(t, cs, "get_page", map[string]any{"path": "install"}); isErr || !strings.Contains(text, "# Install") {
		t.Fatalf("get_page after the limit: %s", text)
	}
}

// TestRateLimitsAcrossReplicas checks that two servers on one database
// share the sign-in and reset limits, counted in the database, while each
// counts API requests for itself, as documented.
func TestRateLimitsAcrossReplicas(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cfg := service.RateLimitsConfig{Caller: ratelimit.Rate{Requests: 1, Window: time.Hour},
			SignIn: ratelimit.Rate{Requests: 3, Window: time.Hour}, Reset: ratelimit.Rate{Requests: 1, Window: time.Hour}}
		one := ts.limitedServer(t, cfg)
		other := ts.replica(t).limitedServer(t, cfg)
		const a = "203.0.113.9"
		signIn := func(ls *limitedServer) response {
			return ls.call(t, a, http.MethodPost, "/app/sign-in", nil, url.Values{"email": {"nobody@acme.test"}, "password": {"wrong password"}})
		}
		wantQuota(t, "sign-in on one", signIn(one), 401, 3, 2)
		wantQuota(t, "sign-in on the other", signIn(other), 401, 3, 1)
		wantQuota(t, "sign-in on one again", signIn(one), 401, 3, 0)
		wantRefused(t, "sign-in on the other again", signIn(other), 3, "Too many sign-ins from this address", false)
		wantRefused(t, "and on one", signIn(one), 3, "Too many sign-ins from this address", false)
		forgot := func(ls *limitedServer) response {
			return ls.call(t, a, http.MethodPost, "/app/forgot", nil, url.Values{"email": {"nobody@acme.test"}})
		}
		wantQuota(t, "reset on the other", forgot(other), 200, 1, 0)
		wantRefused(t, "reset on one", forgot(one), 1, "Too many password reset requests from this address", false)

		// API requests are counted by each replica.
		admin := ts.token(cAdmin)
		wantQuota(t, "the API on one", one.api(t, a, "/v1/user", admin), 200, 1, 0)
		wantRefused(t, "the API on one again", one.api(t, a, "/v1/user", admin), 1, "API rate limit exceeded", true)
		wantQuota(t, "the API on the other", other.api(t, a, "/v1/user", admin), 200, 1, 0)
	})
}

// headerWriter is a ResponseWriter that keeps headers only.
type headerWriter struct{ h http.Header }

func (w headerWriter) Header() http.Header         { return w.h }
func (w headerWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w headerWriter) WriteHeader(int)             {}

// BenchmarkLimitCaller is what the API's rate limit adds to a request
// with a token: counting it, and its three headers.
func BenchmarkLimitCaller(b *testing.B) {
	cfg := service.DefaultRateLimits()
	cfg.Caller = ratelimit.PerMinute(ratelimit.MaxRequests)
	s := &Server{limits: service.NewRateLimits(service.New(nil), cfg)}
	req := httptest.NewRequest(http.MethodGet, "/v1/user", nil)
	w := headerWriter{h: http.Header{}}
	u := &quire.User{ID: "u"}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		if !s.limitCaller(w, req, "qt_abc_secret", u, nil) {
			b.Fatal("refused")
		}
	}
}
