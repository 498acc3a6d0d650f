// Package secret seals small secrets, such as the credentials inside a Git
// remote's URL, before they are stored: AES-256-GCM under a server key,
// with a fresh random nonce per seal.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
)

// KeySize is the size of a sealing key, in bytes.
const KeySize = 32

// prefix marks sealed text and names its format, so that a later format
// can be told apart.
const prefix = "v1."

// ErrOpen is returned for sealed text that does not open under the key:
// tampered with, truncated, or sealed under another key.
var ErrOpen = errors.New("secret: sealed text does not open under this key")

// Box seals and opens secrets under one key. It is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// New returns a Box for a KeySize-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	return &Box{aead: aead}, nil
}

// NewKey returns a random key.
func NewKey() []byte {
	k := make([]byte, KeySize)
	rand.Read(k) // never fails
	return k
}

// Seal encrypts plaintext bound to context (for example the record it
// belongs to, so that sealed text cannot be moved to another record) and
// returns printable sealed text.
func (b *Box) Seal(plaintext, context []byte) string {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	rand.Read(nonce) // never fails
	out := b.aead.Seal(nonce, nonce, plaintext, context)
	return prefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open decrypts text sealed by Seal with the same context.
func (b *Box) Open(sealed string, context []byte) ([]byte, error) {
	if len(sealed) < len(prefix) || sealed[:len(prefix)] != prefix {
		return nil, ErrOpen
	}
	raw, err := base64.RawURLEncoding.DecodeString(sealed[len(prefix):])
	if err != nil || len(raw) < b.aead.NonceSize() {
		return nil, ErrOpen
	}
	n := b.aead.NonceSize()
	out, err := b.aead.Open(nil, raw[:n], raw[n:], context)
	if err != nil {
		return nil, ErrOpen
	}
	return out, nil
}
