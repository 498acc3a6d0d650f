package app_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// wantPage checks a page's status and that its body holds each text.
func wantPage(t *testing.T, what string, status, want int, body string, texts ...string) {
	t.Helper()
	if status != want {
		t.Fatalf("%s: %d, want %d\n%s", what, status, want, problemText(body))
	}
	for _, s := range texts {
		if !strings.Contains(body, s) {
			t.Errorf("%s: no %q\n%s", what, s, problemText(body))
		}
	}
}

// TestIntegrationsManage has an admin install an integration from the
// organization's list, configure it from its schema (refused, naming the
// field, with a required value missing, a choice out of the list or a
// number that is none, and nothing stored), choose the spaces it covers
// and configure it on one, read its events, newest first a page at a
// time, and uninstall it after confirming; members below admin are
// refused every page and form.
func TestIntegrationsManage(t *testing.T) {
	t.Parallel()
	var ints integrationsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		svc := ints.of(h)
		name := publishConfiguredIntegration(t, h)
		handbook, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
		if err != nil {
			t.Fatal(err)
		}
		runbooks, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Runbooks"})
		if err != nil {
			t.Fatal(err)
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		org := "/app/o/" + h.Org
		base := org + "/integrations/" + name

		// The list: the integration, not installed, found by search; the
		// navigation's current Integrations link.
		status, _, body := h.get(t, admin, org+"/integrations")
		wantPage(t, "list", status, http.StatusOK, body, "<h1>Integrations</h1>", `href="`+base+`">Release Notes</a>`,
			"Writes release notes as your spaces change.", "Not installed", `/integrations/`+name+`/images/`,
			`href="`+org+`/integrations" aria-current="page">Integrations</a>`)
		_, _, body = h.get(t, admin, org+"/integrations?q=NOTES")
		wantPage(t, "search", http.StatusOK, http.StatusOK, body, "Release Notes")
		_, _, body = h.get(t, admin, org+"/integrations?q=nothing+like+it")
		wantPage(t, "search without match", http.StatusOK, http.StatusOK, body, "No integration matches.")
		_, _, body = h.get(t, admin, org+"/integrations?installed=1")
		wantPage(t, "installed only", http.StatusOK, http.StatusOK, body, "No integration matches.")
		status, _, body = h.get(t, admin, org+"/integrations?q="+strings.Repeat("x", 101))
		wantPage(t, "long search", status, http.StatusBadRequest, body, "search: must be at most 100 characters")
		status, _, body = h.get(t, admin, org+"/integrations?page=bogus")
		wantPage(t, "bad page", status, http.StatusBadRequest, body, "invalid cursor")
		status, _, body = h.get(t, admin, base)
		wantPage(t, "not installed", status, http.StatusOK, body, "It is not installed in Acme Docs", "Install Release Notes")

		// A private integration of another organization of the admin's
		// is not offered: it installs in its own organization alone.
		beta := &quire.Organization{ID: quire.NewID(), Title: "Beta Labs", CreatedAt: time.Now()}
		if err := h.Store.CreateOrganization(ctx, beta); err != nil {
			t.Fatal(err)
		}
		if err := h.Store.AddMember(ctx, &quire.Member{OrgID: beta.ID, User: *h.Admin, Role: quire.RoleAdmin, JoinedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Publish(ctx, h.Admin, "beta-tool", service.PublishInput{Organization: beta.ID, Script: "export default {};",
			Manifest: quire.IntegrationManifest{Title: "Beta Tool", Description: "Beta’s own.", Visibility: quire.IntegrationPrivate}}); err != nil {
			t.Fatal(err)
		}
		_, _, body = h.get(t, admin, org+"/integrations")
		if strings.Contains(body, "Beta Tool") {
			t.Error("the list offers another organization's private integration")
		}
		_, _, body = h.get(t, admin, "/app/o/"+beta.ID+"/integrations")
		wantPage(t, "list of its own organization", http.StatusOK, http.StatusOK, body, "Beta Tool", "Private")

		// Members below admin: refused, the navigation without the link.
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		creator := h.client(t, h.signIn(t, h.newUser(t, "carl@acme.test", "Carl Create", quire.RoleCreate)))
		for _, c := range []*http.Client{reader, creator} {
			for _, p := range []string{org + "/integrations", base, base + "/configuration", base + "/coverage", base + "/events", base + "/uninstall"} {
				if status, _, _ := h.get(t, c, p); status != http.StatusForbidden {
					t.Errorf("non-admin GET %s: %d, want 403", p, status)
				}
			}
			status, _, _ = h.postForm(t, c, base+"/install", url.Values{})
			if status != http.StatusForbidden {
				t.Errorf("non-admin install: %d, want 403", status)
			}
		}
		if _, _, body := h.get(t, reader, org); strings.Contains(body, org+"/integrations") {
			t.Error("a reader's navigation links to the integrations")
		}
		if facts := integrationFacts(t, h, name); facts != "integration "+name+" not installed" {
			t.Fatalf("refused installs installed it: %s", facts)
		}

		// Installing leads to the configuration, pending until filled:
		// the fields drawn from the schema, defaults prefilled, required
		// ones marked, the action the form cannot draw as JSON.
		status, loc, body := h.postForm(t, admin, base+"/install", url.Values{})
		if status != http.StatusSeeOther || loc != base+"/configuration?done=installed" {
			t.Fatalf("install: %d to %q\n%s", status, loc, problemText(body))
		}
		status, _, body = h.get(t, admin, loc)
		wantPage(t, "configuration", status, http.StatusOK, body, "The integration was installed.",
			"<h1>Configure Release Notes</h1>", "Pending: its configuration misses what the integration requires",
			`<label for="config-0">API key (required)</label>`, `name="config.apiKey" value="" required`,
			"The key the notes are posted with.", `<option value="chat" selected>chat</option>`, `<option value="email">email</option>`,
			`name="config.notifyOnMerge" value="true" checked`, `name="config.batchSize" value="10" inputmode="decimal"`,
			`<textarea id="config-4" name="config.testNote"`, "Type its value as JSON")
		if strings.Contains(body, ">Not set</option>") || strings.Contains(body, ">Choose one</option>") {
			t.Error("a required choice with a default offers to leave it out")
		}

		// Refused configurations name the field and store nothing.
		good := url.Values{"config.apiKey": {"k-123"}, "config.channel": {"email"}, "config.notifyOnMerge": {"false"},
			"config.batchSize": {"25"}, "config.testNote": {""}}
		with := func(k, v string) url.Values {
			f := url.Values{}
			for key, vs := range good {
				f[key] = vs
			}
			f.Set(k, v)
			return f
		}
		for _, c := range []struct {
			form url.Values
			says string
		}{
			{with("config.apiKey", "  "), "API key is required."},
			{with("config.channel", "carrier-pigeon"), "Channel: value must be one of &#39;email&#39;, &#39;chat&#39;."},
			{with("config.batchSize", "ten"), "Batch size: must be a number."},
			{with("config.testNote", "{not json"), "Test note: must be valid JSON."},
		} {
			status, _, body := h.postForm(t, admin, base+"/configuration", c.form)
			wantPage(t, "refused configuration", status, http.StatusUnprocessableEntity, body, c.says, `aria-invalid="true"`)
		}
		_, _, body = h.postForm(t, admin, base+"/configuration", with("config.channel", "carrier-pigeon"))
		if !strings.Contains(body, `value="k-123"`) {
			t.Error("a refused configuration is not drawn again as typed")
		}
		if facts := integrationFacts(t, h, name); !strings.Contains(facts, "status=pending") || !strings.Contains(facts, "configuration={}") {
			t.Fatalf("refused configurations were stored: %s", facts)
		}

		// A good one is stored, converted to the schema's types.
		status, loc, body = h.postForm(t, admin, base+"/configuration", good)
		if status != http.StatusSeeOther || loc != base+"?done=configured" {
			t.Fatalf("configure: %d to %q\n%s", status, loc, problemText(body))
		}
		if facts := integrationFacts(t, h, name); !strings.Contains(facts, `status=active`) ||
			!strings.Contains(facts, `configuration={"apiKey":"k-123","batchSize":25,"channel":"email","notifyOnMerge":false}`) {
			t.Fatalf("configuration stored: %s", facts)
		}
		_, _, body = h.get(t, admin, base+"/configuration")
		wantPage(t, "configured", http.StatusOK, http.StatusOK, body, `value="k-123"`, `<option value="email" selected>`, `name="config.batchSize" value="25"`)
		if strings.Contains(body, `name="config.notifyOnMerge" value="true" checked`) {
			t.Error("a box unchecked and saved is drawn checked")
		}

		// The spaces it covers: one chosen, then another instead; a space
		// not of the organization refused.
		status, _, body = h.get(t, admin, base+"/coverage")
		wantPage(t, "coverage", status, http.StatusOK, body, "Spaces and sites of Release Notes", `value="`+handbook.Space.ID+`"`, "The organization has no site yet.")
		cover := func(form url.Values) (int, string, string) { return h.postForm(t, admin, base+"/coverage", form) }
		status, _, body = cover(url.Values{"spaces": {"selected"}, "space": {handbook.Space.ID, "nosuchspace"}, "sites": {"selected"}})
		wantPage(t, "unknown space", status, http.StatusUnprocessableEntity, body, "Spaces checked names no space of the organization.")
		status, _, body = cover(url.Values{"spaces": {"some"}, "sites": {"selected"}})
		wantPage(t, "bad choice", status, http.StatusUnprocessableEntity, body, "Spaces choose every space or the spaces checked.")
		if facts := integrationFacts(t, h, name); strings.Contains(facts, " on ") {
			t.Fatalf("refused coverage changed it: %s", facts)
		}
		status, loc, _ = cover(url.Values{"spaces": {"selected"}, "space": {handbook.Space.ID}, "sites": {"selected"}})
		if status != http.StatusSeeOther || loc != base+"?done=covered" {
			t.Fatalf("cover: %d to %q", status, loc)
		}
		_, _, body = h.get(t, admin, loc)
		spaceConfig := base + "/spaces/" + handbook.Space.ID
		wantPage(t, "covered", http.StatusOK, http.StatusOK, body, "The spaces and sites it covers were saved.",
			`<a href="/app/s/`+handbook.Space.ID+`">Handbook</a> · <a href="`+spaceConfig+`">Configure on this space</a>`, "Status</dt><dd>Active")
		if covered := regexp.MustCompile(`(?s)aria-labelledby="installed-spaces">(.*?)</ul>`).FindStringSubmatch(body); covered == nil ||
			strings.Contains(covered[1], "Runbooks") {
			t.Errorf("the covered spaces are not Handbook alone: %v", covered)
		}

		// Its configuration on the space: a required folder.
		status, _, body = h.get(t, admin, spaceConfig)
		wantPage(t, "space configuration", status, http.StatusOK, body, "Configure Release Notes on Handbook", "The space “Handbook”",
			"Folder (required)", "Where in the space the notes are written.")
		status, _, body = h.postForm(t, admin, spaceConfig, url.Values{"config.path": {""}})
		wantPage(t, "space configuration refused", status, http.StatusUnprocessableEntity, body, "Folder is required.")
		status, _, _ = h.postForm(t, admin, spaceConfig, url.Values{"config.path": {"notes/"}})
		if status != http.StatusSeeOther {
			t.Fatalf("space configuration: %d", status)
		}
		if facts := integrationFacts(t, h, name); !strings.Contains(facts, "on space:"+handbook.Space.ID+` status=active configuration={"path":"notes/"}`) {
			t.Fatalf("space configuration stored: %s", facts)
		}
		if status, _, _ := h.get(t, admin, base+"/spaces/"+runbooks.Space.ID); status != http.StatusNotFound {
			t.Errorf("configuration of a space not covered: %d, want 404", status)
		}
		cover(url.Values{"spaces": {"selected"}, "space": {runbooks.Space.ID}, "sites": {"selected"}})
		if facts := integrationFacts(t, h, name); strings.Contains(facts, handbook.Space.ID) || !strings.Contains(facts, "on space:"+runbooks.Space.ID) {
			t.Fatalf("coverage moved to Runbooks: %s", facts)
		}
		cover(url.Values{"spaces": {"all"}, "sites": {"all"}})
		_, _, body = h.get(t, admin, base)
		wantPage(t, "every space", http.StatusOK, http.StatusOK, body, "Every space of the organization.", "Every site of the organization.")

		// Events: delivered ones listed newest first, 20 a page; each
		// with its request and its log.
		for i := 0; i < 20; i++ {
			if _, _, err := svc.UpdateInstallation(ctx, h.Admin, name, installationID(t, svc, h, name), service.InstallationUpdate{
				Configuration: map[string]any{"apiKey": "k-123", "channel": "chat"}}); err != nil {
				t.Fatal(err)
			}
		}
		waitEvents(t, svc, h, name, 26)
		status, _, body = h.get(t, admin, base+"/events")
		wantPage(t, "events", status, http.StatusOK, body, "<h1>Events of Release Notes</h1>", "Succeeded", "This installation", "Older events")
		if n := strings.Count(body, "<tr>") - 1; n != 20 {
			t.Errorf("first page of events: %d rows, want 20", n)
		}
		older := regexp.MustCompile(`href="([^"]+)" rel="next">Older events`).FindStringSubmatch(body)
		if older == nil {
			t.Fatal("no link to older events")
		}
		status, _, body = h.get(t, admin, strings.ReplaceAll(older[1], "&amp;", "&"))
		wantPage(t, "older events", status, http.StatusOK, body, "Newest events", "space_installation_setup", "The space “Handbook”")
		types := regexp.MustCompile(`<code>([a-z_]+)</code>`).FindAllStringSubmatch(body, -1)
		if len(types) == 0 || types[len(types)-1][1] != "installation_setup" {
			t.Errorf("the oldest event is not the setup of the installation: %v", types)
		}
		first := regexp.MustCompile(`href="(`+regexp.QuoteMeta(base)+`/events/[^"]+)"`).FindAllStringSubmatch(body, -1)
		status, _, body = h.get(t, admin, first[len(first)-1][1])
		wantPage(t, "event", status, http.StatusOK, body, "<h1>Event <code>installation_setup</code></h1>", "Request",
			"&#34;type&#34;: &#34;installation_setup&#34;", "&#34;status&#34;: &#34;pending&#34;", "handled installation_setup", "Succeeded")
		if status, _, _ := h.get(t, admin, base+"/events/nosuchevent"); status != http.StatusNotFound {
			t.Errorf("unknown event: %d, want 404", status)
		}

		// Uninstalling asks first, then removes it with its space
		// installations.
		status, _, body = h.get(t, admin, base+"/uninstall")
		wantPage(t, "uninstall", status, http.StatusOK, body, "<h1>Uninstall Release Notes?</h1>")
		status, _, body = h.postForm(t, admin, base+"/uninstall", url.Values{})
		wantPage(t, "uninstall unconfirmed", status, http.StatusOK, body, "<h1>Uninstall Release Notes?</h1>")
		if facts := integrationFacts(t, h, name); strings.Contains(facts, "not installed") {
			t.Fatal("an unconfirmed uninstall uninstalled")
		}
		status, loc, _ = h.postForm(t, admin, base+"/uninstall", url.Values{"confirm": {"yes"}})
		if status != http.StatusSeeOther || loc != org+"/integrations?done=uninstalled" {
			t.Fatalf("uninstall: %d to %q", status, loc)
		}
		_, _, body = h.get(t, admin, loc)
		wantPage(t, "after uninstall", http.StatusOK, http.StatusOK, body, "The integration was uninstalled.", "Not installed")
		if facts := integrationFacts(t, h, name); facts != "integration "+name+" not installed" {
			t.Fatalf("still installed: %s", facts)
		}
		for _, p := range []string{base + "/configuration", base + "/coverage", base + "/events", base + "/uninstall"} {
			if status, _, _ := h.get(t, admin, p); status != http.StatusNotFound {
				t.Errorf("GET %s once uninstalled: %d, want 404", p, status)
			}
		}
	}, ints.option())
}

// installationID returns the id of an integration's installation in the
// harness's organization.
func installationID(t *testing.T, ints *service.Integrations, h *harness, name string) string {
	t.Helper()
	ii, err := ints.InstallationIn(context.Background(), h.Admin, name, h.Org)
	if err != nil {
		t.Fatal(err)
	}
	return ii.Installation.ID
}

// waitEvents waits until n events of an integration were delivered.
func waitEvents(t *testing.T, ints *service.Integrations, h *harness, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		l, err := ints.Events(context.Background(), h.Admin, name, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events of %s delivered, want %d", len(l.Items), name, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
