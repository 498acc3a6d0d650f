package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

func TestIntegrationPublish(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		withBlocks := map[string]any{"categories": []string{"content"},
			"blocks": []map[string]any{{"id": "card", "title": "Card", "urlUnfurl": []string{"https://cards.example.com/x"}}}}
		in := ts.publish(t, "acme-sync", withBlocks)
		wantFields(t, in, map[string]any{"object": "integration", "name": "acme-sync", "version": float64(1),
			"title": "Acme Sync", "visibility": "public", "target": "all", "permissions": map[string]any{"admin": true}})
		if str(in, "owner.id") != ts.Org {
			t.Errorf("owner %v, want the organization", in["owner"])
		}
		withBlocks["title"] = "Acme Sync 2"
		again := ts.publish(t, "acme-sync", withBlocks)
		wantFields(t, again, map[string]any{"version": float64(2), "title": "Acme Sync 2"})
		got := ts.must(t, http.StatusOK, "GET", "/v1/integrations/acme-sync", ts.token(cNonMember), nil)
		wantFields(t, got, map[string]any{"version": float64(2), "permissions": map[string]any{"admin": false}})

		// Only admins of the organization publish; the organization is
		// named by id or hostname and must exist.
		ts.mustError(t, http.StatusForbidden, "POST", "/v1/integrations/acme-sync", ts.token(cCreate), ts.publishBody(nil))
		ts.mustError(t, http.StatusNotFound, "POST", "/v1/integrations/other", admin, ts.publishBody(map[string]any{"organization": "nope"}))
		ts.mustError(t, http.StatusNotFound, "POST", "/v1/integrations/other", ts.token(cNonMember), ts.publishBody(nil))
		ts.must(t, http.StatusOK, "PATCH", ts.OrgPath(""), admin, map[string]any{"hostname": "acme"})
		ts.must(t, http.StatusOK, "POST", "/v1/integrations/by-host", admin, ts.publishBody(map[string]any{"organization": "acme"}))

		// Private integrations are seen by their organization's members
		// alone.
		ts.publish(t, "secret-tool", map[string]any{"visibility": "private"})
		ts.must(t, http.StatusOK, "GET", "/v1/integrations/secret-tool", ts.token(cRead), nil)
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/integrations/secret-tool", ts.token(cNonMember), nil)
		names := func(token, query string) []string {
			l := ts.must(t, http.StatusOK, "GET", "/v1/integrations"+query, token, nil)
			var out []string
			for _, it := range l["items"].([]any) {
				out = append(out, str(it, "name"))
			}
			return out
		}
		if got := strings.Join(names(ts.token(cNonMember), ""), ","); got != "acme-sync,by-host" {
			t.Errorf("outsider lists %s", got)
		}
		if got := strings.Join(names(admin, ""), ","); got != "acme-sync,by-host,secret-tool" {
			t.Errorf("admin lists %s", got)
		}
		for q, want := range map[string]string{"?category=content": "acme-sync", "?blocks=true": "acme-sync",
			"?blockDomain=cards.example.com": "acme-sync", "?search=SECRET": "secret-tool", "?blocks=false&search=by": "by-host",
			"?scope=space:content:write": "", "?owner=" + ts.Org + "&target=space&search=acme-": "acme-sync", "?contentSources=true": ""} {
			if got := strings.Join(names(admin, q), ","); got != want {
				t.Errorf("%s lists %q, want %q", q, got, want)
			}
		}

		// Unpublishing: 205, then 204; others may not.
		ts.mustError(t, http.StatusForbidden, "DELETE", "/v1/integrations/acme-sync", ts.token(cEdit), nil)
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/integrations/acme-sync", admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", "/v1/integrations/acme-sync", admin, nil)
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/integrations/acme-sync", admin, nil)
	})
}

