package httpapi

import (
	"context"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/service"
)

// OpenAPISpecMaxBody is the body limit of the operations taking a
// specification's text.
const OpenAPISpecMaxBody = 16 << 20

// openAPISourceIn is a specification's source (OpenAPISpecSource): a URL
// or a text, exactly one.
type openAPISourceIn struct {
	URL  string `json:"url,omitempty" maxLength:"2048" format:"uri" doc:"URL of the specification's main file; files it refers to by relative $ref are fetched beside it"`
	Text string `json:"text,omitempty" doc:"The specification as text (YAML or JSON)"`
}

// source converts the body member.
func (in openAPISourceIn) source() service.OpenAPISource {
	return service.OpenAPISource{URL: in.URL, Text: in.Text}
}

// OpenAPISpecPath names a specification.
type OpenAPISpecPath struct {
	OrgPath
	SpecSlug string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$" doc:"Slug of the OpenAPI specification"`
}

// OpenAPIVersionPath names a version of a specification.
type OpenAPIVersionPath struct {
	OpenAPISpecPath
	VersionID string `path:"versionId" maxLength:"64" doc:"Id of the version"`
}

// openAPIProblemJSON is one problem of the last processing
// (OpenAPIErrorObject), with where it is.
type openAPIProblemJSON struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	File    string `json:"file,omitempty" doc:"Path of the file at fault in the specification's filesystem"`
	Line    int    `json:"line,omitempty" doc:"Line of the problem in that file"`
	Pointer string `json:"pointer,omitempty" doc:"JSON pointer of the node at fault"`
}

// openAPISpecJSON is the OpenAPISpec object.
type openAPISpecJSON struct {
	Object               string               `json:"object" enum:"openapi-spec"`
	ID                   string               `json:"id"`
	CreatedAt            string               `json:"createdAt" format:"date-time"`
	UpdatedAt            string               `json:"updatedAt" format:"date-time"`
	Slug                 string               `json:"slug"`
	SourceURL            string               `json:"sourceURL,omitempty"`
	ProcessingState      string               `json:"processingState" enum:"pending,progress,complete"`
	Visibility           string               `json:"visibility" enum:"private,public"`
	LastVersion          string               `json:"lastVersion,omitempty"`
	LastProcessedAt      *string              `json:"lastProcessedAt,omitempty" format:"date-time"`
	LastProcessErrorCode string               `json:"lastProcessErrorCode,omitempty" enum:"FETCH_TIMEOUT,FETCH_ERROR,PARSE_ERROR"`
	LastProcessedErrors  []openAPIProblemJSON `json:"lastProcessedErrors,omitempty"`
	// LastProcessedErrorCount is the number of problems of the last
	// processing, which later versions of the schema require.
	LastProcessedErrorCount int `json:"lastProcessedErrorCount"`
	Permissions             struct {
		View bool `json:"view"`
		Edit bool `json:"edit"`
	} `json:"permissions"`
	URLs struct {
		Location  string `json:"location"`
		App       string `json:"app"`
		Published string `json:"published,omitempty"`
	} `json:"urls"`
}

// openAPIVersionJSON is the OpenAPISpecVersion object.
type openAPIVersionJSON struct {
	Object    string  `json:"object" enum:"openapi-spec-version"`
	ID        string  `json:"id"`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	URL       string  `json:"url" doc:"URL serving the version's main file"`
	URLs      locURLs `json:"urls"`
}

// openAPIContentJSON is the OpenAPISpecContent object.
type openAPIContentJSON struct {
	Filesystem map[string]string `json:"filesystem" doc:"Every file of the specification, its text keyed by its path relative to the main file's directory"`
	Main       string            `json:"main" doc:"Path of the main file in the filesystem"`
	URL        string            `json:"url" doc:"URL serving the main file: without a token when the specification is public, signed and expiring otherwise"`
}

// specURL returns the API URL of a specification.
func (s *Server) specURL(spec *quire.OpenAPISpec) string {
	return s.urls.api("orgs", spec.OrgID, "openapi", spec.Slug)
}

