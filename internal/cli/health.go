package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// readyTimeout bounds one readiness check.
const readyTimeout = 5 * time.Second

// readiness is what /readyz asks; *service.Service satisfies it.
type readiness interface {
	Ready(ctx context.Context) error
}

// healthz answers 200 as long as the process serves HTTP.
func healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when r is ready, else 503 with an error body.
func readyz(r readiness, log *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), readyTimeout)
		defer cancel()
		if err := r.Ready(ctx); err != nil {
			log.WarnContext(ctx, "not ready", "err", err)
			writeError(w, http.StatusServiceUnavailable, "not ready")
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}
}

// notFound answers paths outside every route with a JSON 404.
func notFound(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusNotFound, "not found")
}

// writeError writes the API's error body: {"error":{"code":N,"message":M}}.
func writeError(w http.ResponseWriter, status int, message string) {
	type body struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	writeJSON(w, status, map[string]body{"error": {Code: status, Message: message}})
}

// writeJSON writes v as a JSON answer with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
