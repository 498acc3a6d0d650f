package readermcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of tool arguments, declared in the input schemas.
const (
	maxQueryLen  = 200
	maxPathLen   = 2048
	defaultLimit = 10
	maxLimit     = 50
)

// SearchInput is the search tool's arguments.
type SearchInput struct {
	Query string `json:"query" jsonschema:"words to look for in the site's pages"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many results at most"`
}

// SearchOutput is the search tool's result.
type SearchOutput struct {
	Results []SearchResult `json:"results" jsonschema:"matching pages, best first"`
}

// SearchResult is one page found by the search tool.
type SearchResult struct {
	Title   string `json:"title"`
	Path    string `json:"path" jsonschema:"the page path, for get_page"`
	URL     string `json:"url,omitempty"`
	Snippet string `json:"snippet,omitempty" jsonschema:"text around the match"`
}

// GetPageInput is the get_page tool's arguments.
type GetPageInput struct {
	Path string `json:"path" jsonschema:"the page path (as given by search or list_pages) or its full URL; empty for the site's first page"`
}

// ListPagesInput is the list_pages tool's arguments (none).
type ListPagesInput struct{}

// ListPagesOutput is the list_pages tool's result.
type ListPagesOutput struct {
	Pages []PageEntry `json:"pages" jsonschema:"the page tree, depth first"`
}

// PageEntry is one page of the tree returned by list_pages.
type PageEntry struct {
	Title string `json:"title"`
	Path  string `json:"path" jsonschema:"the page path, for get_page"`
	URL   string `json:"url,omitempty"`
	Depth int    `json:"depth" jsonschema:"0 for top-level pages, 1 for their children, and so on"`
}

// toolSet holds the tool declarations, built once with their schemas.
type toolSet struct {
	search, getPage, listPages *mcp.Tool
}

func newToolSet() *toolSet {
	search := mustSchema[SearchInput]()
	search.Properties["query"].MinLength = ptr(1)
	search.Properties["query"].MaxLength = ptr(maxQueryLen)
	search.Properties["limit"].Minimum = ptr(1.0)
	search.Properties["limit"].Maximum = ptr(float64(maxLimit))
	search.Properties["limit"].Default = json.RawMessage(fmt.Sprint(defaultLimit))

	getPage := mustSchema[GetPageInput]()
	getPage.Properties["path"].MaxLength = ptr(maxPathLen)

	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	return &toolSet{
		search: &mcp.Tool{
			Name:        "search",
			Title:       "Search the documentation",
			Description: "Full-text search of the site's pages. Returns titles, paths, URLs and snippets; read a page with get_page.",
			InputSchema: search,
			Annotations: readOnly,
		},
		getPage: &mcp.Tool{
			Name:        "get_page",
			Title:       "Read a page",
			Description: "Returns one page of the site as Markdown, by its path or full URL.",
			InputSchema: getPage,
			Annotations: readOnly,
		},
		listPages: &mcp.Tool{
			Name:        "list_pages",
			Title:       "List the pages",
			Description: "Returns the site's table of contents: every page's path, title and depth.",
			InputSchema: mustSchema[ListPagesInput](),
			Annotations: readOnly,
		},
	}
}

// mustSchema infers the input schema of T; the types are this package's
// own, so a failure is a programming error.
func mustSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("readermcp: schema of %T: %v", *new(T), err))
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// tools holds what the tool handlers of one request use.
type tools struct {
	docs   Docs
	site   SiteInfo
	logger *slog.Logger
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	limit := in.Limit
	if limit == 0 {
		limit = defaultLimit
	}
	hits, err := t.docs.Search(ctx, in.Query, limit)
	if err != nil {
		return nil, SearchOutput{}, t.failure(ctx, "search", err)
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := SearchOutput{Results: make([]SearchResult, 0, len(hits))}
	for _, h := range hits {
		out.Results = append(out.Results, SearchResult{Title: h.Title, Path: h.Path, URL: h.URL, Snippet: h.Snippet})
	}
	return nil, out, nil
}

func (t *tools) getPage(ctx context.Context, _ *mcp.CallToolRequest, in GetPageInput) (*mcp.CallToolResult, any, error) {
	path, err := pagePath(t.site.URL, in.Path)
	if err != nil {
		return nil, nil, err
	}
	page, err := t.docs.Page(ctx, path)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, fmt.Errorf("no page at %q; use search or list_pages to find one", in.Path)
	}
	if err != nil {
		return nil, nil, t.failure(ctx, "get_page", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: page.Markdown}}}, nil, nil
}

func (t *tools) listPages(ctx context.Context, _ *mcp.CallToolRequest, _ ListPagesInput) (*mcp.CallToolResult, ListPagesOutput, error) {
	refs, err := t.docs.Pages(ctx)
	if err != nil {
		return nil, ListPagesOutput{}, t.failure(ctx, "list_pages", err)
	}
	out := ListPagesOutput{Pages: make([]PageEntry, 0, len(refs))}
	for _, r := range refs {
		out.Pages = append(out.Pages, PageEntry{Title: r.Title, Path: r.Path, URL: r.URL, Depth: r.Depth})
	}
	return nil, out, nil
}

// failure logs an unexpected error from Docs and returns the tool error the
// client sees, which tells nothing of the cause. A refusal for too many
// requests (a *StatusError of 429) is no failure: its message is the
// tool error.
func (t *tools) failure(ctx context.Context, tool string, err error) error {
	var se *StatusError
	if errors.As(err, &se) && se.Status == http.StatusTooManyRequests {
		return se
	}
	t.logger.ErrorContext(ctx, "mcp: tool failed", "site", t.site.Name, "tool", tool, "error", err)
	return errors.New("the site could not be read; try again later")
}