// openAPISpecOut converts a specification for a caller at a level in its
// organization.
func (s *Server) openAPISpecOut(spec *quire.OpenAPISpec, l quire.Level) openAPISpecJSON {
	out := openAPISpecJSON{Object: "openapi-spec", ID: spec.ID, CreatedAt: timestamp(spec.CreatedAt),
		UpdatedAt: timestamp(spec.UpdatedAt), Slug: spec.Slug, SourceURL: spec.SourceURL,
		ProcessingState: string(spec.State), Visibility: string(spec.Visibility), LastVersion: spec.LastVersion,
		LastProcessedAt: optTimestamp(spec.LastProcessedAt), LastProcessErrorCode: string(spec.ErrorCode),
		LastProcessedErrorCount: len(spec.Errors)}
	for _, p := range spec.Errors {
		out.LastProcessedErrors = append(out.LastProcessedErrors, openAPIProblemJSON(p))
	}
	out.Permissions.View = l >= quire.LevelRead
	out.Permissions.Edit = l >= quire.LevelCreate
	out.URLs.Location = s.specURL(spec)
	out.URLs.App = s.urls.app("o", spec.OrgID, "openapi", spec.Slug)
	if spec.Visibility == quire.OpenAPIPublic && spec.LastVersion != "" {
		out.URLs.Published = s.fileURL(service.OpenAPIFileLink{SpecID: spec.ID, VersionID: service.LatestVersionID})
	}
	return out
}

// fileURL returns the URL of a specification file link.
func (s *Server) fileURL(l service.OpenAPIFileLink) string {
	u := s.urls.api("openapi-files", l.SpecID, l.VersionID)
	if l.Signature != "" {
		u += "?expires=" + strconv.FormatInt(l.Expires, 10) + "&signature=" + url.QueryEscape(l.Signature)
	}
	return u
}

// versionOut converts a version; link serves its main file.
func (s *Server) versionOut(spec *quire.OpenAPISpec, v *quire.OpenAPIVersion, link service.OpenAPIFileLink) openAPIVersionJSON {
	return openAPIVersionJSON{Object: "openapi-spec-version", ID: v.ID, CreatedAt: timestamp(v.CreatedAt),
		URL: s.fileURL(link), URLs: locURLs{Location: s.specURL(spec) + "/versions/" + v.ID}}
}

// openAPIOut answers a specification with a status.
type openAPIOut struct {
	Status int
	Body   openAPISpecJSON
}

func (s *Server) listOpenAPISpecs(ctx context.Context, in *struct {
	OrgPath
	ListParams
}) (*body[listOf[openAPISpecJSON]], error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	l, err := o.List(ctx, in.OrganizationID, in.page())
	if err != nil {
		return nil, err
	}
	lvl := levelFrom(ctx)
	return reply(listJSON(l, func(spec *quire.OpenAPISpec) openAPISpecJSON { return s.openAPISpecOut(spec, lvl) })), nil
}

func (s *Server) createOpenAPISpec(ctx context.Context, in *struct {
	OrgPath
	Body struct {
		Slug   string          `json:"slug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$" doc:"Slug the specification is referred to by, unique in the organization"`
		Source openAPISourceIn `json:"source"`
	}
}) (*body[openAPISpecJSON], error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	spec, err := o.Create(ctx, in.OrganizationID, in.Body.Slug, in.Body.Source.source())
	if err != nil {
		return nil, err
	}
	return reply(s.openAPISpecOut(spec, levelFrom(ctx))), nil
}

func (s *Server) getOpenAPISpec(ctx context.Context, in *OpenAPISpecPath) (*body[openAPISpecJSON], error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	spec, err := o.Get(ctx, in.OrganizationID, in.SpecSlug)
	if err != nil {
		return nil, err
	}
	return reply(s.openAPISpecOut(spec, levelFrom(ctx))), nil
}

