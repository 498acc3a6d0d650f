package httpapi

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"html"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/samltest"
	"quire/internal/service"
)

// selfSigned makes an ECDSA key and a self-signed certificate valid from
// notBefore to notAfter, in PEM.
func selfSigned(notBefore, notAfter time.Time) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: notBefore, NotAfter: notAfter}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// Certificates for the validation cases.
var (
	samlCertsOnce                    sync.Once
	validSAMLCert, expiredSAMLCert   string
	notYetSAMLCert, keyNotCertPEMStr string
)

// samlCerts makes the certificates of the validation cases once.
func samlCerts() {
	samlCertsOnce.Do(func() {
		now := time.Now()
		validSAMLCert = selfSigned(now.Add(-time.Hour), now.Add(24*time.Hour))
		expiredSAMLCert = selfSigned(now.Add(-48*time.Hour), now.Add(-24*time.Hour))
		notYetSAMLCert = selfSigned(now.Add(24*time.Hour), now.Add(48*time.Hour))
		keyNotCertPEMStr = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not a key")}))
	})
}

// samlWrongTypes are the wrong-type bodies of the SAML provider writes,
// each added to base.
func samlWrongTypes(base map[string]any) map[string]map[string]any {
	with := func(k string, v any) map[string]any {
		out := map[string]any{k: v}
		for bk, bv := range base {
			if bk != k {
				out[bk] = bv
			}
		}
		return out
	}
	return map[string]map[string]any{
		"label": with("label", 3), "entityID": with("entityID", 1), "certificate": with("certificate", []string{"x"}),
		"ssoURL": with("ssoURL", true), "defaultTeam": with("defaultTeam", 4), "defaultRole": with("defaultRole", 5),
		"idpInitiated": with("idpInitiated", "yes"),
	}
}

// samlInvalidBodies are the SAML provider bodies refused for their
// values.
func samlInvalidBodies() []invalidBody {
	samlCerts()
	return []invalidBody{
		{"empty label", map[string]any{"label": ""}, "label"},
		{"label over 30", map[string]any{"label": strings.Repeat("l", 31)}, "label"},
		{"blank label", map[string]any{"label": "   "}, "label"},
		{"entity id over 1024", map[string]any{"label": "L", "entityID": strings.Repeat("e", 1025)}, "entityID"},
		{"certificate over 10000", map[string]any{"label": "L", "certificate": strings.Repeat("c", 10001)}, "certificate"},
		{"certificate not PEM", map[string]any{"label": "L", "certificate": "hello, world"}, "certificate"},
		{"certificate broken PEM", map[string]any{"label": "L", "certificate": "-----BEGIN CERTIFICATE-----\nAAAA"}, "PEM"},
		{"PEM of a key", map[string]any{"label": "L", "certificate": keyNotCertPEMStr}, "CERTIFICATE"},
		{"PEM not X.509", map[string]any{"label": "L", "certificate": "-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n"}, "X.509"},
		{"expired certificate", map[string]any{"label": "L", "certificate": expiredSAMLCert}, "expired"},
		{"certificate not valid yet", map[string]any{"label": "L", "certificate": notYetSAMLCert}, "not valid before"},
		{"SSO URL not a URL", map[string]any{"label": "L", "ssoURL": "not a url"}, "ssoURL"},
		{"SSO URL not http", map[string]any{"label": "L", "ssoURL": "ftp://idp.example/sso"}, "ssoURL"},
		{"SSO URL over 2048", map[string]any{"label": "L", "ssoURL": "https://idp.example/" + strings.Repeat("a", 2048)}, "ssoURL"},
		{"unknown role", map[string]any{"label": "L", "defaultRole": "owner"}, "defaultRole"},
		{"unknown team", map[string]any{"label": "L", "defaultTeam": "noteam"}, "defaultTeam"},
	}
}

// newSAMLProvider creates a pending SAML provider in the organization as
// the admin.
func (ts *testServer) newSAMLProvider(t *testing.T, label string) string {
	t.Helper()
	return str(ts.must(t, 201, "POST", ts.OrgPath("/saml"), ts.token(cAdmin), map[string]any{"label": label}), "id")
}

