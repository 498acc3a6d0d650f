package sqlstore

import (
	"context"
	"slices"
)

// downloadKeyName names the download link key in server_keys.
const downloadKeyName = "download"

// DownloadKey returns the stored download key, storing candidate first
// when there is none. The insert does nothing when another replica stored
// a key first, and the read that follows returns the one that won.
func (s *Store) DownloadKey(ctx context.Context, candidate []byte) ([]byte, error) {
	return s.ServerKey(ctx, downloadKeyName, candidate)
}

// ServerKey returns the key stored under name, storing candidate first
// when there is none, in the way DownloadKey does.
func (s *Store) ServerKey(ctx context.Context, name string, candidate []byte) ([]byte, error) {
	var key []byte
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "INSERT INTO server_keys (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
			name, slices.Clone(candidate), millis(tx.now())); err != nil {
			return err
		}
		return tx.queryRow(ctx, "SELECT secret FROM server_keys WHERE name = ?", name).Scan(&key)
	})
	return key, wrap("server key "+name, err)
}

// ReplaceDownloadKey stores key as the download key.
func (s *Store) ReplaceDownloadKey(ctx context.Context, key []byte) error {
	_, err := s.exec(ctx, "INSERT INTO server_keys (name, secret, created_at) VALUES (?, ?, ?) "+
		"ON CONFLICT (name) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at",
		downloadKeyName, slices.Clone(key), millis(s.now()))
	return wrap("replace download key", err)
}
