package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/blob"
	"quire/internal/content"
	"quire/internal/fetch"
	"quire/internal/gitremote"
	"quire/internal/importer"
	"quire/internal/jobs"
	"quire/internal/pdf"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// testBaseURL is the base URL the servers under test are configured with.
const testBaseURL = "http://test"

// Engines.
const (
	engineSQLite   = "sqlite"
	enginePostgres = "postgres"
)

// timestampRE is the shape of every timestamp of the API.
var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// testClock is the service's clock: wall time shifted by an offset the
// test moves forward.
type testClock struct {
	offset atomic.Int64
}

// Now returns the shifted time.
func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward.
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// testUser is a user of the test server with its API token.
type testUser struct {
	ID    string
	Email string
	Name  string
	Token string
	Role  quire.Role // "" for a guest or a non-member
}

// Caller names of the fixture users.
const (
	cAdmin     = "admin"
	cCreate    = "create"
	cEdit      = "edit"
	cReview    = "review"
	cComment   = "comment"
	cRead      = "read"
	cGuest     = "guest"
	cNonMember = "nonmember"
)

// roleCallers are the fixture members with a role, most powerful first.
var roleCallers = []string{cAdmin, cCreate, cEdit, cReview, cComment, cRead}

// testServer is a running API over a fresh database, with an organization
// and one user per role.
type testServer struct {
	Engine string
	URL    string
	Store  quire.Store
	Svc    *service.Service
	// Sites is the sites service the API uses.
	Sites *service.Sites
	Clock *testClock
	// Content is the content engine the service uses, on the test clock.
	Content *content.Engine
	// Blobs holds the uploaded files.
	Blobs blob.Store
	Org   string
	Users map[string]*testUser

	// Translator is the engine translation runs use; tests choose it.
	Translator *switchTranslator
	// OpenAPI is the OpenAPI specifications service.
	OpenAPI *service.OpenAPISpecs
	// Runner runs the integrations' scripts; tests choose its answers.
	Runner *fakeRunner
}

// newTestServer starts an API over a fresh store of the engine and
// bootstraps its fixtures. Files given by URL are fetched from test
// servers on 127.0.0.1, so local fetches are allowed; opts come last and
// can change that.
func newTestServer(t *testing.T, engine string, opts ...service.Option) *testServer {
	t.Helper()
	return newConfiguredServer(t, engine, nil, opts...)
}

// newConfiguredServer is newTestServer with adjustments of the API's
// configuration.
func newConfiguredServer(t *testing.T, engine string, cfgs []func(*Config), opts ...service.Option) *testServer {
	t.Helper()
	ctx := context.Background()
	clock := &testClock{}
	st := openTestStore(t, engine, clock.Now)
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	blobs, err := blob.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatalf("open blob store: %v", err)
	}
	t.Cleanup(func() { _ = blobs.Close() })
	eng := content.New(content.WithClock(clock.Now))
	fetcher := fetch.New(fetch.Config{AllowLocal: true, Logger: logger})
	queue, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: logger, PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatalf("job queue: %v", err)
	}
	svc := service.New(st, append([]service.Option{service.WithClock(clock.Now), service.WithLogger(logger),
		service.WithEngine(eng), service.WithBlobs(blobs), service.WithFetcher(fetcher), service.WithQueue(queue)}, opts...)...)
	git := service.NewGitSync(svc, gitremote.New(gitremote.Options{AllowLocal: true, Logger: logger}))
	jobs.Register(queue, git.RunJob)
	events := service.NewContentEvents(svc)
	events.Subscribe("search", svc.IndexContent)
	runner := &fakeRunner{}
	integrations := service.NewIntegrations(svc, fetcher, runner, service.IntegrationOptions{BaseURL: testBaseURL})
	events.Subscribe("integrations", integrations.ContentUpdated)
	svc.WatchSpaces(integrations.SpaceChanged)
	jobs.Register(queue, integrations.RunJob)
	jobs.Register(queue, events.RunJob)
	translator := &switchTranslator{}
	translations := service.NewTranslations(svc, translator)
	jobs.Register(queue, translations.RunJob)
	oas := service.NewOpenAPISpecs(svc, fetcher, service.OpenAPIOptions{FetchTimeout: openAPITestTimeout})
	jobs.Register(queue, oas.RunJob)
	jobs.Register(queue, oas.RunRefresh)
	if err := queue.Start(ctx); err != nil {
		t.Fatalf("start the job queue: %v", err)
	}
	t.Cleanup(func() { _ = queue.Stop(context.Background()) })
	imports := service.NewContentImports(svc, importer.New(fetcher, importer.Options{Logger: logger}))
	fonts, err := pdf.LoadFonts("")
	if err != nil {
		t.Fatalf("pdf fonts: %v", err)
	}
	cfg := Config{BaseURL: testBaseURL, Logger: logger, GitSync: git, Imports: imports, PDFs: service.NewPDFs(svc, fonts),
		OpenAPI: oas, Integrations: integrations, SiteService: service.NewSites(svc)}
	cfg.SAML = service.NewSAML(svc)
	cfg.Translations = translations
	for _, o := range cfgs {
		o(&cfg)
	}
	h := New(svc, cfg)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)

	ts := &testServer{Engine: engine, URL: hs.URL, Store: st, Svc: svc, Sites: cfg.SiteService, Clock: clock, Content: eng, Blobs: blobs, Users: map[string]*testUser{}}
	ts.Translator = translator
	ts.OpenAPI = oas
	ts.Runner = runner
	runner.base = hs.URL
	res, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Acme Docs", Email: "admin@acme.test", Name: "Ada Admin"})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	ts.Org = res.Organization
	ts.Users[cAdmin] = &testUser{ID: res.User, Email: "admin@acme.test", Name: "Ada Admin", Token: res.Token, Role: quire.RoleAdmin}
	names := map[string]string{cCreate: "Cleo Create", cEdit: "Eddie Edit", cReview: "Remy Review",
		cComment: "Cora Comment", cRead: "Rita Read"}
	for _, c := range roleCallers[1:] {
		ts.Users[c] = ts.addUser(t, c+"@acme.test", names[c], ts.Org, quire.Role(c))
	}
	ts.Users[cGuest] = ts.addUser(t, "guest@acme.test", "Gus Guest", ts.Org, "")
	ts.Users[cNonMember] = ts.addUser(t, "outsider@other.test", "Otto Outsider", "", "")
	return ts
}

