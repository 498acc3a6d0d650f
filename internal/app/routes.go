package app

import (
	"net/http"

	"quire/internal/quire"
)

// Shorthands of the route table.
const (
	get  = http.MethodGet
	post = http.MethodPost
)

// signInPath is the sign-in page, where a person who is not signed in
// is sent.
const signInPath = "/app/sign-in"

// table is the app's route table: every address it serves, with the
// access each needs. The API registers each row as a browser route.
func (a *App) table() []row {
	return []row{
		// Frame and navigation.
		{"appAsset", get, assetsPath + "{name}", public(), a.serveAsset},
		{"appHome", get, "/app/{$}", signedIn(), a.home},
		{"appOrganization", get, "/app/o/{organizationId}", onOrg(guest), a.orgHome},
		{"appSignOut", post, "/app/sign-out", public(), a.signOut},

		// Sites, integrations, OpenAPI (read-only): the pages behind the
		// urls.app the API answers, at the API's levels for reading them.
		{"appSites", get, "/app/o/{organizationId}/sites", onOrg(quire.LevelRead), a.sitesPage},
		{"appSite", get, "/app/o/{organizationId}/sites/{siteId}", onOrg(quire.LevelRead), a.sitePage},
		{"appIntegration", get, "/app/integrations/{integrationName}", signedIn(), a.integrationPage},
		{"appInstalledIntegration", get, "/app/o/{organizationId}/integrations/{integrationName}", onOrg(quire.LevelAdmin), a.installedIntegrationPage},
		{"appOpenAPISpecs", get, "/app/o/{organizationId}/openapi", onOrg(quire.LevelRead), a.openAPISpecsPage},
		{"appOpenAPISpec", get, "/app/o/{organizationId}/openapi/{specSlug}", onOrg(quire.LevelRead), a.openAPISpecPage},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