func TestIntegrationConfigurationSchemas(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		bad := ts.mustError(t, http.StatusBadRequest, "POST", "/v1/integrations/cfg", admin, ts.publishBody(map[string]any{
			"configurations": map[string]any{"account": map[string]any{"properties": map[string]any{"key": map[string]any{"type": "date"}}}}}))
		if !strings.Contains(bad, "configurations.account.properties.key.type") {
			t.Errorf("bad property type: %s", bad)
		}
		bad = ts.mustError(t, http.StatusBadRequest, "POST", "/v1/integrations/cfg", admin, ts.publishBody(map[string]any{
			"configurations": map[string]any{"space": map[string]any{"properties": map[string]any{"n": map[string]any{"type": "number", "default": "x"}},
				"required": []string{"missing"}}}}))
		if !strings.Contains(bad, "configurations.space.required") {
			t.Errorf("required names a missing property: %s", bad)
		}
		ts.publish(t, "cfg", map[string]any{"configurations": map[string]any{
			"account": map[string]any{"properties": map[string]any{
				"key":   map[string]any{"type": "string", "title": "Key"},
				"count": map[string]any{"type": "number"},
				"mode":  map[string]any{"type": "string", "enum": []string{"a", "b"}},
				"go":    map[string]any{"type": "button", "callback_url": "/go", "button_text": "Go"}},
				"required": []string{"key"}},
			"space": map[string]any{"properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}},
			"site":  map[string]any{"componentId": "site-config"}}})
		inst := ts.install(t, "cfg")
		path := "/v1/integrations/cfg/installations/" + inst
		got := ts.must(t, http.StatusOK, "GET", path, admin, nil)
		wantFields(t, got, map[string]any{"status": "pending", "space_selection": "selected", "site_selection": "selected",
			"target": map[string]any{"organization": ts.Org}})
		for _, c := range []struct {
			cfg   map[string]any
			field string
		}{{map[string]any{"count": 1}, "configuration"}, {map[string]any{"key": 3}, "configuration.key"},
			{map[string]any{"key": "k", "mode": "c"}, "configuration.mode"}, {map[string]any{"key": "k", "count": "1"}, "configuration.count"}} {
			msg := ts.mustError(t, http.StatusBadRequest, "PATCH", path, admin, map[string]any{"configuration": c.cfg})
			if !strings.Contains(msg, c.field) {
				t.Errorf("configuration %v: %s, want it to name %s", c.cfg, msg, c.field)
			}
		}
		got = ts.must(t, http.StatusOK, "PATCH", path, admin, map[string]any{"configuration": map[string]any{"key": "k", "count": 2, "go": true},
			"externalIds": []string{"ext-1"}, "space_selection": "all"})
		wantFields(t, got, map[string]any{"status": "active", "space_selection": "all", "externalIds": []any{"ext-1"}})
		ts.mustError(t, http.StatusBadRequest, "PATCH", path, admin, map[string]any{"externalIds": []string{"1", "2", "3", "4", "5", "6"}})
		l := ts.must(t, http.StatusOK, "GET", "/v1/integrations/cfg/installations?externalId=ext-1", admin, nil)
		if n := len(l["items"].([]any)); n != 1 {
			t.Errorf("%d installations with ext-1, want 1", n)
		}
		l = ts.must(t, http.StatusOK, "GET", "/v1/integrations/cfg/installations?externalId=ext", admin, nil)
		if n := len(l["items"].([]any)); n != 0 {
			t.Errorf("%d installations with ext, want 0", n)
		}

		// Space installations check the space configuration.
		space := ts.newSpace(t, "Configured")
		sp := ts.must(t, http.StatusCreated, "POST", path+"/spaces", admin, map[string]any{"space": space})
		wantFields(t, sp, map[string]any{"status": "pending", "space": space, "installation": inst, "integration": "cfg"})
		ts.mustError(t, http.StatusBadRequest, "PATCH", path+"/spaces/"+space, admin, map[string]any{"configuration": map[string]any{"path": 1}})
		sp = ts.must(t, http.StatusOK, "PATCH", path+"/spaces/"+space+"?extended=true", admin,
			map[string]any{"configuration": map[string]any{"path": "docs/"}, "externalIds": []string{"repo-1"}})
		wantFields(t, sp, map[string]any{"status": "active"})
		if str(sp, "space.object") != "space" || str(sp, "space.id") != space {
			t.Errorf("extended space installation: %v", sp["space"])
		}
		l = ts.must(t, http.StatusOK, "GET", "/v1/integrations/cfg/spaces?externalId=repo-1&extended=true", admin, nil)
		if items := l["items"].([]any); len(items) != 1 || str(items[0], "space.id") != space {
			t.Errorf("space installations: %v", l)
		}
		ts.mustError(t, http.StatusNotFound, "POST", path+"/spaces", admin, map[string]any{"space": "nope"})
		ts.mustError(t, http.StatusForbidden, "GET", "/v1/integrations/cfg/spaces", ts.token(cEdit), nil)
		ts.must(t, http.StatusResetContent, "DELETE", path+"/spaces/"+space, admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", path+"/spaces/"+space, admin, nil)
		ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", path, admin, nil)
	})
}

