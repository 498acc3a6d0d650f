package blob

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// fakeS3 starts an in-memory S3-compatible server on 127.0.0.1 holding an
// empty bucket and returns the store URL for it.
func fakeS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("quire-test"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	q := url.Values{
		"region":         {"us-east-1"},
		"endpoint":       {srv.URL},
		"use_path_style": {"true"},
	}
	return "s3://quire-test?" + q.Encode()
}

func TestS3Store(t *testing.T) {
	isolateAWS(t)
	s, err := Open(context.Background(), fakeS3(t), "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	testStore(t, s)

	assertOnlyBlobs(t, s, 4)
}

func TestS3StoreMultipart(t *testing.T) {
	isolateAWS(t)
	s, err := Open(context.Background(), fakeS3(t), "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	// Larger than the uploader's part size, so it is sent in parts.
	data := bytes.Repeat([]byte("0123456789abcdef"), 12<<20/16)
	_, _, err = s.Put(ctx, bytes.NewReader(data), int64(len(data))-1)
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("Put = %v; want *TooLargeError", err)
	}
	key, size, err := s.Put(ctx, bytes.NewReader(data), int64(len(data)))
	if err != nil || key != sha(data) || size != int64(len(data)) {
		t.Fatalf("Put = %s, %d, %v", key, size, err)
	}
	assertContent(t, s, key, data)
	assertOnlyBlobs(t, s, 1)
}

// assertOnlyBlobs checks that the bucket behind s holds want objects, all
// blobs: temporary objects are removed.
func assertOnlyBlobs(t *testing.T, s Store, want int) {
	t.Helper()
	iter := s.(*bucketStore).bucket.List(nil)
	n := 0
	for {
		obj, err := iter.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(obj.Key) != len("sha256/xx/")+KeySize || obj.Key[:7] != "sha256/" {
			t.Errorf("unexpected object %s", obj.Key)
		}
	}
	if n != want {
		t.Errorf("bucket holds %d objects; want %d", n, want)
	}
}