// addUser creates a user, a member of org with role when org is set.
func (ts *testServer) addUser(t *testing.T, email, name, org string, role quire.Role) *testUser {
	t.Helper()
	u, token, err := ts.Svc.CreateUser(context.Background(), service.CreateUserInput{Email: email, Name: name, OrgID: org, Role: role})
	if err != nil {
		t.Fatalf("create user %s: %v", email, err)
	}
	return &testUser{ID: u.ID, Email: email, Name: name, Token: token, Role: role}
}

// user returns a fixture user.
func (ts *testServer) user(name string) *testUser {
	u, ok := ts.Users[name]
	if !ok {
		panic("no fixture user " + name)
	}
	return u
}

// token returns the token of a fixture user.
func (ts *testServer) token(name string) string { return ts.user(name).Token }

// openTestStore opens a fresh store of the engine on the clock now,
// closed (and for PostgreSQL dropped) at the end of the test. The
// database is a copy of a migrated one (see storetest.MigratedSQLite).
func openTestStore(t *testing.T, engine string, now func() time.Time) quire.Store {
	t.Helper()
	ctx := context.Background()
	cfg := store.Config{Now: now}
	if engine == enginePostgres {
		cfg.DatabaseURL = storetest.MigratedPostgresDB(t)
	} else {
		cfg.DataDir = storetest.MigratedSQLiteDir(t, store.SQLiteFile)
	}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("open %s store: %v", engine, err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// engines lists the engines the tests run on.
func engines() []string {
	e := []string{engineSQLite}
	if os.Getenv(storetest.PostgresEnv) != "" {
		e = append(e, enginePostgres)
	}
	return e
}

// forEachEngine runs fn against a fresh server on every engine, in
// parallel subtests; opts adjust the API's configuration.
func forEachEngine(t *testing.T, fn func(t *testing.T, ts *testServer), opts ...func(*Config)) {
	t.Helper()
	for _, e := range engines() {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			fn(t, newConfiguredServer(t, e, opts))
		})
	}
}

// strictInput configures a server that refuses undeclared request fields.
func strictInput(c *Config) { c.StrictInput = true }

// rawBody is a request body sent as is, with a JSON content type.
type rawBody string

// response is what a request returned.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// obj decodes the body as a JSON object.
func (r response) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// send makes a request. A nil body sends no body and no content type; a
// rawBody or []byte is sent as is with a JSON content type; anything else
// is encoded as JSON. An empty token sends no Authorization header.
func (ts *testServer) send(t *testing.T, method, path, token string, body any) response {
	t.Helper()
	return ts.sendAuth(t, method, path, bearer(token), body)
}