func TestIntegrationSiteInstallations(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		site := str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/sites"), admin, map[string]any{"title": "Docs"}), "id")
		ts.publish(t, "spaces-only", map[string]any{"target": "space"})
		inst := ts.install(t, "spaces-only")
		ts.mustError(t, http.StatusBadRequest, "POST", "/v1/integrations/spaces-only/installations/"+inst+"/sites", admin, map[string]any{"siteId": site})
		ts.publish(t, "sites", map[string]any{"target": "site"})
		inst = ts.install(t, "sites")
		path := "/v1/integrations/sites/installations/" + inst + "/sites"
		got := ts.must(t, http.StatusCreated, "POST", path+"?extended=true", admin, map[string]any{"siteId": site})
		if str(got, "site.object") != "site" || str(got, "site.id") != site {
			t.Errorf("extended site installation: %v", got["site"])
		}
		ts.must(t, http.StatusOK, "GET", path+"/"+site, admin, nil)
		l := ts.must(t, http.StatusOK, "GET", "/v1/integrations/sites/sites", admin, nil)
		if items := l["items"].([]any); len(items) != 1 || str(items[0], "site") != site {
			t.Errorf("site installations: %v", l)
		}
		ts.waitEvent(t, "sites", "site_installation_setup")
		ts.must(t, http.StatusResetContent, "DELETE", path+"/"+site, admin, nil)
		ev := ts.waitEvent(t, "sites", "site_installation_deleted")
		if str(ev, "event.payload.siteId") != site {
			t.Errorf("site event: %v", ev)
		}
	})
}

func TestIntegrationInstallationTokens(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		covered, other := ts.newSpace(t, "Covered"), ts.newSpace(t, "Other")
		ts.publish(t, "reader", nil)
		inst := ts.install(t, "reader")
		path := "/v1/integrations/reader/installations/" + inst
		ts.must(t, http.StatusCreated, "POST", path+"/spaces", admin, map[string]any{"space": covered})
		tok := str(ts.must(t, http.StatusOK, "POST", path+"/tokens", admin, nil), "token")
		ts.mustError(t, http.StatusForbidden, "POST", path+"/tokens", ts.token(cEdit), nil)

		// A read-only token sees the covered space alone and writes
		// nothing.
		ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+covered, tok, nil)
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/spaces/"+other, tok, nil)
		ts.mustError(t, http.StatusForbidden, "POST", "/v1/spaces/"+covered+"/comments", tok,
			map[string]any{"body": map[string]any{"markdown": "Hi\n"}})
		ts.mustError(t, http.StatusForbidden, "GET", ts.OrgPath("/spaces"), tok, nil)
		ts.mustError(t, http.StatusForbidden, "POST", "/v1/integrations/other", tok, ts.publishBody(nil))
		l := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+covered+"/integrations", admin, nil)
		if items := l["items"].([]any); len(items) != 1 || str(items[0], "name") != "reader" {
			t.Errorf("space integrations: %v", l)
		}

		// With space:content:write it comments on covered spaces.
		ts.publish(t, "writer", map[string]any{"scopes": []string{"space:content:write"}})
		inst = ts.install(t, "writer")
		path = "/v1/integrations/writer/installations/" + inst
		ts.must(t, http.StatusOK, "PATCH", path, admin, map[string]any{"space_selection": "all"})
		wtok := str(ts.must(t, http.StatusOK, "POST", path+"/tokens", admin, nil), "token")
		c := ts.postComment(t, wtok, "/v1/spaces/"+other+"/comments", map[string]any{"markdown": "From the integration\n"})
		if str(c, "postedBy.displayName") != "Acme Sync" {
			t.Errorf("comment posted by %v, want the integration", c["postedBy"])
		}

		// Uninstalled, the token stops working; a forged one never did.
		ts.must(t, http.StatusResetContent, "DELETE", path, admin, nil)
		ts.mustError(t, http.StatusUnauthorized, "GET", "/v1/spaces/"+other, wtok, nil)
		// Still installed, the reader's token stops working when one of
		// its signature's characters changes, or when its last character
		// is spelled another way that differs only in unused bits.
		ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+covered, tok, nil)
		mid := len(tok) - 10
		ts.mustError(t, http.StatusUnauthorized, "GET", "/v1/spaces/"+covered, tok[:mid]+otherChar(tok[mid])+tok[mid+1:], nil)
		ts.mustError(t, http.StatusUnauthorized, "GET", "/v1/spaces/"+covered, respellLast(tok), nil)
		ts.mustError(t, http.StatusUnauthorized, "GET", "/v1/spaces/"+other, "qit_nope", nil)
	})
}

