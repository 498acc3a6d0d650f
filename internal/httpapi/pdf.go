package httpapi

import (
	"context"
	"mime"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/service"
)

// PDFQuery selects the pages of a PDF.
type PDFQuery struct {
	Only bool   `query:"only" doc:"Show only the page given by page, without the pages below it"`
	Page string `query:"page" maxLength:"128" doc:"Id of the page to show, with the pages below it unless only is true"`
}

// pdfURLJSON is the answer of a PDF request.
type pdfURLJSON struct {
	URL string `json:"url" format:"uri" doc:"Temporary URL of the PDF, working for one hour without a token"`
}

func (s *Server) getSpacePDF(ctx context.Context, in *struct {
	SpacePath
	PDFQuery
}) (*body[pdfURLJSON], error) {
	return s.pdfLink(ctx, service.PDFRequest{SpaceID: in.SpaceID, Page: in.Page, Only: in.Only})
}

func (s *Server) getChangeRequestPDF(ctx context.Context, in *struct {
	CRPath
	PDFQuery
}) (*body[pdfURLJSON], error) {
	return s.pdfLink(ctx, service.PDFRequest{SpaceID: in.SpaceID, ChangeRequest: in.ChangeRequestID, Page: in.Page, Only: in.Only})
}

// pdfLink answers the signed link of a PDF.
func (s *Server) pdfLink(ctx context.Context, req service.PDFRequest) (*body[pdfURLJSON], error) {
	p, err := s.pdfs.get()
	if err != nil {
		return nil, err
	}
	l, err := p.Link(ctx, req)
	if err != nil {
		return nil, err
	}
	return &body[pdfURLJSON]{Body: pdfURLJSON{URL: s.urls.apiLink(l.Path(), l.Query())}}, nil
}

// signedPDFIn is a signed PDF link: the revision and file name in its
// path, what it shows, its expiry and its signature in its query.
type signedPDFIn struct {
	SpaceID       string `path:"spaceId"`
	RevisionID    string `path:"revisionId"`
	FileName      string `path:"fileName" doc:"The PDF's file name"`
	ChangeRequest string `query:"changeRequest" doc:"The change request whose content is shown"`
	Page          string `query:"page" doc:"The page shown"`
	Only          bool   `query:"only" doc:"Whether the pages below it are left out"`
	Expires       int64  `query:"expires" required:"true" doc:"When the link stops working, in Unix seconds"`
	Signature     string `query:"signature" required:"true" doc:"The link's signature"`
}

// downloadSignedPDF answers a signed PDF link, without a token. A bad or
// expired signature is refused with 403.
func (s *Server) downloadSignedPDF(ctx context.Context, in *signedPDFIn) (*huma.StreamResponse, error) {
	p, err := s.pdfs.get()
	if err != nil {
		return nil, err
	}
	data, err := p.Render(ctx, service.PDFLink{SpaceID: in.SpaceID, RevisionID: in.RevisionID, ChangeRequestID: in.ChangeRequest,
		Page: in.Page, Only: in.Only, Name: in.FileName, Expires: in.Expires, Signature: in.Signature})
	if err != nil {
		return nil, err
	}
	left := max(in.Expires-s.svc.Now().Unix(), 0)
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "application/pdf")
		hctx.SetHeader("Content-Length", strconv.Itoa(len(data)))
		hctx.SetHeader("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": in.FileName}))
		hctx.SetHeader("Cache-Control", "private, max-age="+strconv.FormatInt(left, 10))
		hctx.SetStatus(200)
		_, _ = hctx.BodyWriter().Write(data)
	}}, nil
}
