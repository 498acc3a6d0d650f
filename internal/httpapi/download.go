package httpapi

import (
	"context"
	"io"
	"mime"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
)

// downloadIn names a file of a revision to download.
type downloadIn struct {
	RevisionPath
	FileIDParam
}

func (s *Server) downloadFile(ctx context.Context, in *downloadIn) (*huma.StreamResponse, error) {
	c, err := s.svc.Content(ctx, in.ref())
	if err != nil {
		return nil, err
	}
	f, err := c.File(ctx, in.FileID)
	if err != nil {
		return nil, err
	}
	r, size, err := s.svc.OpenBlob(ctx, f.Blob)
	if err != nil {
		return nil, err
	}
	return fileResponse(f, r, size, "private, max-age=31536000, immutable"), nil
}

// fileResponse streams a file's bytes with its type, length, name and the
// given caching. A type a browser would run (HTML, SVG, XML, scripts) is
// sent as an attachment in a sandbox, so that an uploaded page cannot act
// with the server's origin.
func fileResponse(f *quire.File, r io.ReadCloser, size int64, cache string) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		defer r.Close()
		disposition := "inline"
		if activeType(f.ContentType) {
			disposition = "attachment"
			hctx.SetHeader("Content-Security-Policy", "sandbox")
		}
		hctx.SetHeader("Content-Type", f.ContentType)
		hctx.SetHeader("Content-Length", strconv.FormatInt(size, 10))
		hctx.SetHeader("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
		hctx.SetHeader("Cache-Control", cache)
		hctx.SetStatus(200)
		_, _ = io.Copy(hctx.BodyWriter(), r)
	}}
}

// activeType reports whether a file of this type must not be rendered by
// a browser: a type browsers show as a document or run as a script, any
// XML dialect (+xml), or a type that does not parse, since a browser
// might read it as something else.
func activeType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return true
	}
	switch mt {
	case "text/html", "application/xhtml+xml", "image/svg+xml", "application/xml", "text/xml",
		"text/xsl", "text/javascript", "application/javascript", "application/x-javascript",
		"application/ecmascript", "text/ecmascript", "text/jscript", "text/vbscript",
		"application/pdf", "application/x-shockwave-flash", "text/cache-manifest",
		"multipart/x-mixed-replace":
		return true
	}
	return strings.HasSuffix(mt, "+xml")
}
