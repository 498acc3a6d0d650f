package httpmw

import "net/http"

// Chain wraps h in mws, the first being the outermost:
// Chain(h, a, b) serves a(b(h)).
func Chain(h http.Handler, mws ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}
