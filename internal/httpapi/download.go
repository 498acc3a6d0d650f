package httpapi

import (
	"context"
	"io"
	"mime"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/service"
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

// signedDownloadIn is a signed download link: the file named by its path,
// the expiry and the signature in its query.
type signedDownloadIn struct {
	SpaceID    string `path:"spaceId"`
	RevisionID string `path:"revisionId"`
	FileID     string `path:"fileId"`
	FileName   string `path:"fileName" doc:"The file's name"`
	Expires    int64  `query:"expires" required:"true" doc:"When the link stops working, in Unix seconds"`
	Signature  string `query:"signature" required:"true" doc:"The link's signature"`
}

// downloadSignedFile answers a signed download link, without a token. A
// bad or expired signature is refused with 403.
func (s *Server) downloadSignedFile(ctx context.Context, in *signedDownloadIn) (*huma.StreamResponse, error) {
	f, r, size, err := s.svc.OpenDownload(ctx, service.DownloadLink{SpaceID: in.SpaceID, RevisionID: in.RevisionID,
		FileID: in.FileID, Name: in.FileName, Expires: in.Expires, Signature: in.Signature})
	if err != nil {
		return nil, err
	}
	left := max(in.Expires-s.svc.Now().Unix(), 0)
	return fileResponse(f, r, size, "private, max-age="+strconv.FormatInt(left, 10)), nil
}

// downloadURL is the absolute URL of a signed download link; its path
// ends with the file's id and name, which clients use to name what they
// save.
func (s *Server) downloadURL(l service.DownloadLink) string {
	return s.urls.apiLink(l.Path(), l.Query())
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
