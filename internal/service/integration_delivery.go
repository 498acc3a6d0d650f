package service

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"quire/internal/fetch"
	"quire/internal/quire"
)

// SignatureHeader carries, on an event sent to a development tunnel, the
// HMAC-SHA256 of the request body under the integration's signing
// secret, as "sha256=" and the lower-case hex digest.
const SignatureHeader = "X-Quire-Signature"

// errNoRuntime is the log of an event when no script runtime is
// configured.
const errNoRuntime = "no script runtime configured"

// maxLoggedAnswer bounds the part of a failed answer's body kept in the
// event's logs.
const maxLoggedAnswer = 1024

// RunJob delivers an event: to the integration's script through the
// runner, or in development mode to its tunnel. The outcome and the logs
// are recorded on the event; a failure worth trying again (the script
// threw or answered a server error, the tunnel erred) fails the job, for
// the queue to try again later. A script that cannot load or went past
// its CPU time or memory limit would do so again: it is not retried.
func (n *Integrations) RunJob(ctx context.Context, job IntegrationEventJob) error {
	ev, err := n.s.store.IntegrationEvent(ctx, job.Integration, job.Event)
	if quire.IsNotFound(err) {
		return nil // the integration is gone
	}
	if err != nil {
		return err
	}
	in, err := n.s.store.IntegrationByID(ctx, ev.IntegrationID)
	if quire.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	req, inst, err := n.request(ctx, in, ev)
	if err != nil {
		return err
	}
	var out delivery
	if in.DevTunnel != "" && (in.DevAll || inst == nil || inst.OrgID == in.OrgID) {
		out = n.toTunnel(ctx, in, req)
	} else {
		out = n.toScript(ctx, in, req)
	}
	ev.Status = quire.EventSuccess
	if out.failed {
		ev.Status = quire.EventFailed
	}
	ev.Logs, ev.Attempts, ev.UpdatedAt = out.logs, ev.Attempts+1, n.s.Now()
	if err := n.s.store.RecordIntegrationEvent(ctx, ev); err != nil && !quire.IsNotFound(err) {
		return err
	}
	if out.failed && out.retry {
		return fmt.Errorf("integration %s: event %s failed", in.Name, ev.ID)
	}
	return nil
}

// delivery is the outcome of one attempt: the logs, whether it failed
// and whether the failure is worth trying again.
type delivery struct {
	logs          []quire.ScriptLog
	failed, retry bool
}

// failed returns the outcome of a failed attempt: the logs so far and a
// line saying why.
func (n *Integrations) failed(logs []quire.ScriptLog, retry bool, format string, args ...any) delivery {
	line := quire.ScriptLog{Time: n.s.Now(), Level: quire.ScriptLogError, Message: "event delivery failed: " + fmt.Sprintf(format, args...)}
	return delivery{logs: append(logs, line), failed: true, retry: retry}
}

// toScript runs the integration's script on the request; the script's
// console is the attempt's logs.
func (n *Integrations) toScript(ctx context.Context, in *quire.Integration, req quire.ScriptRequest) delivery {
	if n.runner == nil {
		return n.failed(nil, false, errNoRuntime)
	}
	ctx, cancel := context.WithTimeout(ctx, n.opts.EventTimeout)
	defer cancel()
	run, err := n.runner.RunScript(ctx, in.Script, req)
	switch {
	case err != nil:
		return n.failed(run.Logs, !quire.IsLastingScriptError(err), "%v", err)
	case run.Response == nil:
		return n.failed(run.Logs, true, "the script gave no answer")
	case run.Response.Status >= 400:
		return n.failed(run.Logs, run.Response.Status >= 500, "the script answered %d: %s", run.Response.Status, snippet(run.Response.Body))
	}
	return delivery{logs: run.Logs}
}

