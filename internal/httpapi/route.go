package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// Route declares one operation of the API: its identity, its success
// status, and its row of the authorization table. Request and response
// shapes come from the handler's input and output types, whose struct tags
// carry every length, pattern, enum and range; the same declaration feeds
// routing, validation and the OpenAPI document.
type Route struct {
	ID      string
	Method  string
	Path    string
	Status  int
	Access  access
	Summary string
	// MaxBody overrides the server's request body limit for this route.
	MaxBody int64

	// Description is the operation's reference text beside Summary; both
	// are set from routeDocs when the table is registered, and the
	// document adds who may call the operation, derived from Access.
	Description string
}

// handle registers a route and its handler. Handlers return errors; they
// all go through toAPIError.
func handle[I, O any](s *Server, api huma.API, r Route, h func(context.Context, *I) (*O, error)) {
	if r.Status == 0 {
		r.Status = http.StatusOK
	}
	s.routes = append(s.routes, r)
	if r.Access.public {
		s.addPublic(r.Method, r.Path)
	}
	op := huma.Operation{
		OperationID:   r.ID,
		Method:        r.Method,
		Path:          r.Path,
		Summary:       r.Summary,
		DefaultStatus: r.Status,
		MaxBodyBytes:  max(r.MaxBody, s.cfg.MaxBodyBytes),
		Metadata:      map[string]any{"access": r.Access},
		Errors:        []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusTooManyRequests},
	}
	huma.Register(api, op, func(ctx context.Context, in *I) (*O, error) {
		out, err := h(ctx, in)
		if err != nil {
			return nil, s.toAPIError(err)
		}
		return out, nil
	})
}

// Routes lists every declared operation, for the authorization matrix.
func (s *Server) Routes() []Route { return s.routes }
