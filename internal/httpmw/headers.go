package httpmw

import "net/http"

// NoSniff sets X-Content-Type-Options: nosniff on every response, so that
// browsers treat each body as the type it declares and never guess a more
// dangerous one. It sets the header before next runs, which keeps it on
// answers next writes itself (errors, 404s, panics).
func NoSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
