package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
)

// delivered is one event request the fake runner was handed: the URL,
// the event and the environment of its multipart form.
type delivered struct {
	URL         string
	Event       map[string]any
	Environment map[string]any
}

// fakeRunner stands in for the script runtime: it reads the request as a
// script would, keeps it, and answers what the test says (by default 200
// and a log line naming the event).
type fakeRunner struct {
	mu   sync.Mutex
	got  []delivered
	base string
	// respond, when set, answers in place of the default.
	respond func(d delivered) (quire.ScriptRun, error)
}

// RunScript implements quire.ScriptRunner.
func (f *fakeRunner) RunScript(ctx context.Context, script string, req quire.ScriptRequest) (quire.ScriptRun, error) {
	d, err := readDelivery(req.URL, req.Header.Get("Content-Type"), req.Body)
	if err != nil {
		return quire.ScriptRun{}, err
	}
	f.mu.Lock()
	f.got = append(f.got, d)
	respond := f.respond
	f.mu.Unlock()
	if respond != nil {
		return respond(d)
	}
	return quire.ScriptRun{Response: &quire.ScriptResponse{Status: 200},
		Logs: []quire.ScriptLog{{Time: time.Now(), Level: quire.ScriptLogInfo, Message: "handled " + fmt.Sprint(d.Event["type"])}}}, nil
}

// setRespond replaces the answer.
func (f *fakeRunner) setRespond(fn func(d delivered) (quire.ScriptRun, error)) {
	f.mu.Lock()
	f.respond = fn
	f.mu.Unlock()
}

// deliveries returns the requests handed so far of an event type.
func (f *fakeRunner) deliveries(typ string) []delivered {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []delivered
	for _, d := range f.got {
		if d.Event["type"] == typ {
			out = append(out, d)
		}
	}
	return out
}

// readDelivery parses the multipart form of an event request.
func readDelivery(url, ctype string, body []byte) (delivered, error) {
	d := delivered{URL: url}
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil || mt != "multipart/form-data" {
		return d, fmt.Errorf("content type %q", ctype)
	}
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal([]byte(strings.Join(form.Value["event"], "")), &d.Event); err != nil {
		return d, fmt.Errorf("event: %w", err)
	}
	if err := json.Unmarshal([]byte(strings.Join(form.Value["environment"], "")), &d.Environment); err != nil {
		return d, fmt.Errorf("environment: %w", err)
	}
	return d, nil
}

// waitDeliveries waits until the runner got n requests of an event type.
func (f *fakeRunner) waitDeliveries(t *testing.T, typ string, n int) []delivered {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := f.deliveries(typ)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %s deliveries, want %d", len(got), typ, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// publishBody is a valid publication of an integration by the test
// organization, with changes.
func (ts *testServer) publishBody(changes map[string]any) map[string]any {
	b := map[string]any{"organization": ts.Org, "title": "Acme Sync", "description": "Keeps things in sync",
		"script": "export default { fetch() { return new Response('ok') } }", "scopes": []string{"space:content:read"},
		"visibility": "public", "runtime": "v2"}
	for k, v := range changes {
		if v == nil {
			delete(b, k)
			continue
		}
		b[k] = v
	}
	return b
}

// publish publishes an integration as the admin.
func (ts *testServer) publish(t *testing.T, name string, changes map[string]any) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "POST", "/v1/integrations/"+name, ts.token(cAdmin), ts.publishBody(changes))
}

// install installs an integration in the test organization as the admin
// and returns the installation id.
func (ts *testServer) install(t *testing.T, name string) string {
	t.Helper()
	return str(ts.must(t, http.StatusCreated, "POST", "/v1/integrations/"+name+"/installations", ts.token(cAdmin),
		map[string]any{"organization": ts.Org}), "id")
}

// waitEvent waits until an integration's event of a type is delivered
// and returns it with its trace.
func (ts *testServer) waitEvent(t *testing.T, name, typ string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := ts.must(t, http.StatusOK, "GET", "/v1/integrations/"+name+"/events", ts.token(cAdmin), nil)
		for _, it := range l["items"].([]any) {
			ev := it.(map[string]any)
			if ev["payload"].(map[string]any)["type"] == typ {
				return ts.must(t, http.StatusOK, "GET", "/v1/integrations/"+name+"/events/"+str(ev, "id"), ts.token(cAdmin), nil)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s event of %s delivered", typ, name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// integrationParams publishes and installs an integration and returns
// the path parameters naming it, its installation and its first event.
func (ts *testServer) integrationParams(t *testing.T) map[string]string {
	t.Helper()
	name := "shared-" + strings.ToLower(quire.NewID())
	ts.publish(t, name, nil)
	inst := ts.install(t, name)
	ev := ts.waitEvent(t, name, "installation_setup")
	return map[string]string{"integrationName": name, "installationId": inst, "eventId": str(ev, "event.id")}
}
