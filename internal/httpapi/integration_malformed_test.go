package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The integration operations join the malformed-body table.
func init() {
	for id, c := range integrationBodyCases() {
		bodyCases[id] = c
	}
}

// integrationBodyParams publishes and installs an integration, on a
// space and a site, and returns the path parameters naming them.
func integrationBodyParams(t *testing.T, ts *testServer) map[string]string {
	t.Helper()
	ps := ts.integrationParams(t)
	admin := ts.token(cAdmin)
	base := "/v1/integrations/" + ps["integrationName"] + "/installations/" + ps["installationId"]
	ps["spaceId"] = ts.newSpace(t, "Installed")
	ps["siteId"] = str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/sites"), admin, map[string]any{"title": "Installed"}), "id")
	ts.must(t, http.StatusCreated, "POST", base+"/spaces", admin, map[string]any{"space": ps["spaceId"]})
	ts.must(t, http.StatusCreated, "POST", base+"/sites", admin, map[string]any{"siteId": ps["siteId"]})
	return ps
}

// integrationSnapshot reads the integration, its installation and its
// space and site installations.
func integrationSnapshot(t *testing.T, ts *testServer, ps map[string]string) string {
	t.Helper()
	base := "/v1/integrations/" + ps["integrationName"]
	inst := base + "/installations/" + ps["installationId"]
	return snap(fixed(base), fixed(inst), fixed(inst+"/spaces/"+ps["spaceId"]), fixed(inst+"/sites/"+ps["siteId"]),
		fixed(base+"/spaces"), fixed(base+"/sites"))(t, ts, ps)
}

// integrationBodyCases are the malformed-body cases of the integration
// operations.
func integrationBodyCases() map[string]bodyCase {
	publish := map[string]any{"organization": "acme", "title": "Acme Sync", "description": "Syncs",
		"script": "export default {}", "scopes": []string{"space:content:read"}}
	secrets := map[string]string{}
	for i := 0; i < 21; i++ {
		secrets[fmt.Sprintf("K%d", i)] = "v"
	}
	links := []map[string]any{}
	for i := 0; i < 6; i++ {
		links = append(links, map[string]any{"url": "https://x.test/" + fmt.Sprint(i), "label": "x"})
	}
	config := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"account": map[string]any{"properties": props, "required": required}}
	}
	settings := map[string]any{"externalIds": []string{"a"}}
	settingsWrong := map[string]map[string]any{
		"externalIds":   withField(settings, "externalIds", "a"),
		"configuration": withField(settings, "configuration", []string{"x"}),
	}
	settingsInvalid := []invalidBody{
		{"six external ids", withField(settings, "externalIds", []string{"1", "2", "3", "4", "5", "6"}), "externalIds"},
		{"external id not a string", withField(settings, "externalIds", []any{1}), "externalIds"},
	}
	c := func(valid map[string]any, wrong map[string]map[string]any, required []string, invalid []invalidBody) bodyCase {
		return bodyCase{setup: integrationBodyParams, valid: valid, wrongType: wrong, required: required, invalid: invalid,
			snapshot: integrationSnapshot}
	}
	pub := c(publish, map[string]map[string]any{
		"title":          withField(publish, "title", 5),
		"scopes":         withField(publish, "scopes", "space:content:read"),
		"script":         withField(publish, "script", 1),
		"organization":   withField(publish, "organization", true),
		"secrets":        withField(publish, "secrets", "x"),
		"blocks":         withField(publish, "blocks", map[string]any{}),
		"configurations": withField(publish, "configurations", []any{}),
		"previewImages":  withField(publish, "previewImages", "x"),
	}, []string{"organization", "title", "description", "script", "scopes"}, []invalidBody{
		{"one-letter title", withField(publish, "title", "A"), "title"},
		{"title over 30", withField(publish, "title", strings.Repeat("a", 31)), "title"},
		{"description over 100", withField(publish, "description", strings.Repeat("a", 101)), "description"},
		{"summary over 2048", withField(publish, "summary", strings.Repeat("a", 2049)), "summary"},
		{"four preview images", withField(publish, "previewImages", []string{"aQ==", "aQ==", "aQ==", "aQ=="}), "previewImages"},
		{"six external links", withField(publish, "externalLinks", links), "externalLinks"},
		{"external link without a label", withField(publish, "externalLinks", []any{map[string]any{"url": "https://x.test"}}), "externalLinks[0]"},
		{"21 secrets", withField(publish, "secrets", secrets), "secrets"},
		{"unknown scope", withField(publish, "scopes", []string{"space:everything"}), "scopes"},
		{"unknown category", withField(publish, "categories", []string{"games"}), "categories"},
		{"unknown visibility", withField(publish, "visibility", "secret"), "visibility"},
		{"unknown target", withField(publish, "target", "page"), "target"},
		{"unknown runtime", withField(publish, "runtime", "v3"), "runtime"},
		{"icon not base64", withField(publish, "icon", "not base64!"), "icon"},
		{"preview image not base64", withField(publish, "previewImages", []string{"aQ==", "%%"}), "previewImages[1]"},
		{"block title of one letter", withField(publish, "blocks", []any{map[string]any{"id": "b", "title": "B"}}), "blocks[0].title"},
		{"block without an id", withField(publish, "blocks", []any{map[string]any{"title": "Block"}}), "blocks[0]"},
		{"content source without configuration", withField(publish, "contentSources", []any{map[string]any{"id": "s", "title": "Source"}}), "contentSources[0]"},
		{"configuration property of an unknown type", withField(publish, "configurations", config(map[string]any{"k": map[string]any{"type": "date"}})), "configurations.account.properties.k.type"},
		{"configuration requiring an unknown property", withField(publish, "configurations", config(map[string]any{"k": map[string]any{"type": "string"}}, "j")), "configurations.account.required"},
		{"configuration property with a bad enum", withField(publish, "configurations", config(map[string]any{"k": map[string]any{"type": "string", "enum": "a"}})), "configurations.account"},
		{"configuration without properties", withField(publish, "configurations", map[string]any{"space": map[string]any{"required": []string{}}}), "configurations.space.properties"},
		{"content security policy of a number", withField(publish, "contentSecurityPolicy", 5), "contentSecurityPolicy"},
		{"content security policy directive of a number", withField(publish, "contentSecurityPolicy", map[string]any{"script-src": 5}), "contentSecurityPolicy.script-src"},
	})
	pub.maxBody = IntegrationMaxBody
	install := map[string]any{"organization": "someorg"}
	space := map[string]any{"space": "somespace"}
	site := map[string]any{"siteId": "somesite"}
	dev := map[string]any{"tunnelUrl": "https://tunnel.example.com"}
	update := map[string]any{"externalIds": []string{"a"}, "space_selection": "all"}
	return map[string]bodyCase{
		"publishIntegration": pub,
		"installIntegration": c(install, map[string]map[string]any{"organization": withField(install, "organization", 1)},
			[]string{"organization"}, []invalidBody{{"empty organization", withField(install, "organization", ""), "organization"}}),
		"installIntegrationOnSpace": c(space, map[string]map[string]any{"space": withField(space, "space", 1)},
			[]string{"space"}, []invalidBody{{"empty space", withField(space, "space", ""), "space"}}),
		"installIntegrationOnSite": c(site, map[string]map[string]any{"siteId": withField(site, "siteId", []string{})},
			[]string{"siteId"}, []invalidBody{{"empty site", withField(site, "siteId", ""), "siteId"}}),
		"setIntegrationDevelopmentMode": c(dev, map[string]map[string]any{"tunnelUrl": withField(dev, "tunnelUrl", 1), "all": withField(dev, "all", "yes")},
			[]string{"tunnelUrl"}, []invalidBody{
				{"empty tunnel", withField(dev, "tunnelUrl", ""), "tunnelUrl"},
				{"tunnel over 256", withField(dev, "tunnelUrl", "https://x.test/"+strings.Repeat("a", 250)), "tunnelUrl"},
				{"tunnel not http", withField(dev, "tunnelUrl", "ftp://x.test"), "tunnelUrl"}}),
		"updateIntegrationInstallation": c(update, map[string]map[string]any{
			"space_selection": withField(update, "space_selection", true), "site_selection": withField(update, "site_selection", 1),
			"externalIds": withField(update, "externalIds", "a"), "configuration": withField(update, "configuration", "a")},
			nil, append([]invalidBody{{"unknown selection", withField(update, "space_selection", "some"), "space_selection"}},
				settingsInvalid...)),
		"updateIntegrationSpaceInstallation": c(settings, settingsWrong, nil, settingsInvalid),
		"updateIntegrationSiteInstallation":  c(settings, settingsWrong, nil, settingsInvalid),
	}
}