// toTunnel posts the request to the development tunnel, signed.
func (n *Integrations) toTunnel(ctx context.Context, in *quire.Integration, req quire.ScriptRequest) delivery {
	ctx, cancel := context.WithTimeout(ctx, n.opts.EventTimeout)
	defer cancel()
	h := req.Header.Clone()
	h.Set(SignatureHeader, SignBody(in.SigningSecret, req.Body))
	res, err := n.fetch.Post(ctx, strings.TrimRight(in.DevTunnel, "/")+"/v1", h, req.Body)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Code >= 400 && fe.Code < 500 {
			return n.failed(nil, false, "the tunnel answered %d", fe.Code)
		}
		return n.failed(nil, true, "the tunnel failed: %v", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	_ = res.Body.Close()
	return delivery{logs: []quire.ScriptLog{{Time: n.s.Now(), Level: quire.ScriptLogInfo, Message: "delivered to the development tunnel"}}}
}

// SignBody returns the signature header value of a body under a signing
// secret: "sha256=" and the hex HMAC-SHA256.
func SignBody(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// snippet returns the start of a body for a log line.
func snippet(b []byte) string {
	if len(b) > maxLoggedAnswer {
		b = b[:maxLoggedAnswer]
	}
	return strings.ToValidUTF8(string(b), "?")
}

// request builds the request delivering an event, as a Workers-style
// dispatcher hands it to an integration: a POST of a multipart form with
// the event and the environment (the integration, the installation, the
// space or site installation, secrets, signing secrets, the API endpoint
// and fresh tokens). It returns the installation, nil when it is gone.
func (n *Integrations) request(ctx context.Context, in *quire.Integration, ev *quire.IntegrationEvent) (quire.ScriptRequest, *quire.IntegrationInstallation, error) {
	env := map[string]any{"apiEndpoint": n.opts.BaseURL, "integration": n.integrationEnv(in),
		"secrets": orEmpty(in.Manifest.Secrets), "signingSecrets": map[string]any{"integration": in.SigningSecret}}
	tokens := map[string]any{}
	tok, err := n.s.signIntegrationToken(ctx, in.ID, "", n.opts.TokenTTL)
	if err != nil {
		return quire.ScriptRequest{}, nil, err
	}
	tokens["integration"] = tok
	inst, err := n.s.store.Installation(ctx, in.ID, ev.InstallationID)
	if quire.IsNotFound(err) {
		inst, err = nil, nil
	}
	if err != nil {
		return quire.ScriptRequest{}, nil, err
	}
	if inst != nil {
		if tokens["installation"], err = n.s.signIntegrationToken(ctx, in.ID, inst.ID, n.opts.TokenTTL); err != nil {
			return quire.ScriptRequest{}, nil, err
		}
		env["installation"] = n.installationEnv(in, inst)
		for kind, id := range map[quire.InstallationTarget]string{quire.OnSpace: ev.Space, quire.OnSite: ev.Site} {
			if id == "" {
				continue
			}
			c, err := n.s.store.ContentInstallation(ctx, inst.ID, kind, id)
			if quire.IsNotFound(err) {
				continue
			}
			if err != nil {
				return quire.ScriptRequest{}, nil, err
			}
			env[string(kind)+"Installation"] = n.contentEnv(in, c)
		}
	}
	env["apiTokens"] = tokens
	envJSON, err := json.Marshal(env)
	if err != nil {
		return quire.ScriptRequest{}, nil, err
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("event", string(ev.Payload))
	_ = w.WriteField("environment", string(envJSON))
	_ = w.Close()
	h := http.Header{}
	h.Set("Content-Type", w.FormDataContentType())
	return quire.ScriptRequest{Method: http.MethodPost, URL: n.dispatchURL(), Header: h, Body: body.Bytes()}, inst, nil
}

// dispatchURL is the address a script sees its events sent to: the
// dispatcher's version at the root of the server's origin, as
// @gitbook/runtime checks it (the path must be exactly "/v1").
func (n *Integrations) dispatchURL() string {
	u, err := url.Parse(n.opts.BaseURL)
	if err != nil || u.Host == "" {
		return "http://localhost/v1"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/v1"}).String()
}

// orEmpty returns m, or an empty map for nil.
func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// PublicEndpoint is the URL an integration's script is reached at, the
// base of the requests it is handed.
func (n *Integrations) PublicEndpoint(in *quire.Integration) string {
	return n.opts.BaseURL + "/v1/integrations/" + in.Name + "/integration"
}

// integrationEnv is the integration as the environment shows it.
func (n *Integrations) integrationEnv(in *quire.Integration) map[string]any {
	m := in.Manifest
	return map[string]any{"object": "integration", "name": in.Name, "version": in.Version, "title": m.Title,
		"description": m.Description, "scopes": m.Scopes, "categories": m.Categories, "visibility": m.Visibility,
		"target": m.Target, "verified": false, "previewImages": []string{}, "externalLinks": []any{},
		"urls": map[string]any{"location": n.opts.BaseURL + "/v1/integrations/" + in.Name,
			"app": n.opts.BaseURL + "/app/integrations/" + in.Name, "assets": n.opts.BaseURL + "/v1/integrations/" + in.Name + "/assets",
			"publicEndpoint": n.PublicEndpoint(in)}}
}

// installationEnv is an installation as the environment shows it.
func (n *Integrations) installationEnv(in *quire.Integration, inst *quire.IntegrationInstallation) map[string]any {
	loc := n.opts.BaseURL + "/v1/integrations/" + in.Name + "/installations/" + inst.ID
	return map[string]any{"id": inst.ID, "status": inst.Status, "space_selection": inst.SpaceSelection,
		"site_selection": inst.SiteSelection, "configuration": inst.Configuration, "externalIds": inst.ExternalIDs,
		"target": map[string]any{"organization": inst.OrgID},
		"urls": map[string]any{"location": loc, "app": n.opts.BaseURL + "/app/o/" + inst.OrgID + "/integrations/" + in.Name,
			"publicEndpoint": n.PublicEndpoint(in) + "/installation"}}
}

// contentEnv is a space or site installation as the environment shows
// it.
func (n *Integrations) contentEnv(in *quire.Integration, c *quire.ContentInstallation) map[string]any {
	loc := n.opts.BaseURL + "/v1/integrations/" + in.Name + "/installations/" + c.InstallationID + "/" + string(c.Kind) + "s/" + c.TargetID
	return map[string]any{"integration": in.Name, "installation": c.InstallationID, "status": c.Status,
		"configuration": c.Configuration, "externalIds": c.ExternalIDs, string(c.Kind): c.TargetID,
		"urls": map[string]any{"location": loc, "publicEndpoint": n.PublicEndpoint(in) + "/" + string(c.Kind) + "Installation"}}
}
