package cli

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"

	"quire/internal/secret"
)

// readSecretKey reads the sealing key from path: secret.KeySize raw bytes,
// or their standard or URL-safe base64 (surrounding space ignored). An
// empty path returns nil: the key kept in the database is used.
func readSecretKey(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--secret-key-file: %w", err)
	}
	if len(b) == secret.KeySize {
		return b, nil
	}
	text := bytes.TrimSpace(b)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(string(text)); err == nil && len(k) == secret.KeySize {
			return k, nil
		}
	}
	return nil, fmt.Errorf("--secret-key-file %s: want %d bytes, raw or in base64", path, secret.KeySize)
}
