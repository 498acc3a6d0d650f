package blob

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// tempPrefix is the bucket prefix under which Put streams data before its
// hash is known. An S3 lifecycle rule on it can expire uploads cut short.
const tempPrefix = "tmp/"

// cleanupTimeout bounds the removal of a temporary object once the caller's
// context may be gone.
const cleanupTimeout = 30 * time.Second

// bucketStore is a Store kept in a gocloud.dev bucket.
type bucketStore struct {
	bucket *gcblob.Bucket
	// dir is the root directory of a file bucket, where temporary files
	// are renamed into place; empty for other buckets, where they are
	// copied.
	dir string
}

// Put implements Store.
func (s *bucketStore) Put(ctx context.Context, r io.Reader, max int64) (string, int64, error) {
	tmp, err := tempKey()
	if err != nil {
		return "", 0, err
	}
	sum, size, err := s.writeTemp(ctx, tmp, r, max)
	if err != nil {
		return "", 0, err
	}
	key := hex.EncodeToString(sum)
	if err := s.promote(ctx, tmp, objectKey(key)); err != nil {
		s.removeTemp(ctx, tmp)
		return "", 0, err
	}
	return key, size, nil
}

// writeTemp streams at most max bytes of r to the object tmp and returns
// their SHA-256 and count. On error no object is left behind.
func (s *bucketStore) writeTemp(ctx context.Context, tmp string, r io.Reader, max int64) ([]byte, int64, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(wctx, tmp, &gcblob.WriterOptions{DisableContentTypeDetection: true})
	if err != nil {
		return nil, 0, fmt.Errorf("blob: start write: %w", err)
	}
	src := r
	if max >= 0 {
		src = io.LimitReader(r, max+1)
	}
	h := sha256.New()
	n, err := io.Copy(w, io.TeeReader(src, h))
	if err == nil && max >= 0 && n > max {
		err = &TooLargeError{Max: max}
	}
	if err != nil {
		// Cancelling before Close aborts the write.
		cancel()
		_ = w.Close()
		s.removeTemp(ctx, tmp)
		if _, ok := err.(*TooLargeError); ok {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("blob: write: %w", err)
	}
	if err := w.Close(); err != nil {
		s.removeTemp(ctx, tmp)
		return nil, 0, fmt.Errorf("blob: write: %w", err)
	}
	return h.Sum(nil), n, nil
}

// promote moves the object tmp to dst, or drops it when dst already holds
// the same bytes.
func (s *bucketStore) promote(ctx context.Context, tmp, dst string) error {
	ok, err := s.bucket.Exists(ctx, dst)
	if err != nil {
		return fmt.Errorf("blob: check existing: %w", err)
	}
	if ok {
		s.removeTemp(ctx, tmp)
		return nil
	}
	if s.dir != "" {
		return s.rename(tmp, dst)
	}
	if err := s.bucket.Copy(ctx, dst, tmp, nil); err != nil {
		return fmt.Errorf("blob: copy into place: %w", err)
	}
	s.removeTemp(ctx, tmp)
	return nil
}

// rename moves the file of object tmp to that of dst within s.dir.
// Concurrent renames of equal content to the same dst are harmless.
func (s *bucketStore) rename(tmp, dst string) error {
	to := filepath.Join(s.dir, filepath.FromSlash(dst))
	if err := os.MkdirAll(filepath.Dir(to), dirMode); err != nil {
		return fmt.Errorf("blob: create directory: %w", err)
	}
	if err := os.Rename(filepath.Join(s.dir, filepath.FromSlash(tmp)), to); err != nil {
		return fmt.Errorf("blob: move into place: %w", err)
	}
	return nil
}

// removeTemp deletes the object tmp if it exists, ignoring errors: what is
// left is only wasted space under tempPrefix.
func (s *bucketStore) removeTemp(ctx context.Context, tmp string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = s.bucket.Delete(ctx, tmp)
}

// Open implements Store.
func (s *bucketStore) Open(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	if err := checkKey(key); err != nil {
		return nil, 0, err
	}
	r, err := s.bucket.NewReader(ctx, objectKey(key), nil)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, 0, ErrNotFound
		}
		return nil, 0, fmt.Errorf("blob: open: %w", err)
	}
	return r, r.Size(), nil
}

// Exists implements Store.
func (s *bucketStore) Exists(ctx context.Context, key string) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	ok, err := s.bucket.Exists(ctx, objectKey(key))
	if err != nil {
		return false, fmt.Errorf("blob: exists: %w", err)
	}
	return ok, nil
}

// Close implements Store.
func (s *bucketStore) Close() error {
	return s.bucket.Close()
}

// tempKey returns a fresh, unguessable key under tempPrefix.
func tempKey() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("blob: random temp name: %w", err)
	}
	return tempPrefix + hex.EncodeToString(b[:]), nil
}
