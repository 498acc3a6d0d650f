package httpapi

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// imageSniffLen is how much of an image is read for its type.
const imageSniffLen = 512

// integrationImage serves an icon or preview image an integration
// published, named by its digest (see service.IntegrationImages). The
// address never changes meaning, so it may be kept for good; the image is
// served so that a browser never runs what it holds.
func (s *Server) integrationImage(w http.ResponseWriter, r *http.Request) {
	n, err := s.integrations.get()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	b, err := n.Image(r.Context(), r.PathValue("integrationName"), r.PathValue("digest"))
	if quire.IsNotFound(err) {
		writeError(w, s.toAPIError(err))
		return
	} else if err != nil {
		s.log.ErrorContext(r.Context(), "integration image", "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	ctype := imageType(b)
	h.Set("Content-Type", ctype)
	if !strings.HasPrefix(ctype, "image/") {
		h.Set("Content-Disposition", "attachment")
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// imageType is the media type an image is served with: the sniffed one
// for the raster formats, image/svg+xml for SVG, else a download.
func imageType(b []byte) string {
	t := http.DetectContentType(b)
	switch {
	case strings.HasPrefix(t, "image/"):
		return t
	case bytes.Contains(b[:min(len(b), imageSniffLen)], []byte("<svg")):
		return "image/svg+xml"
	}
	return "application/octet-stream"
}
