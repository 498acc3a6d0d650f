package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession connects the MCP SDK's own client to a site's endpoint;
// the header, when given, goes with every request.
func mcpSession(t *testing.T, endpoint string, header http.Header) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: headerTransport{header: header, next: http.DefaultTransport}}
	client := mcp.NewClient(&mcp.Implementation{Name: "site-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc,
		DisableStandaloneSSE: true}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// headerTransport adds a header to every request.
type headerTransport struct {
	header http.Header
	next   http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range h.header {
		r.Header[k] = vs
	}
	return h.next.RoundTrip(r)
}

// mcpText calls a tool and returns the text of its answer.
func mcpText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestSiteReaderMCP(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		s := ts.newReaderSite(t)
		cs, err := mcpSession(t, ts.URL+"/sites/docs/~mcp", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().ServerInfo.Title; got != "Docs" {
			t.Fatalf("server title %q", got)
		}
		list, isErr := mcpText(t, cs, "list_pages", map[string]any{})
		for _, want := range []string{"Welcome", "install", "api/reference"} {
			if isErr || !strings.Contains(list, want) {
				t.Fatalf("list_pages lacks %q: %s", want, list)
			}
		}
		page, isErr := mcpText(t, cs, "get_page", map[string]any{"path": "install"})
		if isErr || !strings.Contains(page, "# Install") || !strings.Contains(page, "## Requirements") {
			t.Fatalf("get_page: %s", page)
		}
		if text, isErr := mcpText(t, cs, "get_page", map[string]any{"path": "nope"}); !isErr {
			t.Fatalf("a missing page answered: %s", text)
		}
		// The index follows merges through the job queue: ask until it has
		// caught up.
		deadline := time.Now().Add(30 * time.Second)
		for {
			found, isErr := mcpText(t, cs, "search", map[string]any{"query": "installer"})
			if !isErr && strings.Contains(found, "/sites/docs/install") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("search never found the page: %s", found)
			}
			time.Sleep(50 * time.Millisecond)
		}

		// A hidden section's pages are not found through the tools either.
		ts.must(t, 200, "PUT", ts.sitePath(s.id, "/adaptive-schema"), admin, map[string]any{"jsonSchema": visitorSchema()})
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, "/sections/"+s.apiSection), admin, map[string]any{"condition": "visitor.claims.isBeta"})
		if text, isErr := mcpText(t, cs, "get_page", map[string]any{"path": "api/reference"}); !isErr {
			t.Fatalf("a hidden page answered: %s", text)
		}

		// Visitor authentication: refused before any exchange without a
		// token, served with one.
		ts.must(t, 200, "PATCH", ts.sitePath(s.id, ""), admin, map[string]any{"visibility": "visitor-auth"})
		if _, err := mcpSession(t, ts.URL+"/sites/docs/~mcp", nil); err == nil {
			t.Fatal("connected to a visitor-auth site without a token")
		}
		res := ts.visit(t, "/sites/docs/~mcp")
		if res.Status != 401 {
			t.Fatalf("GET without a token: %d", res.Status)
		}
		token, err := ts.Sites.SignVisitorToken(context.Background(), ts.Org, s.id, map[string]any{"isBeta": true})
		if err != nil {
			t.Fatal(err)
		}
		cs, err = mcpSession(t, ts.URL+"/sites/docs/~mcp", http.Header{"Cookie": {"gitbook-visitor-token=" + token}})
		if err != nil {
			t.Fatal(err)
		}
		if page, isErr := mcpText(t, cs, "get_page", map[string]any{"path": "api/reference"}); isErr || !strings.Contains(page, "Every endpoint.") {
			t.Fatalf("get_page with the claim: %s", page)
		}
		// An unpublished site is not found.
		ts.must(t, 200, "POST", ts.sitePath(s.id, "/unpublish"), admin, nil)
		if _, err := mcpSession(t, ts.URL+"/sites/docs/~mcp", http.Header{"Cookie": {"gitbook-visitor-token=" + token}}); err == nil {
			t.Fatal("connected to an unpublished site")
		}
	})
}
