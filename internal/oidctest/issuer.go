// Package oidctest is an OpenID Connect issuer for tests, served in
// process on 127.0.0.1: discovery, keys, an authorization endpoint that
// signs in whoever is set without asking and sends the browser back with
// a code, and a token endpoint that checks the code (once), the client,
// the redirect URI and the PKCE verifier and signs an ID token. Tests
// change what it claims to see each refusal.
package oidctest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Person is who the issuer signs in next.
type Person struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

// Issuer is a running test issuer.
type Issuer struct {
	// URL is the issuer's identifier and base address.
	URL          string
	ClientID     string
	ClientSecret string

	srv *httptest.Server
	key *rsa.PrivateKey

	mu     sync.Mutex
	person Person
	// audience, when set, replaces the client id as the token's audience.
	audience string
	// lifetime is how long tokens are valid; negative makes them expired.
	lifetime time.Duration
	codes    map[string]grant
}

// grant is a code given out and not yet exchanged.
type grant struct {
	clientID, redirectURI, nonce, challenge string
	person                                  Person
}

// New starts an issuer for a client; it stops when the test ends.
func New(t testing.TB) *Issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is := &Issuer{ClientID: "quire-test", ClientSecret: "s3cret", key: key, lifetime: 5 * time.Minute,
		codes:  map[string]grant{},
		person: Person{Subject: "sub-1", Email: "ada@example.com", EmailVerified: true, Name: "Ada Lovelace"}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", is.discovery)
	mux.HandleFunc("GET /keys", is.keys)
	mux.HandleFunc("GET /authorize", is.authorize)
	mux.HandleFunc("POST /token", is.token)
	is.srv = httptest.NewServer(mux)
	is.URL = is.srv.URL
	t.Cleanup(is.srv.Close)
	return is
}

// SignIn sets who the issuer signs in from now on.
func (is *Issuer) SignIn(p Person) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.person = p
}

// Audience makes the issuer sign tokens for another audience ("" for the
// client's own).
func (is *Issuer) Audience(aud string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.audience = aud
}

// Lifetime sets how long tokens are valid; a negative one signs tokens
// that expired already.
func (is *Issuer) Lifetime(d time.Duration) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.lifetime = d
}

// discovery serves the discovery document.
func (is *Issuer) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                is.URL,
		"authorization_endpoint":                is.URL + "/authorize",
		"token_endpoint":                        is.URL + "/token",
		"jwks_uri":                              is.URL + "/keys",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
	})
}

// keys serves the public key.
func (is *Issuer) keys(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &is.key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
}

// authorize signs the current person in at once and sends the browser
// back with a code.
func (is *Issuer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != is.ClientID || q.Get("response_type") != "code" || q.Get("redirect_uri") == "" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	code := token()
	is.mu.Lock()
	is.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), nonce: q.Get("nonce"),
		challenge: q.Get("code_challenge"), person: is.person}
	is.mu.Unlock()
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token exchanges a code, once, for tokens.
func (is *Issuer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != is.ClientID || secret != is.ClientSecret {
		oauthError(w, "invalid_client")
		return
	}
	is.mu.Lock()
	g, found := is.codes[r.PostForm.Get("code")]
	delete(is.codes, r.PostForm.Get("code"))
	aud, lifetime := is.audience, is.lifetime
	is.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case r.PostForm.Get("grant_type") != "authorization_code", !found, g.clientID != id,
		g.redirectURI != r.PostForm.Get("redirect_uri"),
		base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		oauthError(w, "invalid_grant")
		return
	}
	if aud == "" {
		aud = is.ClientID
	}
	now := time.Now()
	claims := map[string]any{
		"iss": is.URL, "sub": g.person.Subject, "aud": aud, "iat": now.Unix(), "exp": now.Add(lifetime).Unix(),
		"nonce": g.nonce, "email": g.person.Email, "email_verified": g.person.EmailVerified, "name": g.person.Name,
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: is.key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	raw, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"access_token": token(), "token_type": "Bearer",
		"expires_in": int(lifetime.Seconds()), "id_token": raw})
}

// token returns a random code or token.
func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// oauthError answers an OAuth 2 error.
func oauthError(w http.ResponseWriter, code string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code})
}

// writeJSON writes v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