func TestSAMLProviders(t *testing.T) {
	t.Parallel()
	samlCerts()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		team := ts.newTeam(t, "Writers")

		bare := ts.send(t, "POST", ts.OrgPath("/saml"), admin, map[string]any{"label": "Pending"})
		if bare.Status != 201 {
			t.Fatalf("create: %d %s", bare.Status, bare.Body)
		}
		p := bare.obj(t)
		id := str(p, "id")
		wantFields(t, p, map[string]any{"object": "saml-provider", "label": "Pending", "status": "pending",
			"defaultRole": nil, "entityID": "", "certificate": "", "ssoURL": "about:blank", "idpInitiated": false,
			"urls": map[string]any{"location": testBaseURL + "/v1/orgs/" + ts.Org + "/saml/" + id},
			"service": map[string]any{"acsURL": testBaseURL + "/sso/saml/" + id + "/acs",
				"startURL": testBaseURL + "/sso/saml/" + id + "/login", "entityID": testBaseURL + "/sso/saml/" + id + "/metadata"}})
		wantAbsent(t, p, "defaultTeam")
		wantTimestamp(t, p, "createdAt")
		if loc := bare.Header.Get("Location"); loc != str(p, "urls.location") {
			t.Errorf("Location %q", loc)
		}

		// Configured fully it is active, with its default team.
		got := ts.must(t, 200, "PATCH", ts.OrgPath("/saml/"+id), admin, map[string]any{
			"entityID": "https://idp.example/metadata", "certificate": validSAMLCert, "ssoURL": "https://idp.example/sso",
			"defaultRole": "edit", "defaultTeam": team, "idpInitiated": true})
		wantFields(t, got, map[string]any{"status": "active", "defaultRole": "edit", "defaultTeam.id": team,
			"defaultTeam.title": "Writers", "idpInitiated": true, "certificate": validSAMLCert})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/saml/"+id), admin, nil), map[string]any{"status": "active", "label": "Pending"})
		// The bare base64 of the DER is read as the same certificate.
		block, _ := pem.Decode([]byte(validSAMLCert))
		got = ts.must(t, 200, "PATCH", ts.OrgPath("/saml/"+id), admin, map[string]any{
			"certificate": base64.StdEncoding.EncodeToString(block.Bytes), "defaultRole": nil})
		wantFields(t, got, map[string]any{"certificate": validSAMLCert, "defaultRole": nil})

		// A pending provider read back and sent again stays pending.
		round := ts.must(t, 201, "POST", ts.OrgPath("/saml"), admin, map[string]any{"label": "Round trip"})
		got = ts.must(t, 200, "PATCH", ts.OrgPath("/saml/"+str(round, "id")), admin, map[string]any{
			"label": "Round trip", "ssoURL": round["ssoURL"], "entityID": round["entityID"], "certificate": round["certificate"]})
		wantFields(t, got, map[string]any{"ssoURL": "about:blank", "status": "pending"})
		ts.must(t, 205, "DELETE", ts.OrgPath("/saml/"+str(round, "id")), admin, nil)

		// Members can sign in with active providers only.
		logins := ts.must(t, 200, "GET", ts.OrgPath("/sso"), ts.token(cGuest), nil)
		wantFields(t, logins, map[string]any{"items": []any{map[string]any{"id": id, "label": "Pending",
			"startURL": testBaseURL + "/sso/saml/" + id + "/login"}}})

		// A deleted team leaves the provider without one.
		ts.must(t, 205, "DELETE", ts.OrgPath("/teams/"+team), admin, nil)
		wantAbsent(t, ts.must(t, 200, "GET", ts.OrgPath("/saml/"+id), admin, nil), "defaultTeam")

		// Lists page.
		for i := range 3 {
			ts.newSAMLProvider(t, "More "+string(rune('A'+i)))
		}
		l := ts.must(t, 200, "GET", ts.OrgPath("/saml?limit=2"), admin, nil)
		wantFields(t, l, map[string]any{"count": float64(4)})
		if len(items(t, l)) != 2 || str(items(t, l)[0], "id") != id {
			t.Errorf("first page: %v", l)
		}
		l2 := ts.must(t, 200, "GET", ts.OrgPath("/saml?limit=2&page="+url.QueryEscape(str(l, "next.page"))), admin, nil)
		if len(items(t, l2)) != 2 || has(l2, "next") {
			t.Errorf("second page: %v", l2)
		}

		// Another organization's admin sees none of them.
		_, other := ts.secondOrg(t, "Other", "owner@other.test")
		ts.mustError(t, 404, "GET", ts.OrgPath("/saml/"+id), other.Token, nil)

		ts.mustError(t, 404, "GET", ts.OrgPath("/saml/nosuchprovider"), admin, nil)
		ts.mustError(t, 404, "PATCH", ts.OrgPath("/saml/nosuchprovider"), admin, map[string]any{"label": "X"})
		ts.must(t, 205, "DELETE", ts.OrgPath("/saml/"+id), admin, nil)
		ts.must(t, 204, "DELETE", ts.OrgPath("/saml/"+id), admin, nil)
		ts.mustError(t, 404, "GET", ts.OrgPath("/saml/"+id), admin, nil)
	})
}

