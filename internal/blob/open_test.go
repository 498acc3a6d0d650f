package blob

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenURL(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	abs := filepath.Join(t.TempDir(), "nested", "store")
	isolateAWS(t)

	ok := []struct {
		name, url, dataDir, wantDir string
	}{
		{"default", "", dataDir, filepath.Join(dataDir, "blobs")},
		{"file", "file://" + filepath.ToSlash(abs), "", abs},
		{"file localhost", "file://localhost" + filepath.ToSlash(abs), "", abs},
		{"s3", "s3://bucket?region=us-east-1&endpoint=http://127.0.0.1:1&use_path_style=true&anonymous=true", "", ""},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(ctx, c.url, c.dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			bs, isBucket := s.(*bucketStore)
			if !isBucket || bs.dir != c.wantDir {
				t.Fatalf("Open(%q) = %#v; want directory %q", c.url, s, c.wantDir)
			}
			if c.wantDir != "" {
				if info, err := os.Stat(c.wantDir); err != nil || !info.IsDir() {
					t.Fatalf("directory not created: %v", err)
				}
			}
		})
	}

	bad := []struct {
		name, url, dataDir, wantErr string
	}{
		{"no data dir", "", "", "no data directory"},
		{"relative path", "relative/path", dataDir, `scheme ""`},
		{"gs", "gs://bucket", dataDir, `scheme "gs"`},
		{"http", "http://example.com/x", dataDir, `scheme "http"`},
		{"file relative", "file:relative", dataDir, "absolute path"},
		{"file host", "file://host/abs", dataDir, "host"},
		{"file query", "file:///abs?create_dir=1", dataDir, "query"},
		{"s3 no bucket", "s3:///?region=us-east-1", dataDir, "no bucket"},
		{"s3 unknown param", "s3://bucket?bogus=1", dataDir, "bogus"},
		{"s3 bad path style", "s3://bucket?use_path_style=maybe", dataDir, "use_path_style"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(ctx, c.url, c.dataDir)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded", c.url)
			}
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("Open(%q) = %v; want it to mention %q", c.url, err, c.wantErr)
			}
		})
	}
}

// isolateAWS keeps the AWS SDK from reading the user's configuration and
// credentials.
func isolateAWS(t *testing.T) {
	t.Helper()
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}
