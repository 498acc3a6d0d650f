package blob

import (
	"context"
	"fmt"
	"io"
	"path"

	gcblob "gocloud.dev/blob"
)

// List implements Store. Objects under the prefix that are not blobs
// (anything but sha256/<first two hex digits>/<key>) are skipped.
func (s *bucketStore) List(ctx context.Context, fn func(key string, size int64) error) error {
	iter := s.bucket.List(&gcblob.ListOptions{Prefix: blobPrefix})
	for {
		obj, err := iter.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("blob: list: %w", err)
		}
		key := path.Base(obj.Key)
		if obj.IsDir || !ValidKey(key) || obj.Key != objectKey(key) {
			continue
		}
		if err := fn(key, obj.Size); err != nil {
			return err
		}
	}
}
