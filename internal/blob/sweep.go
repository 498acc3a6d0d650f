package blob

import (
	"os"
	"path/filepath"
	"time"
)

// staleAge is how old a temporary file must be before sweepTemp removes it;
// long enough that no upload still in progress is touched.
const staleAge = 24 * time.Hour

// sweepTemp removes files older than staleAge from dir, the temporary
// directory of a file store, which a crash mid-upload can leave behind.
// Errors are ignored: the sweep only reclaims space.
func sweepTemp(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-staleAge)
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || info.ModTime().After(cutoff) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}
