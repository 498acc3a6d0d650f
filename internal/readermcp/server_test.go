package readermcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serve starts the MCP endpoint for docs on 127.0.0.1.
func serve(t *testing.T, getDocs func(*http.Request) (Docs, error)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(Options{}).Handler(getDocs))
	t.Cleanup(srv.Close)
	return srv
}

// connect opens an MCP client session on endpoint with the SDK's client.
func connect(t *testing.T, endpoint string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "readermcp-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func fixed(d Docs) func(*http.Request) (Docs, error) {
	return func(*http.Request) (Docs, error) { return d, nil }
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", name, err)
	}
	return res
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content = %d items, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(t, res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return out
}

func TestInitializeAndListTools(t *testing.T) {
	cs := connect(t, serve(t, fixed(newFakeDocs())).URL)

	info := cs.InitializeResult().ServerInfo
	if info.Name != "handbook" || info.Version != "rev-42" || info.Title != "The Handbook" {
		t.Errorf("server info = %+v", info)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "https://docs.example.com/handbook") {
		t.Errorf("instructions = %q", cs.InitializeResult().Instructions)
	}

	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, name := range []string{"search", "get_page", "list_pages"} {
		tool := byName[name]
		if tool == nil {
			t.Fatalf("tool %s missing; have %v", name, byName)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", name)
		}
	}
	if len(byName) != 3 {
		t.Errorf("tools = %d, want 3", len(byName))
	}
	schema, _ := json.Marshal(byName["search"].InputSchema)
	for _, want := range []string{`"required":["query"]`, `"maxLength":200`, `"maximum":50`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("search schema %s lacks %s", schema, want)
		}
	}
	if byName["search"].OutputSchema == nil || byName["list_pages"].OutputSchema == nil {
		t.Error("search and list_pages declare no output schema")
	}
}

func TestSearch(t *testing.T) {
	docs := newFakeDocs()
	cs := connect(t, serve(t, fixed(docs)).URL)

	out := structured[SearchOutput](t, call(t, cs, "search", map[string]any{"query": "install"}))
	if limit, _ := docs.asked(); limit != defaultLimit {
		t.Errorf("limit passed = %d, want the default %d", limit, defaultLimit)
	}
	var paths []string
	for _, r := range out.Results {
		paths = append(paths, r.Path)
		if r.Title == "" || r.URL == "" || !strings.Contains(strings.ToLower(r.Snippet), "install") {
			t.Errorf("result %+v", r)
		}
	}
	if strings.Join(paths, ",") != "welcome,guides/install" {
		t.Errorf("paths = %v (the hidden page must not be found)", paths)
	}

	out = structured[SearchOutput](t, call(t, cs, "search", map[string]any{"query": "install", "limit": 1}))
	if limit, _ := docs.asked(); limit != 1 || len(out.Results) != 1 {
		t.Errorf("limit 1: passed %d, got %d results", limit, len(out.Results))
	}

	out = structured[SearchOutput](t, call(t, cs, "search", map[string]any{"query": "zebra"}))
	if out.Results == nil || len(out.Results) != 0 {
		t.Errorf("no match: results = %#v, want an empty list", out.Results)
	}
}

func TestInvalidArgumentsAreToolErrors(t *testing.T) {
	docs := newFakeDocs()
	cs := connect(t, serve(t, fixed(docs)).URL)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search", map[string]any{}, "query"},
		{"search", map[string]any{"query": ""}, "query"},
		{"search", map[string]any{"query": strings.Repeat("x", maxQueryLen+1)}, "query"},
		{"search", map[string]any{"query": "install", "limit": 0}, "limit"},
		{"search", map[string]any{"query": "install", "limit": maxLimit + 1}, "limit"},
		{"search", map[string]any{"query": 7}, "query"},
		{"get_page", map[string]any{"path": strings.Repeat("a/", maxPathLen)}, "path"},
		{"get_page", map[string]any{"page": "welcome"}, "page"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		if !res.IsError {
			t.Errorf("%s %v: not an error", c.tool, c.args)
			continue
		}
		if msg := text(t, res); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: error %q does not name %q", c.tool, c.args, msg, c.want)
		}
	}
	if limit, pages := docs.asked(); limit != 0 || len(pages) != 0 {
		t.Errorf("invalid arguments reached Docs (limit %d, pages %v)", limit, pages)
	}
}

