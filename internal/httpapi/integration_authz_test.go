package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/quire"
)

// The integration operations join the authorization table: the route
// lets every caller in and the service decides, on the integration and
// its installations.
func init() {
	for id, r := range integrationAccessRows() {
		expectedAccess[id] = r
	}
	for id, c := range integrationAuthzCases() {
		authzCases[id] = c
	}
}

// adminOr answers ok to the organization's admin, outsider to the
// non-member and 403 to everyone else.
func adminOr(ok, outsider int) func(string) int {
	return func(c string) int {
		switch c {
		case cAdmin:
			return ok
		case cNonMember:
			return outsider
		}
		return http.StatusForbidden
	}
}

// integrationAccessRows are the integration rows of expectedAccess.
func integrationAccessRows() map[string]accessRow {
	owner := func(ok int) accessRow { return openRow(adminOr(ok, http.StatusForbidden)) }
	installed := func(ok int) accessRow { return openRow(adminOr(ok, http.StatusNotFound)) }
	return map[string]accessRow{
		"listIntegrations":                   openRow(everyone(http.StatusOK)),
		"getIntegrationByName":               openRow(everyone(http.StatusOK)),
		"publishIntegration":                 installed(http.StatusOK),
		"unpublishIntegration":               owner(http.StatusResetContent),
		"listIntegrationInstallations":       owner(http.StatusOK),
		"installIntegration":                 installed(http.StatusCreated),
		"getIntegrationInstallationById":     installed(http.StatusOK),
		"updateIntegrationInstallation":      installed(http.StatusOK),
		"uninstallIntegration":               openRow(adminOr(http.StatusResetContent, http.StatusNoContent)),
		"createIntegrationInstallationToken": installed(http.StatusOK),
		"installIntegrationOnSpace":          installed(http.StatusCreated),
		"getIntegrationSpaceInstallation":    installed(http.StatusOK),
		"updateIntegrationSpaceInstallation": installed(http.StatusOK),
		"uninstallIntegrationFromSpace":      openRow(adminOr(http.StatusResetContent, http.StatusNoContent)),
		"installIntegrationOnSite":           installed(http.StatusCreated),
		"getIntegrationSiteInstallation":     installed(http.StatusOK),
		"updateIntegrationSiteInstallation":  installed(http.StatusOK),
		"uninstallIntegrationFromSite":       openRow(adminOr(http.StatusResetContent, http.StatusNoContent)),
		"listIntegrationSpaceInstallations":  owner(http.StatusOK),
		"listIntegrationSiteInstallations":   owner(http.StatusOK),
		"listIntegrationEvents":              owner(http.StatusOK),
		"getIntegrationEvent":                owner(http.StatusOK),
		"setIntegrationDevelopmentMode":      owner(http.StatusNoContent),
		"disableIntegrationDevelopmentMode":  owner(http.StatusResetContent),
		"listSpaceIntegrations":              spaceRow(quire.LevelRead),
	}
}

// integrationFixture is a published integration installed in the test
// organization, on a space and a site.
type integrationFixture struct {
	name, installation, space, site string
}

// params are the fixture's path parameters.
func (f integrationFixture) params() map[string]string {
	return pathParams("integrationName", f.name, "installationId", f.installation, "spaceId", f.space, "siteId", f.site)
}

// newIntegrationFixture publishes and installs a new integration.
func (m *matrix) newIntegrationFixture(t *testing.T) integrationFixture {
	t.Helper()
	ts, admin := m.ts, m.ts.token(cAdmin)
	f := integrationFixture{name: "matrix-" + strings.ToLower(quire.NewID())}
	ts.publish(t, f.name, nil)
	f.installation = ts.install(t, f.name)
	f.space = m.space(t)
	f.site = str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/sites"), admin, map[string]any{"title": "Matrix site"}), "id")
	base := "/v1/integrations/" + f.name + "/installations/" + f.installation
	ts.must(t, http.StatusCreated, "POST", base+"/spaces", admin, map[string]any{"space": f.space})
	ts.must(t, http.StatusCreated, "POST", base+"/sites", admin, map[string]any{"siteId": f.site})
	return f
}

