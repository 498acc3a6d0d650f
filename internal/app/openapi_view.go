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

// openAPIListPath is the address of an organization's specifications.
func openAPIListPath(orgID string) string { return "/app/o/" + url.PathEscape(orgID) + "/openapi" }

// openAPISpecPath is the address of a specification's page.
func openAPISpecPath(orgID, slug string) string {
	return openAPIListPath(orgID) + "/" + url.PathEscape(slug)
}

// openAPISpecRow is a specification as the list shows it.
type openAPISpecRow struct {
	Spec *quire.OpenAPISpec
	URL  string
	// Status is the processing state as the API names it (pending,
	// progress, complete), or failed for a processing that completed
	// with an error; State says it in words.
	Status    string
	State     string
	Processed string
}

// Failed reports whether the last processing failed.
func (r openAPISpecRow) Failed() bool { return r.Status == "failed" }

// openAPISpecsData is the list of an organization's specifications, with
// the form that adds one.
type openAPISpecsData struct {
	OrgID string
	Specs []openAPISpecRow
	Next  string
	// CanEdit offers the form: members who may create, as the API's
	// level for writing specifications.
	CanEdit bool
	Form    openAPIAddForm
	State   *FormState
	Notice  string
	// Refresh says how often specifications given by URL are fetched
	// again, in words.
	Refresh string
}

// openAPISpecsPage lists an organization's OpenAPI specifications.
func (a *App) openAPISpecsPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawOpenAPISpecs(w, r, http.StatusOK, openAPIAddForm{}, nil)
}

// drawOpenAPISpecs draws the list; typed is the refused add form, shown
// again with state's message.
func (a *App) drawOpenAPISpecs(w http.ResponseWriter, r *http.Request, status int, typed openAPIAddForm, state *FormState) error {
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
	d := openAPISpecsData{OrgID: orgID, CanEdit: levelFrom(r.Context()) >= create, Form: typed, State: state,
		Notice: openAPINotice(r), Refresh: intervalText(specs.RefreshInterval())}
	for _, s := range l.Items {
		d.Specs = append(d.Specs, specRow(s))
	}
	if l.Next != "" {
		d.Next = openAPIListPath(orgID) + "?page=" + url.QueryEscape(l.Next)
	}
	sh.Title, sh.Section = "OpenAPI specifications", "openapi"
	return a.render(w, r, status, "openapis", sh, d)
}

// specRow describes a specification for a list or its page.
func specRow(s *quire.OpenAPISpec) openAPISpecRow {
	row := openAPISpecRow{Spec: s, URL: openAPISpecPath(s.OrgID, s.Slug), Status: openAPIStatus(s), State: openAPIStateName(s)}
	if s.LastProcessedAt != nil {
		row.Processed = formatDate(*s.LastProcessedAt)
	}
	return row
}

// openAPIStatus is the processing state of a specification as the API
// names it, or failed when its last processing completed with an error.
func openAPIStatus(s *quire.OpenAPISpec) string {
	if s.State == quire.OpenAPIComplete && (s.ErrorCode != "" || len(s.Errors) > 0) {
		return "failed"
	}
	return string(s.State)
}

// openAPIStateName says where the processing of a specification stands.
func openAPIStateName(s *quire.OpenAPISpec) string {
	switch {
	case s.State == quire.OpenAPIPending:
		return "Waiting to be processed"
	case s.State == quire.OpenAPIProgress:
		return "Being processed"
	case s.ErrorCode != "":
		return openAPIFailure(s.ErrorCode)
	}
	return "Processed"
}

// openAPIFailure says why a processing failed, by its error code.
func openAPIFailure(code quire.OpenAPIErrorCode) string {
	switch code {
	case quire.OpenAPIFetchTimeout:
		return "Failed: the source did not answer in time"
	case quire.OpenAPIFetchError:
		return "Failed: the source could not be fetched"
	case quire.OpenAPIParseError:
		return "Failed: the source is not a valid OpenAPI document"
	}
	return "Failed: " + string(code)
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
	Versions []openAPIVersionRow
	// More says there are older versions than those listed.
	More bool
	// Problems says the last processing recorded an error, kept while
	// the next one runs; Failure says it in words.
	Problems bool
	Failure  string
	// CanEdit offers the forms that change or delete the specification.
	CanEdit bool
	// Processing is true while the processing has not ended: the page
	// then reloads itself every Reload seconds.
	Processing bool
	Reload     int
	Visibility string
	Refresh    string
	// Refused is the form drawn again after an invalid submission.
	Refused *FormState
	Notice  string
}

// openAPISpecVersions is how many versions a specification's page lists.
const openAPISpecVersions = 50

// openAPIReload is how often, in seconds, a specification's page reloads
// itself while its processing has not ended.
const openAPIReload = 3

// openAPISpecPage shows a specification: its source, processing state
// and problems, and its versions, newest first; to those who may, the
// forms that change it.
func (a *App) openAPISpecPage(w http.ResponseWriter, r *http.Request) error {
	return a.drawOpenAPISpec(w, r, http.StatusOK, nil)
}

// drawOpenAPISpec draws a specification's page; state names the field of
// a refused form.
func (a *App) drawOpenAPISpec(w http.ResponseWriter, r *http.Request, status int, state *FormState) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	spec, l, err := specs.Versions(r.Context(), orgID, r.PathValue("specSlug"), quire.Page{Limit: openAPISpecVersions})
	if err != nil {
		return err
	}
	d := openAPISpecData{openAPISpecRow: specRow(spec), More: l.Next != "", Problems: spec.ErrorCode != "" || len(spec.Errors) > 0, CanEdit: levelFrom(r.Context()) >= create,
		Processing: spec.State != quire.OpenAPIComplete, Reload: openAPIReload, Visibility: string(spec.Visibility),
		Refresh: intervalText(specs.RefreshInterval()), Refused: state, Notice: openAPINotice(r)}
	if d.Problems {
		d.Failure = openAPIFailure(spec.ErrorCode)
	}
	if state != nil && state.Form == "visibility" {
		d.Visibility = r.PostFormValue("visibility")
	}
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
	return a.render(w, r, status, "openapi", sh, d)
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