func TestGetPage(t *testing.T) {
	docs := newFakeDocs()
	cs := connect(t, serve(t, fixed(docs)).URL)

	for _, in := range []string{
		"guides/install",
		"/guides/install/",
		"guides/install#usage",
		"https://docs.example.com/handbook/guides/install",
		"https://DOCS.example.com/handbook/guides/install.md?x=1",
	} {
		res := call(t, cs, "get_page", map[string]any{"path": in})
		if res.IsError {
			t.Errorf("%q: tool error %s", in, text(t, res))
			continue
		}
		if got := text(t, res); got != "# Install\n\nRun `make install` to install.\n" {
			t.Errorf("%q: markdown = %q", in, got)
		}
	}
	if got := text(t, call(t, cs, "get_page", map[string]any{"path": ""})); !strings.HasPrefix(got, "# Welcome") {
		t.Errorf("empty path: %q, want the first page", got)
	}
	if got := text(t, call(t, cs, "get_page", map[string]any{"path": "https://docs.example.com/handbook"})); !strings.HasPrefix(got, "# Welcome") {
		t.Errorf("site URL: %q, want the first page", got)
	}
}

func TestGetPageRefused(t *testing.T) {
	docs := newFakeDocs()
	cs := connect(t, serve(t, fixed(docs)).URL)
	for _, in := range []string{"guides/secret", "no/such/page"} {
		res := call(t, cs, "get_page", map[string]any{"path": in})
		msg := text(t, res)
		if !res.IsError || !strings.Contains(msg, "no page at") || strings.Contains(msg, "Secret plans") {
			t.Errorf("%q: error=%v %q", in, res.IsError, msg)
		}
	}
	for _, in := range []string{
		"https://evil.example.org/handbook/guides/install",
		"https://docs.example.com/other/guides/install",
		"https://docs.example.com/handbookx/guides/install",
		"ftp://docs.example.com/handbook/guides/install",
	} {
		res := call(t, cs, "get_page", map[string]any{"path": in})
		if !res.IsError {
			t.Errorf("%q: not an error", in)
		}
	}
	if _, pages := docs.asked(); len(pages) != 2 {
		t.Errorf("pages asked = %v, want only the two paths", pages)
	}
}

func TestListPages(t *testing.T) {
	cs := connect(t, serve(t, fixed(newFakeDocs())).URL)
	out := structured[ListPagesOutput](t, call(t, cs, "list_pages", nil))
	want := []PageEntry{
		{Title: "Welcome", Path: "welcome", URL: "https://docs.example.com/handbook/welcome", Depth: 0},
		{Title: "Guides", Path: "guides", URL: "https://docs.example.com/handbook/guides", Depth: 0},
		{Title: "Install", Path: "guides/install", URL: "https://docs.example.com/handbook/guides/install", Depth: 1},
	}
	if len(out.Pages) != len(want) {
		t.Fatalf("pages = %+v", out.Pages)
	}
	for i := range want {
		if out.Pages[i] != want[i] {
			t.Errorf("page %d = %+v, want %+v", i, out.Pages[i], want[i])
		}
	}
}

func TestDocsFailureIsToolError(t *testing.T) {
	docs := newFakeDocs()
	docs.searchErr = errors.New("database is on fire")
	var logged bytes.Buffer
	h := New(Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))}).Handler(fixed(docs))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cs := connect(t, srv.URL)

	res := call(t, cs, "search", map[string]any{"query": "install"})
	if msg := text(t, res); !res.IsError || strings.Contains(msg, "fire") {
		t.Errorf("error=%v %q: want a tool error that hides the cause", res.IsError, msg)
	}
	if !strings.Contains(logged.String(), "database is on fire") {
		t.Errorf("cause not logged: %s", logged.String())
	}
}

