package httpapi

import (
	"context"

	"quire/internal/importer"
)

// importContentIn is the body of a content import (ImportContent).
type importContentIn struct {
	URL    string `json:"url" minLength:"1" maxLength:"2048" format:"uri" doc:"URL of the content to import"`
	Source string `json:"source" enum:"website,docx,markdown,html,zip,confluence,github-wiki,notion,google-docs" doc:"What the URL points at; website, markdown, html and zip are supported"`
}

// importContentJSON is the result of a content import
// (ImportContentResult).
type importContentJSON struct {
	Revision          string `json:"revision" doc:"ID of the newly created revision"`
	ImportedResources int    `json:"importedResources" doc:"How many resources were imported"`
	TotalResources    int    `json:"totalResources" doc:"How many resources were processed"`
}

// importedContent answers an import with its result and the API URL of
// the revision it made.
type importedContent struct {
	Location string `header:"Location"`
	Body     importContentJSON
}

func (s *Server) importContent(ctx context.Context, in *struct {
	SpacePath
	Body importContentIn
}) (*importedContent, error) {
	return s.runImport(ctx, in.SpaceID, "", in.Body)
}

func (s *Server) importContentInChangeRequest(ctx context.Context, in *struct {
	CRPath
	Body importContentIn
}) (*importedContent, error) {
	return s.runImport(ctx, in.SpaceID, in.ChangeRequestID, in.Body)
}

// runImport imports into a space or one of its change requests.
func (s *Server) runImport(ctx context.Context, spaceID, crID string, b importContentIn) (*importedContent, error) {
	imports, err := s.imports.get()
	if err != nil {
		return nil, err
	}
	res, err := imports.Import(ctx, userFrom(ctx), spaceID, crID, importer.Source(b.Source), b.URL)
	if err != nil {
		return nil, err
	}
	return &importedContent{Location: s.urls.api("spaces", spaceID, "revisions", res.Revision),
		Body: importContentJSON{Revision: res.Revision, ImportedResources: res.Imported, TotalResources: res.Total}}, nil
}
