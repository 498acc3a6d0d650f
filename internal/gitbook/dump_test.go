package gitbook

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDumpGenerated(t *testing.T) {
	dir := os.Getenv("GITBOOK_DUMP")
	if dir == "" {
		t.Skip()
	}
	for name, data := range mustWrite(t, genSpace(t, 20)) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
}