// initialize is a raw initialize request, as a client's first POST.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func TestGetDocsErrorAnswersHTTP(t *testing.T) {
	cases := []struct {
		name    string
		err     error
		status  int
		message string
		header  string
	}{
		{"sign in", &StatusError{Status: 401, Message: "sign in to read this site", Header: http.Header{"Www-Authenticate": {`Bearer realm="docs"`}}}, 401, "sign in to read this site", `Bearer realm="docs"`},
		{"hidden site", &StatusError{Status: 404}, 404, "Not Found", ""},
		{"wrapped", errors.Join(errors.New("site lookup"), ErrNotFound), 404, "not found", ""},
		{"bad status", &StatusError{Status: 200, Message: "oops"}, 500, "oops", ""},
		{"internal", errors.New("connection refused to 10.0.0.3"), 500, "internal error", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := serve(t, func(*http.Request) (Docs, error) { return nil, c.err })
			resp := post(t, srv.URL, initialize)
			if resp.StatusCode != c.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, c.status)
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != c.header {
				t.Errorf("WWW-Authenticate = %q, want %q", got, c.header)
			}
			var body struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if body.Error.Code != c.status || body.Error.Message != c.message {
				t.Errorf("body = %+v, want %d %q", body.Error, c.status, c.message)
			}

			client := mcp.NewClient(&mcp.Implementation{Name: "readermcp-test", Version: "1"}, nil)
			if cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil); err == nil {
				_ = cs.Close()
				t.Error("client connected although getDocs refused")
			}
		})
	}
}

func TestStateless(t *testing.T) {
	srv := serve(t, fixed(newFakeDocs()))
	resp := post(t, srv.URL, initialize)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("initialize: %d %s", resp.StatusCode, b)
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		t.Errorf("session id %q set by a stateless server", id)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q, want plain JSON answers", ct)
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = get.Body.Close()
	if get.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET = %d, want 405", get.StatusCode)
	}
}

// TestAnyReplicaAnswers sends each request of one client session to the
// next of two independently built handlers, as a load balancer would.
func TestAnyReplicaAnswers(t *testing.T) {
	replicas := []http.Handler{New(Options{}).Handler(fixed(newFakeDocs())), New(Options{}).Handler(fixed(newFakeDocs()))}
	var served [2]atomic.Int64
	var next atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := next.Add(1) % 2
		served[i].Add(1)
		replicas[i].ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	cs := connect(t, srv.URL)
	for range 2 {
		out := structured[ListPagesOutput](t, call(t, cs, "list_pages", nil))
		if len(out.Pages) != 3 {
			t.Errorf("pages = %d", len(out.Pages))
		}
	}
	if served[0].Load() == 0 || served[1].Load() == 0 {
		t.Errorf("requests per replica = %d, %d; want both used", served[0].Load(), served[1].Load())
	}
}

// TestVisitorDecidesWhatIsSeen gives each request the Docs of the visitor
// its header names, as the site reader does after authorization.
func TestVisitorDecidesWhatIsSeen(t *testing.T) {
	public, member := newFakeDocs(), newFakeDocs()
	member.pages[3].hidden = false
	srv := serve(t, func(r *http.Request) (Docs, error) {
		if r.Header.Get("Authorization") == "Bearer member" {
			return member, nil
		}
		return public, nil
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "readermcp-test", Version: "1"}, nil)
	hc := &http.Client{Transport: bearer{"member"}}
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res := call(t, cs, "get_page", map[string]any{"path": "guides/secret"}); res.IsError {
		t.Errorf("member: %s", text(t, res))
	}
	anon := connect(t, srv.URL)
	if res := call(t, anon, "get_page", map[string]any{"path": "guides/secret"}); !res.IsError {
		t.Error("anonymous visitor read a hidden page")
	}
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
