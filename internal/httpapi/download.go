package httpapi

import (
	"context"
	"io"
	"mime"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
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
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		defer r.Close()
		hctx.SetHeader("Content-Type", f.ContentType)
		hctx.SetHeader("Content-Length", strconv.FormatInt(size, 10))
		hctx.SetHeader("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": f.Name}))
		hctx.SetHeader("Cache-Control", "private, max-age=31536000, immutable")
		hctx.SetStatus(200)
		_, _ = io.Copy(hctx.BodyWriter(), r)
	}}, nil
}