// samlTestServer serves the API of ts at its own address on 127.0.0.1,
// as the base URL an identity provider sends browsers back to.
func samlTestServer(t *testing.T, ts *testServer) string {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	base := "http://" + hs.Listener.Addr().String()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	hs.Config.Handler = New(ts.Svc, Config{BaseURL: base, Logger: logger, SAML: service.NewSAML(ts.Svc)})
	hs.Start()
	t.Cleanup(hs.Close)
	return base
}

// browser is a client with a cookie jar that follows redirects.
type browserClient struct {
	t    *testing.T
	http *http.Client
	base string
}

// newBrowser returns a browser for the server at base.
func newBrowser(t *testing.T, base string) *browserClient {
	jar, _ := cookiejar.New(nil)
	return &browserClient{t: t, http: &http.Client{Jar: jar}, base: base}
}

// do sends a request, with an Origin header when origin is set, and
// returns the final answer.
func (b *browserClient) do(method, path, origin string, body io.Reader, contentType string) response {
	b.t.Helper()
	target := path
	if strings.HasPrefix(path, "/") {
		target = b.base + path
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := b.http.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: data}
}

// samlForm is the form an identity provider's page posts.
type samlForm struct {
	action, response, relay string
}

var (
	formActionRE = regexp.MustCompile(`<form method="post" action="([^"]*)"`)
	formInputRE  = regexp.MustCompile(`name="(SAMLResponse|RelayState)" value="([^"]*)"`)
)

// parseForm reads the identity provider's auto-posting form.
func parseForm(t *testing.T, page []byte) samlForm {
	t.Helper()
	m := formActionRE.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no form in the identity provider's page: %s", page)
	}
	f := samlForm{action: html.UnescapeString(string(m[1]))}
	for _, in := range formInputRE.FindAllSubmatch(page, -1) {
		v := html.UnescapeString(string(in[2]))
		if string(in[1]) == "SAMLResponse" {
			f.response = v
		} else {
			f.relay = v
		}
	}
	if f.response == "" {
		t.Fatalf("no SAMLResponse in the form: %s", page)
	}
	return f
}