func (s *Server) putOpenAPISpec(ctx context.Context, in *struct {
	OpenAPISpecPath
	Body struct {
		Source openAPISourceIn `json:"source"`
	}
}) (*openAPIOut, error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	spec, created, err := o.Put(ctx, in.OrganizationID, in.SpecSlug, in.Body.Source.source())
	if err != nil {
		return nil, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return &openAPIOut{Status: status, Body: s.openAPISpecOut(spec, levelFrom(ctx))}, nil
}

func (s *Server) updateOpenAPISpec(ctx context.Context, in *struct {
	OpenAPISpecPath
	Body struct {
		Visibility string           `json:"visibility" enum:"private,public" doc:"Who may read the specification's files without a token"`
		Source     *openAPISourceIn `json:"source,omitempty" doc:"A new source, processed again"`
	}
}) (*body[openAPISpecJSON], error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	vis := quire.OpenAPIVisibility(in.Body.Visibility)
	var src *service.OpenAPISource
	if in.Body.Source != nil {
		v := in.Body.Source.source()
		src = &v
	}
	spec, err := o.Update(ctx, in.OrganizationID, in.SpecSlug, &vis, src)
	if err != nil {
		return nil, err
	}
	return reply(s.openAPISpecOut(spec, levelFrom(ctx))), nil
}

func (s *Server) deleteOpenAPISpec(ctx context.Context, in *OpenAPISpecPath) (*statusOnly, error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	ok, err := o.Delete(ctx, in.OrganizationID, in.SpecSlug)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) listOpenAPIVersions(ctx context.Context, in *struct {
	OpenAPISpecPath
	ListParams
}) (*body[listOf[openAPIVersionJSON]], error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	spec, l, err := o.Versions(ctx, in.OrganizationID, in.SpecSlug, in.page())
	if err != nil {
		return nil, err
	}
	out := listOf[openAPIVersionJSON]{}
	links := make(map[string]service.OpenAPIFileLink, len(l.Items))
	for _, v := range l.Items {
		if links[v.ID], err = o.FileLink(ctx, spec, v.ID); err != nil {
			return nil, err
		}
	}
	out = listJSON(l, func(v *quire.OpenAPIVersion) openAPIVersionJSON { return s.versionOut(spec, v, links[v.ID]) })
	return reply(out), nil
}

// version reads a version ("latest" for the newest) and its file link.
func (s *Server) version(ctx context.Context, in *OpenAPIVersionPath) (*quire.OpenAPISpec, *quire.OpenAPIVersion, service.OpenAPIFileLink, error) {
	var link service.OpenAPIFileLink
	o, err := s.openapi.get()
	if err != nil {
		return nil, nil, link, err
	}
	spec, v, err := o.Version(ctx, in.OrganizationID, in.SpecSlug, in.VersionID)
	if err != nil {
		return nil, nil, link, err
	}
	link, err = o.FileLink(ctx, spec, v.ID)
	return spec, v, link, err
}

func (s *Server) getOpenAPIVersion(ctx context.Context, in *OpenAPIVersionPath) (*body[openAPIVersionJSON], error) {
	spec, v, link, err := s.version(ctx, in)
	if err != nil {
		return nil, err
	}
	return reply(s.versionOut(spec, v, link)), nil
}

func (s *Server) getLatestOpenAPIVersion(ctx context.Context, in *OpenAPISpecPath) (*body[openAPIVersionJSON], error) {
	return s.getOpenAPIVersion(ctx, &OpenAPIVersionPath{OpenAPISpecPath: *in, VersionID: service.LatestVersionID})
}

func (s *Server) getOpenAPIContent(ctx context.Context, in *OpenAPIVersionPath) (*body[openAPIContentJSON], error) {
	_, v, link, err := s.version(ctx, in)
	if err != nil {
		return nil, err
	}
	return reply(openAPIContentJSON{Filesystem: v.Files, Main: v.Main, URL: s.fileURL(link)}), nil
}

func (s *Server) getLatestOpenAPIContent(ctx context.Context, in *OpenAPISpecPath) (*body[openAPIContentJSON], error) {
	return s.getOpenAPIContent(ctx, &OpenAPIVersionPath{OpenAPISpecPath: *in, VersionID: service.LatestVersionID})
}

// openAPIFileIn is the request of a specification's main file.
type openAPIFileIn struct {
	SpecID    string `path:"specId" maxLength:"64" doc:"Id of the specification"`
	VersionID string `path:"versionId" maxLength:"64" doc:"Id of the version, or latest"`
	Expires   int64  `query:"expires" doc:"When the link stops working, in Unix seconds (links to private specifications)"`
	Signature string `query:"signature" maxLength:"128" doc:"The link's signature (links to private specifications)"`
}

// downloadOpenAPIFile serves the main file of a version, without a token:
// freely for a public specification, on a signed link for a private one.
func (s *Server) downloadOpenAPIFile(ctx context.Context, in *openAPIFileIn) (*huma.StreamResponse, error) {
	o, err := s.openapi.get()
	if err != nil {
		return nil, err
	}
	name, text, err := o.OpenFile(ctx, service.OpenAPIFileLink{SpecID: in.SpecID, VersionID: in.VersionID,
		Expires: in.Expires, Signature: in.Signature})
	if err != nil {
		return nil, err
	}
	ctype := "application/yaml; charset=utf-8"
	if mime.TypeByExtension(extOf(name)) == "application/json" {
		ctype = "application/json; charset=utf-8"
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", ctype)
		hctx.SetHeader("Content-Length", strconv.Itoa(len(text)))
		hctx.SetHeader("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name}))
		hctx.SetStatus(http.StatusOK)
		_, _ = hctx.BodyWriter().Write([]byte(text))
	}}, nil
}

// extOf returns a file name's extension.
func extOf(name string) string {
	for i := len(name) - 1; i >= 0 && name[i] != '/'; i-- {
		if name[i] == '.' {
			return name[i:]
		}
	}
	return ""
}