func TestIntegrationMalformedPaths(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		for _, path := range []string{"/v1/integrations/bad%20name", "/v1/integrations/" + strings.Repeat("a", 101),
			"/v1/integrations/a$b/installations", "/v1/integrations/x/installations/" + strings.Repeat("a", 65),
			"/v1/integrations/x/events/" + strings.Repeat("e", 65)} {
			msg := ts.mustError(t, http.StatusBadRequest, "GET", path, admin, nil)
			if !strings.Contains(msg, "integrationName") && !strings.Contains(msg, "installationId") && !strings.Contains(msg, "eventId") {
				t.Errorf("%s: %s", path, msg)
			}
		}
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/integrations/nosuch", admin, nil)
		ts.mustError(t, http.StatusNotFound, "POST", "/v1/integrations/nosuch/installations", admin, map[string]any{"organization": ts.Org})
		ps := ts.integrationParams(t)
		base := "/v1/integrations/" + ps["integrationName"]
		ts.mustError(t, http.StatusNotFound, "GET", base+"/installations/nosuch", admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", base+"/events/nosuch", admin, nil)
		ts.mustError(t, http.StatusNotFound, "POST", base+"/installations/"+ps["installationId"]+"/sites", admin, map[string]any{"siteId": "nosuch"})
		ts.mustError(t, http.StatusConflict, "POST", base+"/installations", admin, map[string]any{"organization": ts.Org})
		ts.mustError(t, http.StatusBadRequest, "GET", "/v1/integrations?blocks=maybe", admin, nil)
		ts.mustError(t, http.StatusBadRequest, "GET", "/v1/integrations?page=garbage", admin, nil)
	})
}