// post submits the form as the browser would.
func (b *browserClient) post(f samlForm) response {
	b.t.Helper()
	v := url.Values{"SAMLResponse": {f.response}, "RelayState": {f.relay}}
	return b.do("POST", f.action, "null", strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
}

// startLogin follows the sign-in link to the identity provider and
// returns its form.
func (b *browserClient) startLogin(provider, redirect string) samlForm {
	b.t.Helper()
	path := "/sso/saml/" + provider + "/login"
	if redirect != "" {
		path += "?redirect=" + url.QueryEscape(redirect)
	}
	r := b.do("GET", path, "", nil, "")
	if r.Status != 200 {
		b.t.Fatalf("sign-in start: %d %s", r.Status, r.Body)
	}
	return parseForm(b.t, r.Body)
}

// samlFixture is a server at its own address with an identity provider
// configured as a provider of the organization.
type samlFixture struct {
	ts       *testServer
	base     string
	idp      *samltest.IdP
	provider string
	team     string
}

// newSAMLFixture configures a provider of the organization signing new
// members in with the create role, in a team.
func newSAMLFixture(t *testing.T, ts *testServer) *samlFixture {
	t.Helper()
	f := &samlFixture{ts: ts, base: samlTestServer(t, ts), idp: samltest.New(t), team: ts.newTeam(t, "SSO people")}
	f.provider = f.createProvider(t, ts.Org, ts.token(cAdmin), map[string]any{"defaultRole": "create", "defaultTeam": f.team})
	return f
}

// createProvider creates a provider of the test identity provider.
func (f *samlFixture) createProvider(t *testing.T, org, token string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"label": "Test IdP", "entityID": f.idp.MetadataURL,
		"certificate": f.idp.CertificatePEM, "ssoURL": f.idp.SSOURL}
	for k, v := range extra {
		body[k] = v
	}
	p := f.ts.must(t, 201, "POST", "/v1/orgs/"+org+"/saml", token, body)
	wantFields(t, p, map[string]any{"status": "active"})
	return str(p, "id")
}

// login signs a browser in through the provider and returns it with the
// answer of the page it lands on.
func (f *samlFixture) login(t *testing.T, provider, email, name string) (*browserClient, response) {
	t.Helper()
	f.idp.As(email, name)
	b := newBrowser(t, f.base)
	return b, b.post(b.startLogin(provider, ""))
}

// sessionCookieOf returns the browser's session cookie value.
func (b *browserClient) sessionCookie() string {
	u, _ := url.Parse(b.base)
	for _, c := range b.http.Jar.Cookies(u) {
		if c.Name == SessionCookie {
			return c.Value
		}
	}
	return ""
}

