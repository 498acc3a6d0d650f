package httpmw

import (
	"context"
	"net/http"
)

// unmatchedRoute labels requests no pattern matched, such as 404s from the
// mux, so that unknown paths never become label values.
const unmatchedRoute = "unmatched"

type routeKey struct{}

// routeSlot is shared by the middleware of one request; handlers deeper in
// the chain fill it through SetRoute.
type routeSlot struct{ pattern string }

// SetRoute records pattern as the route of the request being served. A
// handler behind a nested mux, or one that replaces the request with a copy
// (r.WithContext), calls it with its own r.Pattern so that metrics and logs
// carry the precise route. It does nothing outside this package's
// middleware.
func SetRoute(ctx context.Context, pattern string) {
	if s, ok := ctx.Value(routeKey{}).(*routeSlot); ok && pattern != "" {
		s.pattern = pattern
	}
}

// withRoute returns r carrying a route slot, reusing one placed by an outer
// middleware.
func withRoute(r *http.Request) (*http.Request, *routeSlot) {
	if s, ok := r.Context().Value(routeKey{}).(*routeSlot); ok {
		return r, s
	}
	s := &routeSlot{}
	return r.WithContext(context.WithValue(r.Context(), routeKey{}, s)), s
}

// route returns the pattern that served r: the one set through SetRoute,
// else the one the mux matched, else unmatchedRoute.
func route(r *http.Request, s *routeSlot) string {
	switch {
	case s.pattern != "":
		return s.pattern
	case r.Pattern != "":
		return r.Pattern
	}
	return unmatchedRoute
}
