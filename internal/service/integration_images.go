package service

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"

	"quire/internal/quire"
)

// imageDigestLen is how many hex digits of an image's SHA-256 name it in
// its address: enough that nobody finds an image without being given
// its address, so a private integration's images stay as private as its
// listing.
const imageDigestLen = 32

// integrationImagesCacheSize is how many publications' image digests
// are kept.
const integrationImagesCacheSize = 1024

// IntegrationImages names the images an integration published by their
// digests: the icon ("" for none) and the preview images, in order.
type IntegrationImages struct {
	Icon     string
	Previews []string
}

// imageDigest names a published image: its base64 text as published.
func imageDigest(b64 string) string {
	sum := sha256.Sum256([]byte(b64))
	return hex.EncodeToString(sum[:])[:imageDigestLen]
}

// Images returns the digests of an integration's images. A publication
// never changes once made, so they are kept per id and version.
func (n *Integrations) Images(in *quire.Integration) IntegrationImages {
	key := in.ID + "@" + strconv.FormatInt(in.Version, 10)
	if imgs, ok := n.images.Get(key); ok {
		return imgs
	}
	var imgs IntegrationImages
	if in.Icon != "" {
		imgs.Icon = imageDigest(in.Icon)
	}
	for _, p := range in.Manifest.PreviewImages {
		imgs.Previews = append(imgs.Previews, imageDigest(p))
	}
	n.images.Add(key, imgs)
	return imgs
}

// Image returns the bytes of the published image of the named
// integration with the given digest, whoever asks: its address is the
// secret. ENOTFOUND when the integration has no such image.
func (n *Integrations) Image(ctx context.Context, name, digest string) ([]byte, error) {
	in, err := n.s.store.Integration(ctx, name)
	if err != nil {
		return nil, err
	}
	imgs := n.Images(in)
	b64 := ""
	if digest == imgs.Icon && imgs.Icon != "" {
		b64 = in.Icon
	}
	for i, d := range imgs.Previews {
		if b64 == "" && d == digest {
			b64 = in.Manifest.PreviewImages[i]
		}
	}
	if b64 == "" {
		return nil, quire.NotFound("image")
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, quire.NotFound("image") // checked when published
	}
	return b, nil
}