func TestSAMLLogin(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := newSAMLFixture(t, ts)
		origin := f.base

		// The metadata names the assertion consumer service, HTTP-POST only.
		md := newBrowser(t, f.base).do("GET", "/sso/saml/"+f.provider+"/metadata", "", nil, "")
		if md.Status != 200 || !strings.Contains(md.Header.Get("Content-Type"), "samlmetadata+xml") ||
			!bytes.Contains(md.Body, []byte(f.base+"/sso/saml/"+f.provider+"/acs")) || bytes.Contains(md.Body, []byte("HTTP-Artifact")) {
			t.Fatalf("metadata: %d %s", md.Status, md.Body)
		}

		b, landed := f.login(t, f.provider, "new.person@acme.test", "New Person")
		if landed.Status != 200 {
			t.Fatalf("sign-in: %d %s", landed.Status, landed.Body)
		}
		me := landed.obj(t)
		wantFields(t, me, map[string]any{"email": "new.person@acme.test", "displayName": "New Person"})
		userID := str(me, "id")
		sessionSecret := b.sessionCookie()
		if sessionSecret == "" {
			t.Fatal("no session cookie")
		}

		// The new user is an SSO member with the default role, in the default team.
		admin := ts.token(cAdmin)
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+userID), admin, nil),
			map[string]any{"role": "create", "sso": true})
		teams := ts.must(t, 200, "GET", ts.OrgPath("/members/"+userID+"/teams"), admin, nil)
		if got := ids(t, teams, "team.id"); len(got) != 1 || got[0] != f.team {
			t.Errorf("teams of the new member: %v", got)
		}

		// The session authenticates the API: reads, and writes from this origin.
		wantFields(t, b.do("GET", "/v1/orgs/"+ts.Org, "", nil, "").obj(t), map[string]any{"id": ts.Org})
		space := b.do("POST", "/v1/orgs/"+ts.Org+"/spaces", origin, strings.NewReader(`{"title":"From the browser"}`), "application/json")
		if space.Status != 201 {
			t.Fatalf("create space with the session: %d %s", space.Status, space.Body)
		}
		for name, o := range map[string]string{"no Origin": "", "another origin": "https://evil.example", "null origin": "null"} {
			r := b.do("POST", "/v1/orgs/"+ts.Org+"/spaces", o, strings.NewReader(`{"title":"Forged"}`), "application/json")
			if r.Status != 403 {
				t.Errorf("write with the session and %s: %d %s", name, r.Status, r.Body)
			}
		}

		// A personal API token from the session works on its own.
		tok := b.do("POST", "/sso/tokens", origin, nil, "")
		if tok.Status != 201 {
			t.Fatalf("token from the session: %d %s", tok.Status, tok.Body)
		}
		token := str(tok.obj(t), "token")
		wantFields(t, ts.must(t, 200, "GET", "/v1/user", token, nil), map[string]any{"id": userID})
		if r := b.do("POST", "/sso/tokens", "https://evil.example", nil, ""); r.Status != 403 {
			t.Errorf("cross-site token: %d", r.Status)
		}
		if r := newBrowser(t, f.base).do("POST", "/sso/tokens", origin, nil, ""); r.Status != 401 {
			t.Errorf("token without a session: %d", r.Status)
		}

		// Signing in again keeps the member as they are; a changed role stays.
		ts.must(t, 200, "PATCH", ts.OrgPath("/members/"+userID), admin, map[string]any{"role": "read"})
		_, again := f.login(t, f.provider, "NEW.person@acme.test", "Someone Else")
		wantFields(t, again.obj(t), map[string]any{"id": userID, "displayName": "New Person"})
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+userID), admin, nil), map[string]any{"role": "read"})

		// Logging out ends the session on the server, not only in the browser.
		if r := b.do("POST", "/sso/logout", "https://evil.example", nil, ""); r.Status != 403 {
			t.Errorf("cross-site logout: %d", r.Status)
		}
		if r := b.do("POST", "/sso/logout", origin, nil, ""); r.Status != 204 {
			t.Fatalf("logout: %d %s", r.Status, r.Body)
		}
		if b.sessionCookie() != "" {
			t.Error("the session cookie stayed")
		}
		stale := newBrowser(t, f.base)
		u, _ := url.Parse(f.base)
		stale.http.Jar.SetCookies(u, []*http.Cookie{{Name: SessionCookie, Value: sessionSecret, Path: "/"}})
		if r := stale.do("GET", "/v1/user", "", nil, ""); r.Status != 401 {
			t.Errorf("a logged-out session: %d %s", r.Status, r.Body)
		}
		if _, _, err := ts.Store.Session(t.Context(), []byte(sessionSecret), time.Now(), time.Time{}); !quire.IsNotFound(err) {
			t.Errorf("sessions are stored by hash: found by the secret itself (%v)", err)
		}

		// A guest by default when the provider has no role; redirects stay on this server.
		guestProvider := f.createProvider(t, ts.Org, admin, nil)
		f.idp.As("guest.person@acme.test", "Guest Person")
		gb := newBrowser(t, f.base)
		landed = gb.post(gb.startLogin(guestProvider, "/v1/orgs"))
		if landed.Status != 200 || !has(landed.obj(t), "items") {
			t.Fatalf("sign-in with a redirect: %d %s", landed.Status, landed.Body)
		}
		guest, err := ts.Store.UserByEmail(t.Context(), "guest.person@acme.test")
		if err != nil {
			t.Fatal(err)
		}
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+guest.ID), admin, nil), map[string]any{"role": nil, "sso": true})
		for _, bad := range []string{"//evil.example/x", "https://evil.example/", "\\\\evil.example", "relative"} {
			r := gb.do("GET", "/sso/saml/"+guestProvider+"/login?redirect="+url.QueryEscape(bad), "", nil, "")
			if r.Status != 400 || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
				t.Errorf("redirect %q: %d %s", bad, r.Status, r.Body)
			}
		}
	})
}

