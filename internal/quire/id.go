package quire

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"time"
)

// idAlphabet is a lower-case base32 alphabet in ASCII order, so ids sort by
// creation time.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns a new opaque, unique identifier: 9 characters of
// millisecond time followed by 12 random characters. Ids made later sort
// after ids made earlier (within the same millisecond, in random order).
func NewID() string {
	var b [21]byte
	ms := uint64(time.Now().UnixMilli())
	for i := 8; i >= 0; i-- {
		b[i] = idAlphabet[ms&31]
		ms >>= 5
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	n := binary.BigEndian.Uint64(r[:])
	for i := 9; i < 21; i++ {
		b[i] = idAlphabet[n&31]
		n >>= 5
	}
	return string(b[:])
}

// tokenPrefix starts every API token, so leaked tokens are easy to spot.
const tokenPrefix = "qt_"

// NewToken makes a token for a user. It returns the token to hand to the
// user once (never stored) and the record to store, which keeps only a hash
// of the secret part.
func NewToken(userID string, now time.Time) (string, *Token) {
	var secret [32]byte
	_, _ = rand.Read(secret[:])
	s := hex.EncodeToString(secret[:])
	t := &Token{ID: NewID(), UserID: userID, Name: DefaultTokenName, Hash: HashSecret(s), CreatedAt: now}
	return tokenPrefix + t.ID + "_" + s, t
}

// ParseToken splits a presented token into its id and secret.
func ParseToken(s string) (id, secret string, ok bool) {
	rest, ok := strings.CutPrefix(s, tokenPrefix)
	if !ok {
		return "", "", false
	}
	id, secret, ok = strings.Cut(rest, "_")
	if !ok || id == "" || secret == "" {
		return "", "", false
	}
	return id, secret, true
}

// HashSecret hashes a token secret for storage.
func HashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CheckSecret compares a presented secret with a stored hash in constant
// time.
func CheckSecret(t *Token, secret string) bool {
	return subtle.ConstantTimeCompare(t.Hash, HashSecret(secret)) == 1
}
