package httpmw

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
)

// internalErrorBody is the answer to a request whose handler panicked.
const internalErrorBody = `{"error":{"code":500,"message":"internal error"}}` + "\n"

// Recover turns a panic in next into a logged error with its stack and,
// when the handler had not yet sent its header, a 500 answer with a JSON
// error body. http.ErrAbortHandler is passed on untouched, as net/http
// expects.
func Recover(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sw := newStatusWriter(w)
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic serving request",
					"method", r.Method,
					"path", r.URL.Path,
					"panic", fmt.Sprint(v),
					"stack", string(debug.Stack()),
				)
				if sw.wroteHeader {
					// Too late for a clean answer: make the client see a
					// broken response rather than a truncated success.
					panic(http.ErrAbortHandler)
				}
				h := sw.Header()
				h.Del("Content-Length")
				h.Set("Content-Type", "application/json")
				h.Set("X-Content-Type-Options", "nosniff")
				sw.WriteHeader(http.StatusInternalServerError)
				_, _ = sw.Write([]byte(internalErrorBody))
			}()
			next.ServeHTTP(sw, r)
		})
	}
}