func TestSAMLLoginRefusals(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := newSAMLFixture(t, ts)
		refused := func(name string, r response) {
			t.Helper()
			if r.Status != 403 || !strings.Contains(r.Header.Get("Content-Type"), "text/html") ||
				!bytes.Contains(r.Body, []byte("Sign-in failed")) {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
			}
		}
		noUser := func(email string) {
			t.Helper()
			if _, err := ts.Store.UserByEmail(t.Context(), email); !quire.IsNotFound(err) {
				t.Errorf("user %s exists after a refused sign-in (%v)", email, err)
			}
		}

		// Tampered: the signed assertion names someone else.
		f.idp.As("victim@acme.test", "Victim")
		f.idp.Encrypt(false)
		b := newBrowser(t, f.base)
		form := b.startLogin(f.provider, "")
		raw, _ := base64.StdEncoding.DecodeString(form.response)
		forged := bytes.ReplaceAll(raw, []byte("victim@acme.test"), []byte("mallory@acme.test"))
		if bytes.Equal(forged, raw) {
			t.Fatal("the email is not in the answer")
		}
		form.response = base64.StdEncoding.EncodeToString(forged)
		refused("tampered", b.post(form))
		noUser("mallory@acme.test")
		noUser("victim@acme.test")
		f.idp.Encrypt(true)

		// Tampered: the encrypted assertion's ciphertext changed.
		b = newBrowser(t, f.base)
		form = b.startLogin(f.provider, "")
		raw, _ = base64.StdEncoding.DecodeString(form.response)
		cipher := regexp.MustCompile(`(<xenc:CipherValue>)([A-Za-z0-9+/])`).FindAllSubmatchIndex(raw, -1)
		if len(cipher) < 2 {
			t.Fatalf("the answer is not encrypted: %s", raw)
		}
		at := cipher[len(cipher)-1][4]
		raw[at] = map[bool]byte{true: 'B', false: 'A'}[raw[at] == 'A']
		form.response = base64.StdEncoding.EncodeToString(raw)
		refused("tampered ciphertext", b.post(form))
		noUser("victim@acme.test")

		// Expired: made two hours ago.
		f.idp.As("late@acme.test", "Late")
		f.idp.MoveTimes(-2 * time.Hour)
		b = newBrowser(t, f.base)
		refused("expired", b.post(b.startLogin(f.provider, "")))
		noUser("late@acme.test")
		f.idp.MoveTimes(0)

		// Replayed: the same answer twice.
		f.idp.As("twice@acme.test", "Twice")
		b = newBrowser(t, f.base)
		form = b.startLogin(f.provider, "")
		if r := b.post(form); r.Status != 200 {
			t.Fatalf("first use: %d %s", r.Status, r.Body)
		}
		refused("replayed", b.post(form))

		// Posted by another browser than the one that started the sign-in.
		f.idp.As("other@acme.test", "Other")
		form = newBrowser(t, f.base).startLogin(f.provider, "")
		refused("another browser", newBrowser(t, f.base).post(form))
		noUser("other@acme.test")

		// Missing or garbled answers.
		b = newBrowser(t, f.base)
		if r := b.post(samlForm{action: f.base + "/sso/saml/" + f.provider + "/acs", response: "!!!"}); r.Status != 403 && r.Status != 400 {
			t.Errorf("garbled answer: %d %s", r.Status, r.Body)
		}
		if r := b.do("POST", "/sso/saml/"+f.provider+"/acs", "", strings.NewReader("RelayState=x"), "application/x-www-form-urlencoded"); r.Status != 400 {
			t.Errorf("no answer: %d %s", r.Status, r.Body)
		}

		// IdP-initiated: refused until the provider accepts it, then
		// accepted once per assertion.
		sp := f.base + "/sso/saml/" + f.provider + "/metadata"
		f.idp.As("idp.started@acme.test", "Started")
		b = newBrowser(t, f.base)
		r := b.do("GET", f.idp.StartURL(sp, ""), "", nil, "")
		refused("IdP-initiated, not enabled", b.post(parseForm(t, r.Body)))
		noUser("idp.started@acme.test")
		ts.must(t, 200, "PATCH", ts.OrgPath("/saml/"+f.provider), ts.token(cAdmin), map[string]any{"idpInitiated": true})
		r = b.do("GET", f.idp.StartURL(sp, "whatever"), "", nil, "")
		form = parseForm(t, r.Body)
		landed := b.post(form)
		if landed.Status != 200 {
			t.Fatalf("IdP-initiated: %d %s", landed.Status, landed.Body)
		}
		wantFields(t, landed.obj(t), map[string]any{"email": "idp.started@acme.test"})
		refused("IdP-initiated, replayed", newBrowser(t, f.base).post(form))

		// Unknown or pending providers.
		if r := newBrowser(t, f.base).do("GET", "/sso/saml/nosuch/login", "", nil, ""); r.Status != 404 {
			t.Errorf("unknown provider: %d", r.Status)
		}
		pending := ts.newSAMLProvider(t, "Pending")
		if r := newBrowser(t, f.base).do("GET", "/sso/saml/"+pending+"/login", "", nil, ""); r.Status != 412 {
			t.Errorf("pending provider: %d %s", r.Status, r.Body)
		}
		if r := newBrowser(t, f.base).do("GET", "/sso/saml/"+pending+"/metadata", "", nil, ""); r.Status != 200 {
			t.Errorf("metadata of a pending provider: %d", r.Status)
		}

		// A disabled member is refused, and stays disabled.
		disabled := ts.addDisabledMember(t, "disabled.sso@acme.test", "Dee Disabled", quire.RoleEdit)
		f.idp.As(disabled.Email, disabled.Name)
		b = newBrowser(t, f.base)
		refused("disabled member", b.post(b.startLogin(f.provider, "")))
		wantFields(t, ts.must(t, 200, "GET", ts.OrgPath("/members/"+disabled.ID), ts.token(cAdmin), nil),
			map[string]any{"disabled": true, "sso": false})
	})
}