// base64URL is the alphabet of URL-safe base64.
const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// otherChar returns a base64 character other than c.
func otherChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// respellLast changes the last character of a token ending in the
// unpadded base64 of a 32-byte signature to one that differs only in the
// two bits that character does not use: a lax decoder reads both as the
// same signature.
func respellLast(tok string) string {
	i := strings.IndexByte(base64URL, tok[len(tok)-1])
	return tok[:len(tok)-1] + string(base64URL[i^1])
}

func TestIntegrationEvents(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Watched")
		// The script reads the space back with the installation token it
		// was handed.
		var (
			mu      sync.Mutex
			readBck int
		)
		ts.Runner.setRespond(func(d delivered) (quire.ScriptRun, error) {
			if d.Event["type"] == "space_content_updated" {
				tok := str(d.Environment, "apiTokens.installation")
				req, _ := http.NewRequest("GET", ts.URL+"/v1/spaces/"+space, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					return quire.ScriptRun{}, err
				}
				res.Body.Close()
				mu.Lock()
				readBck = res.StatusCode
				mu.Unlock()
			}
			return quire.ScriptRun{Response: &quire.ScriptResponse{Status: 200},
				Logs: []quire.ScriptLog{{Time: time.Now(), Level: quire.ScriptLogDebug, Message: "seen"}}}, nil
		})
		ts.publish(t, "watcher", map[string]any{"secrets": map[string]string{"API_KEY": "s3cret"}})
		inst := ts.install(t, "watcher")
		setup := ts.waitEvent(t, "watcher", "installation_setup")
		wantFields(t, setup, map[string]any{"trace": map[string]any{"logs": []any{map[string]any{"level": "debug", "message": "seen",
			"timestamp": str(setup, "trace.logs.0.timestamp")}}}})
		wantFields(t, setup["event"].(map[string]any), map[string]any{"status": "success", "installationId": inst})
		d := ts.Runner.waitDeliveries(t, "installation_setup", 1)[0]
		if d.URL != testBaseURL+"/v1" || str(d.Environment, "apiEndpoint") != testBaseURL ||
			str(d.Environment, "secrets.API_KEY") != "s3cret" || str(d.Environment, "installation.id") != inst ||
			str(d.Environment, "integration.name") != "watcher" || str(d.Environment, "apiTokens.integration") == "" ||
			str(d.Environment, "signingSecrets.integration") == "" {
			t.Errorf("delivery: %s %v", d.URL, d.Environment)
		}
		// The integration's token lists its installations.
		itok := str(d.Environment, "apiTokens.integration")
		l := ts.must(t, http.StatusOK, "GET", "/v1/integrations/watcher/installations", itok, nil)
		if len(l["items"].([]any)) != 1 {
			t.Errorf("installations for the integration's token: %v", l)
		}

		ts.must(t, http.StatusCreated, "POST", "/v1/integrations/watcher/installations/"+inst+"/spaces", admin, map[string]any{"space": space})
		ts.waitEvent(t, "watcher", "space_installation_setup")
		cr := str(ts.newChangeRequest(t, space, "Add"), "id")
		ts.writeContent(t, space, cr, insertPage("New", "Text."))
		ts.mergeCR(t, space, cr)
		ev := ts.waitEvent(t, "watcher", "space_content_updated")
		if str(ev, "event.payload.revisionId") != ts.spaceRevision(t, space) || str(ev, "event.payload.spaceId") != space {
			t.Errorf("content event: %v", ev["event"])
		}
		mu.Lock()
		if readBck != http.StatusOK {
			t.Errorf("the script read the space back with %d", readBck)
		}
		mu.Unlock()
		ts.must(t, http.StatusOK, "PATCH", "/v1/spaces/"+space, admin, map[string]any{"visibility": "public"})
		ev = ts.waitEvent(t, "watcher", "space_visibility_updated")
		wantFields(t, ev["event"].(map[string]any)["payload"].(map[string]any), map[string]any{"visibility": "public", "previousVisibility": "private"})

		// A failing script fails the event, not the request.
		ts.Runner.setRespond(func(d delivered) (quire.ScriptRun, error) {
			return quire.ScriptRun{Logs: []quire.ScriptLog{{Time: time.Now(), Level: quire.ScriptLogWarn, Message: "about to throw"}}},
				errors.New("ReferenceError: x is not defined")
		})
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/integrations/watcher/installations/"+inst+"/spaces/"+space, admin, nil)
		ev = ts.waitEvent(t, "watcher", "space_installation_deleted")
		wantFields(t, ev["event"].(map[string]any), map[string]any{"status": "failed"})
		logs := ev["trace"].(map[string]any)["logs"].([]any)
		if len(logs) != 2 || str(logs[0], "message") != "about to throw" || !strings.Contains(str(logs[1], "message"), "ReferenceError") {
			t.Errorf("failed event logs: %v", logs)
		}
		ts.Runner.setRespond(func(d delivered) (quire.ScriptRun, error) {
			return quire.ScriptRun{Response: &quire.ScriptResponse{Status: 404, Body: []byte("no route")}}, nil
		})
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/integrations/watcher/installations/"+inst, admin, nil)
		ev = ts.waitEvent(t, "watcher", "installation_deleted")
		if str(ev, "event.status") != "failed" || !strings.Contains(str(ev, "trace.logs.0.message"), "404: no route") {
			t.Errorf("script answering 404: %v", ev)
		}
		ts.mustError(t, http.StatusNotFound, "GET", "/v1/integrations/watcher/events/nope", admin, nil)
		ts.mustError(t, http.StatusForbidden, "GET", "/v1/integrations/watcher/events", ts.token(cRead), nil)
	})
}

