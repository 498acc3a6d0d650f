package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"io"
	"strconv"
	"sync"
	"time"

	"quire/internal/quire"
)

// Download links.
const (
	// downloadLinkTTL is the least time a signed download link works.
	downloadLinkTTL = 3 * time.Hour
	// downloadLinkStep rounds expiries up to a multiple of it, so that a
	// file's link stays the same for that long and caches can reuse it.
	downloadLinkStep = time.Hour
	// downloadKeyTTL is how long a replica reuses the key it read; a
	// rotated key reaches every replica within this time.
	downloadKeyTTL = 30 * time.Second
	// downloadKeySize is the size of a generated key, in bytes.
	downloadKeySize = 32
)

// DownloadLink is a signed, expiring permission to download one file of a
// revision without a token. Its signature is an HMAC-SHA256, under the
// server's download key, of the space, revision and file ids and the
// expiry; rotating the key revokes every link.
type DownloadLink struct {
	SpaceID    string
	RevisionID string
	FileID     string
	// Name is the file's name, which the link's URL ends with.
	Name string
	// Expires is when the link stops working, in Unix seconds.
	Expires int64
	// Signature is the HMAC in unpadded base64url.
	Signature string
}

// downloadKeyCache keeps the download key a replica last read.
type downloadKeyCache struct {
	mu    sync.Mutex
	key   []byte
	until time.Time
}

// DownloadSigner signs download links with one key and one expiry, for
// every file of an answer.
type DownloadSigner struct {
	key     []byte
	expires int64
}

// DownloadSigner returns a signer whose links work for at least
// downloadLinkTTL. Expiries are rounded up to a multiple of
// downloadLinkStep.
func (s *Service) DownloadSigner(ctx context.Context) (*DownloadSigner, error) {
	key, err := s.downloadKey(ctx)
	if err != nil {
		return nil, err
	}
	step := int64(downloadLinkStep / time.Second)
	exp := s.now().Add(downloadLinkTTL).Unix()
	exp += (step - exp%step) % step
	return &DownloadSigner{key: key, expires: exp}, nil
}

// Sign returns the download link of a file of a revision of a space.
func (g *DownloadSigner) Sign(spaceID, revisionID string, f *quire.File) DownloadLink {
	l := DownloadLink{SpaceID: spaceID, RevisionID: revisionID, FileID: f.ID, Name: f.Name, Expires: g.expires}
	l.Signature = base64.RawURLEncoding.EncodeToString(l.mac(g.key))
	return l
}

// OpenDownload checks a download link and opens the file it names. A link
// past its expiry, or whose signature does not match, is refused with
// EFORBIDDEN; a file that no longer exists (its space deleted, or a name
// that is not the file's) is ENOTFOUND.
func (s *Service) OpenDownload(ctx context.Context, l DownloadLink) (*quire.File, io.ReadCloser, int64, error) {
	denied := quire.Errorf(quire.EFORBIDDEN, "the download link is invalid or has expired; read the file again for a fresh link")
	if s.now().Unix() >= l.Expires {
		return nil, nil, 0, denied
	}
	sig, err := decodeSignature(l.Signature)
	if err != nil {
		return nil, nil, 0, denied
	}
	key, err := s.downloadKey(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	if !hmac.Equal(sig, l.mac(key)) {
		return nil, nil, 0, denied
	}
	c, err := s.Content(ctx, ContentRef{SpaceID: l.SpaceID, Revision: l.RevisionID})
	if err != nil {
		return nil, nil, 0, err
	}
	if c.Space.DeletedAt != nil {
		return nil, nil, 0, quire.NotFound("file")
	}
	f, err := c.File(ctx, l.FileID)
	if err != nil {
		return nil, nil, 0, err
	}
	if f.Name != l.Name {
		return nil, nil, 0, quire.NotFound("file")
	}
	r, size, err := s.OpenBlob(ctx, f.Blob)
	if err != nil {
		return nil, nil, 0, err
	}
	return f, r, size, nil
}

// RotateDownloadKey replaces the download key with a new random one, which
// revokes every download link given out so far.
func (s *Service) RotateDownloadKey(ctx context.Context) error {
	key := make([]byte, downloadKeySize)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	if err := s.store.ReplaceDownloadKey(ctx, key); err != nil {
		return err
	}
	s.downloadKeys.mu.Lock()
	s.downloadKeys.key = nil
	s.downloadKeys.mu.Unlock()
	return nil
}

// downloadKey returns the download key, from the cache while it is fresh,
// else from the store, which creates it on first use.
func (s *Service) downloadKey(ctx context.Context) ([]byte, error) {
	c := s.downloadKeys
	now := s.now()
	c.mu.Lock()
	if c.key != nil && now.Before(c.until) {
		key := c.key
		c.mu.Unlock()
		return key, nil
	}
	c.mu.Unlock()
	candidate := make([]byte, downloadKeySize)
	if _, err := rand.Read(candidate); err != nil {
		return nil, err
	}
	key, err := s.store.DownloadKey(ctx, candidate)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.key, c.until = key, now.Add(downloadKeyTTL)
	c.mu.Unlock()
	return key, nil
}

// mac computes the link's HMAC-SHA256 under key.
func (l DownloadLink) mac(key []byte) []byte {
	return linkMAC(key, "quire download link v1", l.SpaceID, l.RevisionID, l.FileID, strconv.FormatInt(l.Expires, 10))
}

// decodeSignature decodes a signature written in unpadded URL-safe
// base64, taking only its one canonical spelling: the last character's
// unused bits must be zero, so no two strings pass as one signature.
func decodeSignature(s string) ([]byte, error) {
	return base64.RawURLEncoding.Strict().DecodeString(s)
}

// linkMAC is the HMAC-SHA256 under key of the parts of a signed link,
// each written with its length first, so that no two different lists of
// parts sign the same bytes. The first part names the kind of link.
func linkMAC(key []byte, parts ...string) []byte {
	h := hmac.New(sha256.New, key)
	for _, part := range parts {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(part)))])
		h.Write([]byte(part))
	}
	return h.Sum(nil)
}