func TestSAMLRequiredSSO(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		f := newSAMLFixture(t, ts)
		org2, owner2 := ts.secondOrg(t, "Second", "owner@second.test")
		p2 := f.createProvider(t, org2, owner2.Token, map[string]any{"defaultRole": "read"})

		// Rita, a member of the first organization without SSO, signs in
		// through the second's provider: only once her email's domain is
		// the second organization's, since her account exists already.
		rita := ts.user(cRead)
		ts.must(t, 200, "PATCH", "/v1/orgs/"+org2, owner2.Token, map[string]any{"emailDomains": []string{"second.test"}})
		_, landed := f.login(t, p2, rita.Email, rita.Name)
		if landed.Status != 403 || !strings.Contains(string(landed.Body), "not a member of this organization") {
			t.Fatalf("sign-in of an outside account: %d %s", landed.Status, landed.Body)
		}
		ts.must(t, 200, "PATCH", "/v1/orgs/"+org2, owner2.Token, map[string]any{"emailDomains": []string{"acme.test"}})
		b, landed := f.login(t, p2, rita.Email, rita.Name)
		if landed.Status != 200 {
			t.Fatalf("sign-in: %d %s", landed.Status, landed.Body)
		}
		if r := b.do("GET", "/v1/orgs/"+ts.Org, "", nil, ""); r.Status != 200 {
			t.Fatalf("before SSO is required: %d %s", r.Status, r.Body)
		}
		ts.must(t, 200, "PATCH", ts.OrgPath(""), ts.token(cAdmin), map[string]any{"sso": true})
		for _, path := range []string{"/v1/orgs/" + ts.Org, "/v1/orgs/" + ts.Org + "/spaces", "/v1/spaces/" + ts.newSpace(t, "Docs")} {
			r := b.do("GET", path, "", nil, "")
			if r.Status != 403 || !strings.Contains(string(r.Body), "single sign-on") {
				t.Errorf("%s with a session, SSO required: %d %s", path, r.Status, r.Body)
			}
		}
		if r := b.do("GET", "/v1/orgs/"+org2, "", nil, ""); r.Status != 200 {
			t.Errorf("the organization she signed in to: %d", r.Status)
		}
		// Her API token is not the session path.
		ts.must(t, 200, "GET", ts.OrgPath(""), rita.Token, nil)
		// An SSO member still needs a session from the organization's own
		// provider: the second organization's does not speak for the first.
		ts.must(t, 200, "POST", ts.OrgPath("/members/"+rita.ID+"/sso"), ts.token(cAdmin), nil)
		if r := b.do("GET", "/v1/orgs/"+ts.Org, "", nil, ""); r.Status != 403 {
			t.Errorf("as an SSO member with another organization's session: %d %s", r.Status, r.Body)
		}
		own, landed := f.login(t, f.provider, rita.Email, rita.Name)
		if landed.Status != 200 {
			t.Fatalf("sign-in through the organization's own provider: %d %s", landed.Status, landed.Body)
		}
		if r := own.do("GET", "/v1/orgs/"+ts.Org, "", nil, ""); r.Status != 200 {
			t.Errorf("with the organization's own session: %d %s", r.Status, r.Body)
		}
	})
}

