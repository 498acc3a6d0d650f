package service

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// randomToken returns n random bytes, URL-safe base64: the secrets handed
// to browsers (sessions, account links, sign-in states).
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// secretHash is what is stored of a secret handed to a browser (a session
// secret, a SAML relay state, an OpenID Connect state).
func secretHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}