func TestIntegrationDevelopmentMode(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		type hit struct {
			path, sig string
			body      []byte
		}
		hits := make(chan hit, 10)
		tunnel := serveLocal(t, func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			hits <- hit{r.URL.Path, r.Header.Get("X-Quire-Signature"), b}
			w.WriteHeader(http.StatusOK)
		})
		ts.publish(t, "dev", nil)
		ts.mustError(t, http.StatusBadRequest, "PUT", "/v1/integrations/dev/dev", admin, map[string]any{"tunnelUrl": "ftp://x"})
		ts.mustError(t, http.StatusForbidden, "PUT", "/v1/integrations/dev/dev", ts.token(cEdit), map[string]any{"tunnelUrl": tunnel})
		ts.mustError(t, http.StatusNotFound, "PUT", "/v1/integrations/nope/dev", admin, map[string]any{"tunnelUrl": tunnel})
		ts.must(t, http.StatusNoContent, "PUT", "/v1/integrations/dev/dev", admin, map[string]any{"tunnelUrl": tunnel})
		ts.install(t, "dev")
		var h hit
		select {
		case h = <-hits:
		case <-time.After(10 * time.Second):
			t.Fatal("the tunnel got nothing")
		}
		d, err := readDelivery("", "multipart/form-data; boundary="+boundaryOf(h.body), h.body)
		if err != nil {
			t.Fatalf("tunnel body: %v", err)
		}
		m := hmac.New(sha256.New, []byte(str(d.Environment, "signingSecrets.integration")))
		m.Write(h.body)
		if h.path != "/v1" || h.sig != "sha256="+hex.EncodeToString(m.Sum(nil)) || d.Event["type"] != "installation_setup" {
			t.Errorf("tunnel got %s %s %v", h.path, h.sig, d.Event)
		}
		ev := ts.waitEvent(t, "dev", "installation_setup")
		if str(ev, "event.status") != "success" || len(ts.Runner.deliveries("installation_setup")) != 0 {
			t.Errorf("development event: %v", ev)
		}
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/integrations/dev/dev", admin, nil)
	})
}

