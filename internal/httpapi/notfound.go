package httpapi

import (
	"net/http"
	"strings"
)

// apiRoot is the one route whose pattern ends in a slash; the router
// treats such patterns as prefixes, so it must match only itself.
const apiRoot = "/v1/"

// declaredOnly serves a request only when an operation is declared for its
// method and path. Other paths answer 404 and other methods 405 (with
// Allow), both with the API's error body.
func declaredOnly(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if declared(mux, r) {
			mux.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			other := *r
			other.Method = m
			if declared(mux, &other) {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeError(w, newAPIError(http.StatusNotFound, "no such endpoint: "+r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, newAPIError(http.StatusMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path))
	})
}

// declared reports whether an operation matches the request exactly.
func declared(mux *http.ServeMux, r *http.Request) bool {
	_, pattern := mux.Handler(r)
	if pattern == "" {
		return false
	}
	return !strings.HasSuffix(pattern, apiRoot) || r.URL.Path == apiRoot
}
