package app

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/service"
)

// maxIntegrationSearch bounds the search of the integrations list, as
// the API's search filter does.
const maxIntegrationSearch = 100

// integrationRow is an integration as the list of an organization's
// integrations shows it.
type integrationRow struct {
	Name, Title, About string
	// URL is its page in the organization; Icon the address of its
	// icon, "" for none.
	URL, Icon string
	// Installed says it is installed in the organization; Private that
	// only the organization's members see it.
	Installed, Private bool
}

// integrationsList is what the list of integrations shows.
type integrationsList struct {
	OrgID string
	// Query is the search typed; Installed keeps the integrations
	// installed in the organization alone.
	Query     string
	Installed bool
	Rows      []integrationRow
	// Next is the address of the following page, "" on the last.
	Next   string
	Notice string
}

// integrationsPage lists the integrations an organization's admin may
// install there, a page at a time: the public ones and the
// organization's own private ones, those matching the search, each
// saying whether it is installed in the organization.
func (a *App) integrationsPage(w http.ResponseWriter, r *http.Request) error {
	ints, err := a.integrationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	orgID := r.PathValue("organizationId")
	q := r.URL.Query()
	d := &integrationsList{OrgID: orgID, Query: strings.TrimSpace(q.Get("q")), Installed: q.Get("installed") == "1",
		Notice: integrationNotice(r)}
	if utf8.RuneCountInString(d.Query) > maxIntegrationSearch {
		return quire.Invalid("search", "must be at most %d characters", maxIntegrationSearch)
	}
	f := quire.IntegrationFilter{Search: d.Query}
	if d.Installed {
		f.InstalledIn = orgID
	}
	l, err := ints.List(ctx, u, f, quire.Page{Cursor: q.Get("page")})
	if err != nil {
		return err
	}
	installed := map[string]bool{}
	if !d.Installed {
		if installed, err = installedNames(r, ints, orgID, d.Query); err != nil {
			return err
		}
	}
	for _, in := range l.Items {
		private := in.Manifest.Visibility == quire.IntegrationPrivate
		if private && in.OrgID != orgID {
			// Private to another organization of the caller's: it cannot
			// be installed here.
			continue
		}
		about := in.Manifest.Summary
		if about == "" {
			about = in.Manifest.Description
		}
		d.Rows = append(d.Rows, integrationRow{Name: in.Name, Title: in.Manifest.Title, About: about,
			URL: integrationPath(orgID, in.Name), Icon: integrationIcon(ints, in), Installed: d.Installed || installed[in.Name],
			Private: private})
	}
	if l.Next != "" {
		next := url.Values{"page": {l.Next}}
		if d.Query != "" {
			next.Set("q", d.Query)
		}
		if d.Installed {
			next.Set("installed", "1")
		}
		d.Next = "/app/o/" + url.PathEscape(orgID) + "/integrations?" + next.Encode()
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Integrations", "integrations"
	return a.render(w, r, http.StatusOK, "integrations", sh, d)
}

// installedNames returns the names of the integrations installed in an
// organization that match a search.
func installedNames(r *http.Request, ints *service.Integrations, orgID, search string) (map[string]bool, error) {
	out := map[string]bool{}
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := ints.List(r.Context(), userFrom(r.Context()), quire.IntegrationFilter{InstalledIn: orgID, Search: search}, p)
		if err != nil {
			return nil, err
		}
		for _, in := range l.Items {
			out[in.Name] = true
		}
		if l.Next == "" {
			return out, nil
		}
		p.Cursor = l.Next
	}
}
