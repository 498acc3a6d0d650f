package service

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"strconv"
	"time"

	"quire/internal/quire"
)

// openAPIFileLinkTTL is the least time a signed link to a private
// specification's file works; expiries are rounded up to a multiple of
// downloadLinkStep, so a link stays the same for a while.
const openAPIFileLinkTTL = 3 * time.Hour

// OpenAPIFileLink names the main file of a version of a specification,
// LatestVersionID for the newest. A link to a public specification needs
// no signature; one to a private specification carries an expiry and an
// HMAC under the server's download key.
type OpenAPIFileLink struct {
	SpecID    string
	VersionID string
	// Expires is when the link stops working, in Unix seconds; 0 for a
	// public specification's link.
	Expires   int64
	Signature string
}

// FileLink returns the link to the main file of a version of spec:
// unsigned when the specification is public.
func (o *OpenAPISpecs) FileLink(ctx context.Context, spec *quire.OpenAPISpec, versionID string) (OpenAPIFileLink, error) {
	l := OpenAPIFileLink{SpecID: spec.ID, VersionID: versionID}
	if spec.Visibility == quire.OpenAPIPublic {
		return l, nil
	}
	key, err := o.s.downloadKey(ctx)
	if err != nil {
		return l, err
	}
	step := int64(downloadLinkStep / time.Second)
	l.Expires = o.s.now().Add(openAPIFileLinkTTL).Unix()
	l.Expires += (step - l.Expires%step) % step
	l.Signature = base64.RawURLEncoding.EncodeToString(l.mac(key))
	return l, nil
}

// mac computes the link's HMAC-SHA256 under key.
func (l OpenAPIFileLink) mac(key []byte) []byte {
	return linkMAC(key, "quire openapi file v1", l.SpecID, l.VersionID, strconv.FormatInt(l.Expires, 10))
}

// OpenFile checks a link and returns the name and text of the main file
// it names. A public specification's file needs no signature; a private
// one's link must be signed and not expired (EFORBIDDEN otherwise). A
// specification or version that does not exist is ENOTFOUND.
func (o *OpenAPISpecs) OpenFile(ctx context.Context, l OpenAPIFileLink) (string, string, error) {
	spec, err := o.s.store.OpenAPISpecByID(ctx, l.SpecID)
	if err != nil {
		return "", "", err
	}
	if spec.Visibility != quire.OpenAPIPublic {
		denied := quire.Errorf(quire.EFORBIDDEN, "the link is invalid or has expired; read the specification's content again for a fresh link")
		if l.Signature == "" || o.s.now().Unix() >= l.Expires {
			return "", "", denied
		}
		sig, err := decodeSignature(l.Signature)
		if err != nil {
			return "", "", denied
		}
		key, err := o.s.downloadKey(ctx)
		if err != nil {
			return "", "", err
		}
		if !hmac.Equal(sig, l.mac(key)) {
			return "", "", denied
		}
	}
	v, err := o.version(ctx, spec, l.VersionID)
	if err != nil {
		return "", "", err
	}
	return v.Main, v.Files[v.Main], nil
}
