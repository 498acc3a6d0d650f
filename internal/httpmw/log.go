package httpmw

import (
	"log/slog"
	"net/http"
	"time"
)

// Log writes one line per request to log: method, path, route, status,
// duration and response bytes. Server errors are logged at error level,
// everything else at info.
func Log(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			r, slot := withRoute(r)
			sw := newStatusWriter(w)
			defer func() {
				status := sw.Status()
				level := slog.LevelInfo
				if status >= 500 {
					level = slog.LevelError
				}
				log.Log(r.Context(), level, "request",
					"method", r.Method,
					"path", r.URL.Path,
					"route", route(r, slot),
					"status", status,
					"duration", time.Since(start),
					"bytes", sw.bytes,
				)
			}()
			next.ServeHTTP(sw, r)
		})
	}
}
