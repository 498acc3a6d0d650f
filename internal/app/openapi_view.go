package app

import (
	"net/http"
	"net/url"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// openAPIService returns the OpenAPI specifications service, or says the
// server has none.
func (a *App) openAPIService() (*service.OpenAPISpecs, error) {
	if a.cfg.OpenAPI == nil {
		return nil, notAvailable("OpenAPI specifications are")
	}
	return a.cfg.OpenAPI, nil
}

// openAPISpecRow is a specification as the list shows it.
type openAPISpecRow struct {
	Spec      *quire.OpenAPISpec
	URL       string
	State     string
	Processed string
}

// openAPISpecsData is the list of an organization's specifications.
type openAPISpecsData struct {
	Specs []openAPISpecRow
	Next  string
}

// openAPISpecsPage lists an organization's OpenAPI specifications.
func (a *App) openAPISpecsPage(w http.ResponseWriter, r *http.Request) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	l, err := specs.List(r.Context(), orgID, quire.Page{Limit: quire.MaxLimit, Cursor: r.URL.Query().Get("page")})
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	var d openAPISpecsData
	for _, s := range l.Items {
		d.Specs = append(d.Specs, specRow(s))
	}
	if l.Next != "" {
		d.Next = "/app/o/" + url.PathEscape(orgID) + "/openapi?page=" + url.QueryEscape(l.Next)
	}
	sh.Title, sh.Section = "OpenAPI specifications", "openapi"
	return a.render(w, r, http.StatusOK, "openapis", sh, d)
}

// specRow describes a specification for a list or its page.
func specRow(s *quire.OpenAPISpec) openAPISpecRow {
	row := openAPISpecRow{Spec: s, URL: "/app/o/" + url.PathEscape(s.OrgID) + "/openapi/" + url.PathEscape(s.Slug),
		State: openAPIStateName(s)}
	if s.LastProcessedAt != nil {
		row.Processed = formatDate(*s.LastProcessedAt)
	}
	return row
}

// openAPIStateName says where the processing of a specification stands.
func openAPIStateName(s *quire.OpenAPISpec) string {
	switch {
	case s.State == quire.OpenAPIPending:
		return "Waiting to be processed"
	case s.State == quire.OpenAPIProgress:
		return "Being processed"
	case s.ErrorCode == quire.OpenAPIFetchTimeout:
		return "Failed: the source did not answer in time"
	case s.ErrorCode == quire.OpenAPIFetchError:
		return "Failed: the source could not be fetched"
	case s.ErrorCode == quire.OpenAPIParseError:
		return "Failed: the source is not a valid OpenAPI document"
	case s.ErrorCode != "":
		return "Failed: " + string(s.ErrorCode)
	}
	return "Processed"
}

// openAPIVersionRow is a version of a specification with the address of
// its main file.
type openAPIVersionRow struct {
	Version *quire.OpenAPIVersion
	Created string
	File    string
	Latest  bool
}

// openAPISpecData is what a specification's page shows.
type openAPISpecData struct {
	openAPISpecRow
	Failed   bool
	Versions []openAPIVersionRow
	// More says there are older versions than those listed.
	More bool
}

// openAPISpecVersions is how many versions a specification's page lists.
const openAPISpecVersions = 50

// openAPISpecPage shows a specification: its source, processing state
// and problems, and its versions, newest first.
func (a *App) openAPISpecPage(w http.ResponseWriter, r *http.Request) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	spec, l, err := specs.Versions(r.Context(), orgID, r.PathValue("specSlug"), quire.Page{Limit: openAPISpecVersions})
	if err != nil {
		return err
	}
	d := openAPISpecData{openAPISpecRow: specRow(spec), Failed: spec.ErrorCode != "" || len(spec.Errors) > 0, More: l.Next != ""}
	for _, v := range l.Items {
		link, err := specs.FileLink(r.Context(), spec, v.ID)
		if err != nil {
			return err
		}
		d.Versions = append(d.Versions, openAPIVersionRow{Version: v, Created: v.CreatedAt.Format(dateLayout + " 15:04 MST"),
			File: a.openAPIFileURL(link), Latest: v.ID == spec.LastVersion})
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = spec.Slug, "openapi"
	return a.render(w, r, http.StatusOK, "openapi", sh, d)
}

// openAPIFileURL is the address serving a version's main file, as the
// API answers it: signed when the specification is private.
func (a *App) openAPIFileURL(l service.OpenAPIFileLink) string {
	u := a.cfg.BaseURL + "/v1/openapi-files/" + url.PathEscape(l.SpecID) + "/" + url.PathEscape(l.VersionID)
	if l.Signature != "" {
		u += "?expires=" + strconv.FormatInt(l.Expires, 10) + "&signature=" + url.QueryEscape(l.Signature)
	}
	return u
}
