package cli

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"quire/internal/reader"
)

// openAPIPath is where the API serves its OpenAPI document.
const openAPIPath = "/v1/openapi.json"

// addReaderPages registers the pages people read in a browser: the start
// page at / and the API reference at /docs/api, built from the document
// the API serves at /v1/openapi.json.
func addReaderPages(mux *http.ServeMux, api http.Handler, sites reader.SiteLister, log *slog.Logger) error {
	r, err := reader.New()
	if err != nil {
		return err
	}
	mux.Handle("GET /{$}", r.StartHandler(sites, reader.StartPage{APIDocsURL: "/docs/api", OpenAPIURL: openAPIPath}, log))
	mux.Handle("GET /docs/api", r.APIDocsHandler(openAPIFrom(api), openAPIPath, log))
	return nil
}

// openAPIFrom asks the API handler for its OpenAPI document, in process.
func openAPIFrom(api http.Handler) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, openAPIPath, nil)
		if err != nil {
			return nil, err
		}
		w := &bufferWriter{header: http.Header{}, status: http.StatusOK}
		api.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			return nil, fmt.Errorf("the API answered %d for %s", w.status, openAPIPath)
		}
		return w.body.Bytes(), nil
	}
}

// bufferWriter keeps an answer in memory.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the answer's header.
func (w *bufferWriter) Header() http.Header { return w.header }

// WriteHeader records the status.
func (w *bufferWriter) WriteHeader(status int) { w.status = status }

// Write keeps the body.
func (w *bufferWriter) Write(b []byte) (int, error) { return w.body.Write(b) }
