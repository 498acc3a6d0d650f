package httpapi

import (
	"net/http"
	"strings"
)

// exactMux registers every operation pattern as an exact match: the
// router treats a pattern ending in a slash (the API root, /v1/) as a
// prefix of every path below it.
type exactMux struct {
	*http.ServeMux
}

// HandleFunc registers a handler, anchoring slash-terminated patterns and
// letting a trailing page path span several segments.
func (m exactMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	if strings.HasSuffix(pattern, "/") {
		pattern += "{$}"
	}
	if rest, ok := strings.CutSuffix(pattern, "{"+pagePathParam+"}"); ok {
		pattern = rest + "{" + pagePathParam + "...}"
	}
	m.ServeMux.HandleFunc(pattern, h)
}

// pagePathParam is the path parameter holding a page path, which contains
// slashes (the official client sends path parameters unescaped).
const pagePathParam = "pagePath"

// undeclaredPattern catches every request no operation matches.
const undeclaredPattern = "/"

// undeclared answers requests no operation is declared for: 405 (with
// Allow) when the path exists under other methods, 404 otherwise, both
// with the API's error body.
func undeclared(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			other := *r
			other.Method = m
			if _, pattern := mux.Handler(&other); pattern != undeclaredPattern && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeError(w, newAPIError(http.StatusNotFound, "no such endpoint: "+r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, newAPIError(http.StatusMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path))
	}
}
