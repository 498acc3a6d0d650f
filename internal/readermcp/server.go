package readermcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxBodyBytes bounds one MCP request; tool arguments are a few short
// strings.
const maxBodyBytes = 64 << 10

// Options configures a [Server].
type Options struct {
	// Logger receives errors from Docs that are not shown to the client.
	// Nil discards them.
	Logger *slog.Logger
}

// Server builds MCP handlers for published sites. It holds what is shared
// by every request: the tool declarations and their schemas.
type Server struct {
	logger *slog.Logger
	tools  *toolSet
	cache  *mcp.SchemaCache
}

// New returns a Server.
func New(opts Options) *Server {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Server{logger: logger, tools: newToolSet(), cache: mcp.NewSchemaCache()}
}

type serverKey struct{}

// Handler returns the MCP endpoint of a site. For every request it calls
// getDocs, which authorizes the visitor and returns what the visitor may
// see. An error from getDocs is answered before any MCP exchange: a
// *StatusError with its status, ErrNotFound with 404, anything else with
// 500; so is an error from Docs.Info, which is asked once per request for
// the server's name, title and version. The handler answers whatever path
// it is mounted at (e.g. /sites/<name>/mcp). The transport is stateless
// (no Mcp-Session-Id): each POST is answered on its own, so any replica can
// answer any request; GET and DELETE answer 405.
func (s *Server) Handler(getDocs func(*http.Request) (Docs, error)) http.Handler {
	sdk := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		srv, _ := r.Context().Value(serverKey{}).(*mcp.Server)
		return srv
	}, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// Sites are served by host name, often behind a proxy on the same
		// machine; what this endpoint shows is what the site's pages show,
		// under the same visitor check, so the SDK's loopback Host check
		// would only refuse such deployments.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        maxBodyBytes,
		Logger:                     s.logger,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		docs, err := getDocs(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		info, err := docs.Info(r.Context())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		srv := s.mcpServer(info, docs)
		sdk.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), serverKey{}, srv)))
	})
}

// mcpServer builds the MCP server of one request.
func (s *Server) mcpServer(info SiteInfo, docs Docs) *mcp.Server {
	name := info.Name
	if name == "" {
		name = "docs"
	}
	version := info.Version
	if version == "" {
		version = "unversioned"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Title: info.Title, Version: version}, &mcp.ServerOptions{
		Instructions: instructions(info),
		Logger:       s.logger,
		SchemaCache:  s.cache,
		// Tools only: no logging capability, and the tool list never
		// changes within a request.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	t := &tools{docs: docs, site: info, logger: s.logger}
	mcp.AddTool(srv, s.tools.search, t.search)
	mcp.AddTool(srv, s.tools.getPage, t.getPage)
	mcp.AddTool(srv, s.tools.listPages, t.listPages)
	return srv
}

func instructions(info SiteInfo) string {
	title := info.Title
	if title == "" {
		title = info.Name
	}
	s := "Documentation site " + title
	if info.URL != "" {
		s += " (" + info.URL + ")"
	}
	return s + ". Use search to find pages, get_page to read one as Markdown, list_pages for the table of contents."
}

// writeError answers a getDocs or Info failure with the API's error body.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := http.StatusInternalServerError, "internal error"
	var se *StatusError
	switch {
	case errors.As(err, &se):
		status, msg = se.Status, se.Error()
		if status < 400 || status > 599 {
			status = http.StatusInternalServerError
		}
		for k, vs := range se.Header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
	case errors.Is(err, ErrNotFound):
		status, msg = http.StatusNotFound, "not found"
	default:
		s.logger.ErrorContext(r.Context(), "mcp: reading the site", "path", r.URL.Path, "error", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	body.Error.Code, body.Error.Message = status, msg
	_ = json.NewEncoder(w).Encode(body)
}