// bearer renders a token as an Authorization header value.
func bearer(token string) string {
	if token == "" {
		return ""
	}
	return "Bearer " + token
}

// sendAuth makes a request with a literal Authorization header ("" for
// none).
func (ts *testServer) sendAuth(t *testing.T, method, path, auth string, body any) response {
	t.Helper()
	var (
		rd          io.Reader
		contentType string
	)
	switch b := body.(type) {
	case nil:
	case rawBody:
		rd, contentType = strings.NewReader(string(b)), "application/json"
	case []byte:
		rd, contentType = bytes.NewReader(b), "application/json"
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rd, contentType = bytes.NewReader(enc), "application/json"
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// must makes a request that has to answer want, and returns its JSON body.
func (ts *testServer) must(t *testing.T, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	r := ts.send(t, method, path, token, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	if want == http.StatusNoContent || want == http.StatusResetContent {
		if len(r.Body) != 0 {
			t.Errorf("%s %s: %d with a body: %s", method, path, want, r.Body)
		}
		return nil
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: content type %q, want application/json", method, path, ct)
	}
	return r.obj(t)
}

// mustError makes a request that has to fail with want, checks the error
// body and returns its message.
func (ts *testServer) mustError(t *testing.T, want int, method, path, token string, body any) string {
	t.Helper()
	r := ts.send(t, method, path, token, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return checkErrorBody(t, r)
}

// checkErrorBody checks that a response is exactly
// {"error":{"code":<status>,"message":<non-empty>}} and returns the
// message.
func checkErrorBody(t *testing.T, r response) string {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error content type %q, want application/json", ct)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &top); err != nil {
		t.Errorf("error body is not a JSON object: %s", r.Body)
		return ""
	}
	if len(top) != 1 || top["error"] == nil {
		t.Errorf("error body has keys %v, want only error: %s", keysOf(top), r.Body)
		return ""
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(top["error"], &inner); err != nil {
		t.Errorf("error.error is not an object: %s", r.Body)
		return ""
	}
	if len(inner) != 2 || inner["code"] == nil || inner["message"] == nil {
		t.Errorf("error object has keys %v, want code and message: %s", keysOf(inner), r.Body)
		return ""
	}
	var code int
	if err := json.Unmarshal(inner["code"], &code); err != nil || code != r.Status {
		t.Errorf("error.code %s, want %d", inner["code"], r.Status)
	}
	var msg string
	if err := json.Unmarshal(inner["message"], &msg); err != nil || strings.TrimSpace(msg) == "" {
		t.Errorf("error.message %s, want a non-empty string", inner["message"])
	}
	return msg
}

// keysOf lists a map's keys in order.
func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// field walks a decoded JSON value along a dotted path ("urls.location",
// "items.0.id").
func field(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// str returns a string field, "" when absent or of another type.
func str(v any, path string) string {
	s, _ := field(v, path).(string)
	return s
}

// has reports whether an object has a key (even with a null value).
func has(v any, path string) bool {
	i := strings.LastIndex(path, ".")
	parent, key := v, path
	if i >= 0 {
		parent, key = field(v, path[:i]), path[i+1:]
	}
	m, ok := parent.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[key]
	return ok
}

// items returns the items of a list body.
func items(t *testing.T, list map[string]any) []map[string]any {
	t.Helper()
	raw, ok := list["items"].([]any)
	if !ok {
		t.Fatalf("list has no items array: %v", list)
	}
	out := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		m, ok := it.(map[string]any)
		if !ok {
			t.Fatalf("list item is not an object: %v", it)
		}
		out = append(out, m)
	}
	return out
}

// ids returns the value of key for every item of a list body.
func ids(t *testing.T, list map[string]any, key string) []string {
	t.Helper()
	var out []string
	for _, it := range items(t, list) {
		out = append(out, str(it, key))
	}
	return out
}

// wantFields checks fields of a decoded object; a nil expected value
// requires a JSON null (present).
func wantFields(t *testing.T, obj map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		got := field(obj, path)
		if w == nil {
			if !has(obj, path) || got != nil {
				t.Errorf("%s = %#v, want null", path, got)
			}
			continue
		}
		if !jsonEqual(got, w) {
			t.Errorf("%s = %#v, want %#v", path, got, w)
		}
	}
}

// jsonEqual compares a decoded JSON value with a Go value through JSON.
func jsonEqual(got, want any) bool {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return bytes.Equal(g, w)
}

// wantTimestamp checks that a field is an API timestamp.
func wantTimestamp(t *testing.T, obj map[string]any, path string) {
	t.Helper()
	s, ok := field(obj, path).(string)
	if !ok || !timestampRE.MatchString(s) {
		t.Errorf("%s = %#v, want a timestamp like 2006-01-02T15:04:05.000Z", path, field(obj, path))
	}
}

// wantAbsent checks that an object lacks a key.
func wantAbsent(t *testing.T, obj map[string]any, path string) {
	t.Helper()
	if has(obj, path) {
		t.Errorf("%s = %#v, want absent", path, field(obj, path))
	}
}

// wantContains checks that an error message mentions a word.
func wantContains(t *testing.T, msg, word string) {
	t.Helper()
	if !strings.Contains(msg, word) {
		t.Errorf("message %q does not mention %q", msg, word)
	}
}

// Fixture builders, all acting as the organization's admin.

// OrgPath returns /v1/orgs/{org} plus a suffix.
func (ts *testServer) OrgPath(suffix string) string { return "/v1/orgs/" + ts.Org + suffix }

// createSpace creates a space through the API.
func (ts *testServer) createSpace(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	var b any
	if body != nil {
		b = body
	}
	return ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/spaces"), ts.token(cAdmin), b)
}

// newSpace creates a space with a title and returns its id.
func (ts *testServer) newSpace(t *testing.T, title string) string {
	t.Helper()
	return str(ts.createSpace(t, map[string]any{"title": title}), "id")
}

// newSpaceIn creates a space in a collection and returns its id.
func (ts *testServer) newSpaceIn(t *testing.T, title, parent string) string {
	t.Helper()
	return str(ts.createSpace(t, map[string]any{"title": title, "parent": parent}), "id")
}

// newCollection creates a collection (in parent unless "") and returns its
// id.
func (ts *testServer) newCollection(t *testing.T, title, parent string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return str(ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/collections"), ts.token(cAdmin), body), "id")
}

// newTeam creates a team with members and returns its id.
func (ts *testServer) newTeam(t *testing.T, title string, members ...string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if len(members) > 0 {
		body["members"] = members
	}
	return str(ts.must(t, http.StatusCreated, "PUT", ts.OrgPath("/teams"), ts.token(cAdmin), body), "id")
}

// grantUser gives a member a role on a space.
func (ts *testServer) grantUser(t *testing.T, space, userID, role string) {
	t.Helper()
	ts.must(t, http.StatusNoContent, "POST", "/v1/spaces/"+space+"/permissions", ts.token(cAdmin),
		map[string]any{"role": role, "users": []string{userID}})
}

// grantTeam gives a team a role on a space.
func (ts *testServer) grantTeam(t *testing.T, space, teamID, role string) {
	t.Helper()
	ts.must(t, http.StatusNoContent, "POST", "/v1/spaces/"+space+"/permissions", ts.token(cAdmin),
		map[string]any{"role": role, "teams": []string{teamID}})
}

// secondOrg bootstraps another organization and makes the first
// organization's admin an admin of it too, through join and a role change.
// It returns the new organization's id and its own admin.
func (ts *testServer) secondOrg(t *testing.T, title, adminEmail string) (string, *testUser) {
	t.Helper()
	res, err := ts.Svc.Bootstrap(context.Background(), service.BootstrapInput{OrgTitle: title, Email: adminEmail, Name: "Second Admin"})
	if err != nil {
		t.Fatalf("bootstrap %s: %v", title, err)
	}
	owner := &testUser{ID: res.User, Email: adminEmail, Name: "Second Admin", Token: res.Token, Role: quire.RoleAdmin}
	org := res.Organization
	ts.must(t, http.StatusOK, "PATCH", "/v1/orgs/"+org, owner.Token, map[string]any{"emailDomains": []string{"acme.test"}})
	ts.must(t, http.StatusNoContent, "POST", "/v1/orgs/"+org+"/join", ts.token(cAdmin), nil)
	ts.must(t, http.StatusOK, "PATCH", "/v1/orgs/"+org+"/members/"+ts.user(cAdmin).ID, owner.Token, map[string]any{"role": "admin"})
	return org, owner
}

// newInvite stores an invite link in the organization and returns its id.
func (ts *testServer) newInvite(t *testing.T) string {
	t.Helper()
	inv := &quire.Invite{ID: quire.NewID(), OrgID: ts.Org, Role: quire.RoleRead, CreatedAt: time.Now()}
	if err := ts.Store.CreateInvite(context.Background(), inv); err != nil {
		t.Fatalf("create invite: %v", err)
	}
	return inv.ID
}
