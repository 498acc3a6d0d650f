package httpapi

import (
	"context"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/service"
)

// Media types of an organization export.
const (
	zipType   = "application/zip"
	tarGzType = "application/gzip"
)

// exportStall is how long an export's answer may wait for the client to
// take more bytes: the server's write timeout would cut a long export,
// so the deadline moves on as the archive goes out.
const exportStall = time.Minute

// orgExportIn asks for an organization's export.
type orgExportIn struct {
	OrgPath
	Format string `query:"format" enum:"zip,tar.gz" default:"zip" doc:"The archive's format: zip (default) or tar.gz"`
}

// exportOrg answers the organization's export as an archive streamed
// while it is written: one GitBook-format repository per space under
// spaces/, and manifest.json. Everything but the spaces' content is read
// first, so that a refusal answers its own status; a failure afterwards
// can only end the archive short (it then has no directory, and readers
// refuse it) and is logged.
func (s *Server) exportOrg(ctx context.Context, in *orgExportIn) (*huma.StreamResponse, error) {
	e, err := s.orgExports.Begin(ctx, in.OrganizationID)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		defer e.Close()
		name, media := "organization-"+in.OrganizationID+".zip", zipType
		if in.Format == "tar.gz" {
			name, media = "organization-"+in.OrganizationID+".tar.gz", tarGzType
		}
		hctx.SetHeader("Content-Type", media)
		hctx.SetHeader("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		hctx.SetStatus(http.StatusOK)
		w := newDeadlineWriter(hctx.BodyWriter(), time.Now)
		at := e.Manifest().ExportedAt
		var sink interface {
			service.ExportSink
			Close() error
		}
		if in.Format == "tar.gz" {
			sink = service.NewTarGzSink(w, at)
		} else {
			sink = service.NewZipSink(w, at)
		}
		err := e.Write(hctx.Context(), sink)
		if err == nil {
			err = sink.Close()
		}
		if err != nil {
			s.log.ErrorContext(hctx.Context(), "organization export ended short", "organization", in.OrganizationID, "err", err)
		}
	}}, nil
}

// deadlineWriter moves the connection's write deadline exportStall ahead
// as bytes go out (at most once a second), so that a long answer is not
// cut by the server's write timeout while a stalled client still is.
type deadlineWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	now   func() time.Time
	moved time.Time
}

// newDeadlineWriter wraps the body writer of an answer.
func newDeadlineWriter(w io.Writer, now func() time.Time) *deadlineWriter {
	d := &deadlineWriter{w: w, now: now}
	if rw, ok := w.(http.ResponseWriter); ok {
		d.rc = http.NewResponseController(rw)
	}
	return d
}

// Write implements io.Writer.
func (d *deadlineWriter) Write(p []byte) (int, error) {
	if now := d.now(); d.rc != nil && now.Sub(d.moved) >= time.Second {
		d.moved = now
		_ = d.rc.SetWriteDeadline(now.Add(exportStall))
	}
	return d.w.Write(p)
}

// describeExportResponses documents the answer of the export: a
// streamed handler leaves its response without a schema.
func describeExportResponses(api huma.API, path string) {
	item := api.OpenAPI().Paths[path]
	if item == nil || item.Get == nil {
		return
	}
	binary := &huma.Schema{Type: "string", Format: "binary"}
	item.Get.Responses["200"] = &huma.Response{
		Description: "The organization's export: spaces/<name>/ holds each space as a GitBook repository, manifest.json the rest",
		Content: map[string]*huma.MediaType{
			zipType:   {Schema: binary},
			tarGzType: {Schema: binary},
		},
	}
}
