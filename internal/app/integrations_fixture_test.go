package app_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime"
	"mime/multipart"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
)

// configuredIntegration is the name of the integration
// publishConfiguredIntegration publishes.
const configuredIntegration = "release-notes"

// integrationsOf keeps the integrations service of each harness, whose
// engines run in parallel.
type integrationsOf struct {
	mu sync.Mutex
	m  map[*harness]*service.Integrations
}

// option gives the API and the app of a harness the integrations and
// sites services, as the server does, with the events delivered by the
// job queue to a script runner that logs each event's type.
func (o *integrationsOf) option() harnessOption {
	return func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		ints := service.NewIntegrations(h.Svc, nil, typeLogger{}, service.IntegrationOptions{BaseURL: h.URL})
		jobs.Register(h.Queue, ints.RunJob)
		cfg.Integrations, acfg.Integrations, acfg.Sites = ints, ints, cfg.SiteService
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.m == nil {
			o.m = map[*harness]*service.Integrations{}
		}
		o.m[h] = ints
	}
}

// of returns the integrations service of a harness.
func (o *integrationsOf) of(h *harness) *service.Integrations {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[h]
}

// typeLogger stands in for the script runtime: it reads the event of
// the request as a script would, and answers 200 having logged its type.
type typeLogger struct{}

// RunScript implements quire.ScriptRunner.
func (typeLogger) RunScript(_ context.Context, _ string, req quire.ScriptRequest) (quire.ScriptRun, error) {
	_, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if err != nil {
		return quire.ScriptRun{}, err
	}
	form, err := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		return quire.ScriptRun{}, err
	}
	var ev struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(strings.Join(form.Value["event"], "")), &ev); err != nil {
		return quire.ScriptRun{}, err
	}
	return quire.ScriptRun{Response: &quire.ScriptResponse{Status: 200},
		Logs: []quire.ScriptLog{{Time: time.Now(), Level: quire.ScriptLogInfo, Message: "handled " + ev.Type}}}, nil
}

// publishConfiguredIntegration publishes, as the harness's admin for its
// organization, a public integration with configurations of each kind:
// the installation's has a required string (API key), a required enum
// with a default (Channel), a boolean with a default (Notify on merge),
// a number with a default (Batch size) and an action the form can only
// show as JSON (Test note); a space's a required string (Folder); a
// site's is drawn by the integration's own component. It returns the
// integration's name.
func publishConfiguredIntegration(t *testing.T, h *harness) string {
	t.Helper()
	ints := service.NewIntegrations(h.Svc, nil, nil, service.IntegrationOptions{BaseURL: h.URL})
	account := `{"properties": {
		"apiKey": {"type": "string", "title": "API key", "description": "The key the notes are posted with."},
		"channel": {"type": "string", "title": "Channel", "enum": ["email", "chat"], "default": "chat", "description": "Where the notes go."},
		"notifyOnMerge": {"type": "boolean", "title": "Notify on merge", "default": true},
		"batchSize": {"type": "number", "title": "Batch size", "default": 10, "description": "How many changes one note gathers."},
		"testNote": {"type": "button", "title": "Test note", "button_text": "Send a test note", "callback_url": "/test"}},
		"required": ["apiKey", "channel"]}`
	space := `{"properties": {"path": {"type": "string", "title": "Folder", "description": "Where in the space the notes are written."}}, "required": ["path"]}`
	_, err := ints.Publish(context.Background(), h.Admin, configuredIntegration, service.PublishInput{Organization: h.Org,
		Script: "export default { fetch() { return new Response('ok') } }", Icon: testIcon(t),
		Manifest: quire.IntegrationManifest{Title: "Release Notes", Summary: "Writes release notes as your spaces change.",
			Description: "Gathers the changes merged into a space and posts a note by email or chat.",
			Visibility:  quire.IntegrationPublic, Target: "all", Scopes: []string{quire.ScopeSpaceContentRead},
			Configurations: quire.IntegrationConfigs{Account: json.RawMessage(account), Space: json.RawMessage(space),
				Site: json.RawMessage(`{"componentId": "site-settings"}`)}}})
	if err != nil {
		t.Fatalf("publish %s: %v", configuredIntegration, err)
	}
	return configuredIntegration
}

// testIcon is a small PNG icon, base64 as published.
func testIcon(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			c := color.RGBA{R: 0x2f, G: 0x6f, B: 0xde, A: 0xff}
			if x > 8 && x < 24 && y > 8 && y < 24 {
				c = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// integrationFacts describes an integration's installation in the
// harness's organization: its status, configuration and selections,
// and the spaces and sites it was installed on with theirs.
func integrationFacts(t *testing.T, h *harness, name string) string {
	t.Helper()
	ctx := context.Background()
	ints := service.NewIntegrations(h.Svc, nil, nil, service.IntegrationOptions{BaseURL: h.URL})
	ii, err := ints.InstallationIn(ctx, h.Admin, name, h.Org)
	if quire.IsNotFound(err) {
		return "integration " + name + " not installed"
	}
	if err != nil {
		t.Fatal(err)
	}
	inst := ii.Installation
	cfg, _ := json.Marshal(inst.Configuration)
	out := []string{fmt.Sprintf("integration %s status=%s spaces=%s sites=%s configuration=%s", name, inst.Status,
		inst.SpaceSelection, inst.SiteSelection, cfg)}
	var targets []string
	for _, sp := range ii.Spaces {
		targets = append(targets, string(quire.OnSpace)+":"+sp.ID)
	}
	for _, s := range ii.Sites {
		targets = append(targets, string(quire.OnSite)+":"+s.ID)
	}
	sort.Strings(targets)
	for _, tg := range targets {
		kind, id, _ := strings.Cut(tg, ":")
		_, c, err := ints.ContentInstallation(ctx, h.Admin, name, inst.ID, quire.InstallationTarget(kind), id)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := json.Marshal(c.Configuration)
		out = append(out, fmt.Sprintf("  on %s status=%s configuration=%s", tg, c.Status, cfg))
	}
	return strings.Join(out, "\n")
}

// installConfiguredIntegration publishes the integration of
// publishConfiguredIntegration and installs it, as the harness's admin,
// in the organization, on the space and on the site; it returns the
// integration's name.
func installConfiguredIntegration(t *testing.T, h *harness, spaceID, siteID string) string {
	t.Helper()
	ctx := context.Background()
	name := publishConfiguredIntegration(t, h)
	ints := service.NewIntegrations(h.Svc, nil, nil, service.IntegrationOptions{BaseURL: h.URL})
	_, inst, err := ints.Install(ctx, h.Admin, name, h.Org)
	if err != nil {
		t.Fatal(err)
	}
	for kind, id := range map[quire.InstallationTarget]string{quire.OnSpace: spaceID, quire.OnSite: siteID} {
		if _, _, err := ints.InstallOn(ctx, h.Admin, name, inst.ID, kind, id); err != nil {
			t.Fatal(err)
		}
	}
	return name
}