// TestSAMLBrowserRoutes checks that the browser endpoints are served but
// stay out of the OpenAPI document, which has the provider operations.
func TestSAMLBrowserRoutes(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, engineSQLite)
	doc, _ := fetchOpenAPI(t, ts)
	for path := range doc.Paths {
		if strings.HasPrefix(path, "/sso") {
			t.Errorf("%s is in the OpenAPI document", path)
		}
	}
	if _, ok := doc.Paths["/v1/orgs/{organizationId}/saml/{samlProviderId}"]; !ok {
		t.Error("the provider operations are not in the OpenAPI document")
	}
	s, _ := newServer(service.New(nil), Config{BaseURL: testBaseURL})
	var sso []BrowserRoute
	for _, r := range s.BrowserRoutes() {
		if strings.HasPrefix(r.Path, "/sso/") {
			sso = append(sso, r)
		}
	}
	if len(sso) != 5 {
		t.Errorf("browser routes: %v", s.BrowserRoutes())
	}
	for _, r := range sso {
		path := strings.ReplaceAll(r.Path, "{providerId}", "nosuch")
		res := ts.send(t, r.Method, path, "", nil)
		if res.Status == http.StatusMethodNotAllowed || (res.Status == http.StatusNotFound && !strings.Contains(res.Header.Get("Content-Type"), "text/html")) {
			t.Errorf("%s %s is not served: %d %s", r.Method, path, res.Status, res.Body)
		}
	}
}

// TestSessionCookieAttributes checks the session cookie: HTTP-only,
// SameSite=Lax, and Secure unless the server is plain http on loopback.
func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	for base, secure := range map[string]bool{
		"https://docs.example": true, "http://docs.example": true, "http://10.0.0.5:8080": true,
		"http://127.0.0.1:8080": false, "http://localhost:8080": false, "http://[::1]:8080": false,
		"https://127.0.0.1": true,
	} {
		s, _ := newServer(service.New(nil), Config{BaseURL: base})
		c := s.sessionCookie("secret", time.Now().Add(time.Hour))
		if c.Secure != secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Name != SessionCookie {
			t.Errorf("%s: cookie %s", base, c.String())
		}
		if cleared := s.sessionCookie("", time.Time{}); cleared.MaxAge >= 0 {
			t.Errorf("%s: a cleared cookie does not expire: %s", base, cleared.String())
		}
	}
}

func TestSAMLKeySharedByReplicas(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		id := ts.newSAMLProvider(t, "Shared key")
		cert := func() string {
			base := samlTestServer(t, ts) // a replica of its own, on the same database
			r := newBrowser(t, base).do("GET", "/sso/saml/"+id+"/metadata", "", nil, "")
			m := regexp.MustCompile(`<X509Certificate[^>]*>([^<]+)<`).FindSubmatch(r.Body)
			if r.Status != 200 || m == nil {
				t.Fatalf("metadata: %d %s", r.Status, r.Body)
			}
			return string(m[1])
		}
		if a, b := cert(), cert(); a != b {
			t.Error("two replicas answer different service provider certificates")
		}
	})
}