// integrationCase is a case over a fresh fixture, with a body.
func integrationCase(ok int, body func(f integrationFixture) any) authzCase {
	return authzCase{ok: ok, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.newIntegrationFixture(t)
		var b any
		if body != nil {
			b = body(f)
		}
		return f.params(), b
	}}
}

// integrationAuthzCases are the matrix cases of the integration
// operations.
func integrationAuthzCases() map[string]authzCase {
	return map[string]authzCase{
		"listIntegrations":     {ok: 200},
		"getIntegrationByName": integrationCase(200, nil),
		"publishIntegration": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			f := m.newIntegrationFixture(t)
			return f.params(), m.ts.publishBody(map[string]any{"title": "Republished"})
		}, still: func(t *testing.T, m *matrix, ps map[string]string) {
			got := m.ts.must(t, 200, "GET", "/v1/integrations/"+ps["integrationName"], m.ts.token(cAdmin), nil)
			wantFields(t, got, map[string]any{"version": float64(1)})
		}},
		"unpublishIntegration": {ok: 205, setup: integrationCase(0, nil).setup,
			still: func(t *testing.T, m *matrix, ps map[string]string) {
				m.ts.must(t, 200, "GET", "/v1/integrations/"+ps["integrationName"], m.ts.token(cAdmin), nil)
			}},
		"listIntegrationInstallations": integrationCase(200, nil),
		"installIntegration": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			name := "matrix-" + strings.ToLower(quire.NewID())
			m.ts.publish(t, name, nil)
			return pathParams("integrationName", name), map[string]any{"organization": m.ts.Org}
		}},
		"getIntegrationInstallationById": integrationCase(200, nil),
		"updateIntegrationInstallation": integrationCase(200, func(f integrationFixture) any {
			return map[string]any{"externalIds": []string{"x"}}
		}),
		"uninstallIntegration":               integrationCase(205, nil),
		"createIntegrationInstallationToken": integrationCase(200, nil),
		"installIntegrationOnSpace": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			f := m.newIntegrationFixture(t)
			return f.params(), map[string]any{"space": m.space(t)}
		}},
		"getIntegrationSpaceInstallation": integrationCase(200, nil),
		"updateIntegrationSpaceInstallation": integrationCase(200, func(f integrationFixture) any {
			return map[string]any{"externalIds": []string{"x"}}
		}),
		"uninstallIntegrationFromSpace": integrationCase(205, nil),
		"installIntegrationOnSite": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			f := m.newIntegrationFixture(t)
			site := str(m.ts.must(t, http.StatusCreated, "POST", m.ts.OrgPath("/sites"), m.ts.token(cAdmin), map[string]any{"title": "Other site"}), "id")
			return f.params(), map[string]any{"siteId": site}
		}},
		"getIntegrationSiteInstallation": integrationCase(200, nil),
		"updateIntegrationSiteInstallation": integrationCase(200, func(f integrationFixture) any {
			return map[string]any{"externalIds": []string{"x"}}
		}),
		"uninstallIntegrationFromSite":      integrationCase(205, nil),
		"listIntegrationSpaceInstallations": integrationCase(200, nil),
		"listIntegrationSiteInstallations":  integrationCase(200, nil),
		"listIntegrationEvents":             integrationCase(200, nil),
		"getIntegrationEvent": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			f := m.newIntegrationFixture(t)
			ev := m.ts.waitEvent(t, f.name, "installation_setup")
			ps := f.params()
			ps["eventId"] = str(ev, "event.id")
			return ps, nil
		}},
		"setIntegrationDevelopmentMode": integrationCase(204, func(f integrationFixture) any {
			return map[string]any{"tunnelUrl": "https://tunnel.example.com"}
		}),
		"disableIntegrationDevelopmentMode": integrationCase(205, nil),
		"listSpaceIntegrations": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), nil
		}},
	}
}
