package blob

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"gocloud.dev/blob/fileblob"
	"gocloud.dev/blob/s3blob"
)

// dirMode is the mode of directories the file store creates.
const dirMode = 0o700

// Open opens the store named by rawURL:
//
//   - "" keeps blobs in <dataDir>/blobs, created with mode 0700;
//   - "file:///abs/path" keeps blobs in that directory, created if missing;
//   - "s3://bucket?region=...&endpoint=...&use_path_style=true" keeps blobs
//     in an S3-compatible bucket; the query accepts whatever the gocloud.dev
//     s3blob URL opener accepts, and credentials come from the usual AWS
//     environment variables and files.
//
// Any other scheme is an error.
func Open(ctx context.Context, rawURL string, dataDir string) (Store, error) {
	if rawURL == "" {
		if dataDir == "" {
			return nil, errors.New("blob: no blob URL and no data directory")
		}
		return openDir(filepath.Join(dataDir, "blobs"))
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("blob: parse URL: %w", err)
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("blob: file URL %q must not name a host", rawURL)
		}
		if u.RawQuery != "" {
			return nil, fmt.Errorf("blob: file URL %q takes no query", rawURL)
		}
		if u.Path == "" || !filepath.IsAbs(filepath.FromSlash(u.Path)) {
			return nil, fmt.Errorf("blob: file URL %q needs an absolute path", rawURL)
		}
		return openDir(filepath.Clean(filepath.FromSlash(u.Path)))
	case s3blob.Scheme:
		if u.Host == "" {
			return nil, fmt.Errorf("blob: s3 URL %q names no bucket", rawURL)
		}
		b, err := (&s3blob.URLOpener{}).OpenBucketURL(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("blob: open s3 bucket %q: %w", u.Host, err)
		}
		return &bucketStore{bucket: b}, nil
	default:
		return nil, fmt.Errorf("blob: unsupported URL scheme %q (want file or s3)", u.Scheme)
	}
}

// openDir opens a store kept in the directory dir, creating it if needed.
func openDir(dir string) (Store, error) {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("blob: create directory: %w", err)
	}
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{
		DirFileMode: dirMode,
		// Partial files stay under tmp/ in dir, so a rename never crosses
		// file systems and sweepTemp finds what a crash leaves behind.
		NoTempDir: true,
		Metadata:  fileblob.MetadataDontWrite,
	})
	if err != nil {
		return nil, fmt.Errorf("blob: open directory: %w", err)
	}
	sweepTemp(filepath.Join(dir, filepath.FromSlash(tempPrefix)))
	return &bucketStore{bucket: b, dir: dir}, nil
}