// boundaryOf returns the boundary a multipart body starts with.
func boundaryOf(body []byte) string {
	line, _, _ := strings.Cut(string(body), "\r\n")
	return strings.TrimPrefix(line, "--")
}

func TestIntegrationGitSyncEvents(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		space := ts.newSpace(t, "Synced")
		ts.publish(t, "gitwatch", nil)
		inst := ts.install(t, "gitwatch")
		ts.must(t, http.StatusCreated, "POST", "/v1/integrations/gitwatch/installations/"+inst+"/spaces", admin, map[string]any{"space": space})
		repo := bareRepo(t)
		ts.must(t, http.StatusNoContent, "POST", gitPath(space, "export"), admin,
			map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "Export"})
		info := ts.waitGit(t, space)
		started := ts.waitEvent(t, "gitwatch", "space_gitsync_started")
		if str(started, "event.payload.spaceId") != space || !has(started["event"].(map[string]any)["payload"], "commitId") {
			t.Errorf("started: %v", started["event"])
		}
		done := ts.waitEvent(t, "gitwatch", "space_gitsync_completed")
		wantFields(t, done["event"].(map[string]any)["payload"].(map[string]any), map[string]any{"state": "success",
			"commitId": str(info, "operation.commit"), "revisionId": ts.spaceRevision(t, space)})
	})
}

func TestIntegrationTokenSites(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		newSite := func(title string) string {
			return str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/sites"), admin, map[string]any{"title": title}), "id")
		}
		covered, other := newSite("Covered site"), newSite("Other site")
		token := func(name string, scopes []string) string {
			ts.publish(t, name, map[string]any{"scopes": scopes})
			path := "/v1/integrations/" + name + "/installations/" + ts.install(t, name)
			ts.must(t, http.StatusCreated, "POST", path+"/sites", admin, map[string]any{"siteId": covered})
			return str(ts.must(t, http.StatusOK, "POST", path+"/tokens", admin, nil), "token")
		}

		// With site:metadata:read the token reads the covered site and
		// its structure, and nothing else of sites.
		tok := token("site-reader", []string{"site:metadata:read"})
		ts.must(t, http.StatusOK, "GET", ts.OrgPath("/sites/"+covered), tok, nil)
		ts.must(t, http.StatusOK, "GET", ts.OrgPath("/sites/"+covered+"/structure"), tok, nil)
		ts.mustError(t, http.StatusNotFound, "GET", ts.OrgPath("/sites/"+other), tok, nil)
		ts.mustError(t, http.StatusForbidden, "PATCH", ts.OrgPath("/sites/"+covered), tok, map[string]any{"title": "Renamed"})
		ts.mustError(t, http.StatusForbidden, "GET", ts.OrgPath("/sites/"+covered+"/customization"), tok, nil)

		// Without it, the covered site is not there.
		tok = token("space-reader", []string{"space:content:read"})
		ts.mustError(t, http.StatusNotFound, "GET", ts.OrgPath("/sites/"+covered), tok, nil)
		ts.mustError(t, http.StatusNotFound, "GET", ts.OrgPath("/sites/"+covered+"/structure"), tok, nil)

		// Members keep reading sites as before.
		ts.must(t, http.StatusOK, "GET", ts.OrgPath("/sites/"+covered), ts.token(cEdit), nil)
	})
}
