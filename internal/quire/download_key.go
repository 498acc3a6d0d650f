package quire

import "context"

// DownloadKeyStore keeps the server key that signs download links. It
// lives in the database so that every replica signs and checks links with
// the same key; replacing it revokes every link signed before.
type DownloadKeyStore interface {
	// DownloadKey returns the stored key. When none is stored yet it
	// stores candidate and returns it; of replicas racing to store one,
	// all get the key that won.
	DownloadKey(ctx context.Context, candidate []byte) ([]byte, error)
	// ReplaceDownloadKey stores key in place of the current one (or as
	// the first).
	ReplaceDownloadKey(ctx context.Context, key []byte) error
}

// ServerKeyStore keeps named server secrets in the database, shared by
// every replica.
type ServerKeyStore interface {
	// ServerKey returns the key stored under name. When none is stored yet
	// it stores candidate and returns it; of replicas racing to store one,
	// all get the key that won.
	ServerKey(ctx context.Context, name string, candidate []byte) ([]byte, error)
}
