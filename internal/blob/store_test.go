package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
)

// sha returns the hex SHA-256 of b.
func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// testStore runs the behaviour every Store must have against s.
func testStore(t *testing.T, s Store) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("quire blob\n"), 100_000) // ~1.1 MB

	t.Run("PutOpen", func(t *testing.T) {
		key, size, err := s.Put(ctx, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if key != sha(data) || size != int64(len(data)) {
			t.Fatalf("Put = %s, %d; want %s, %d", key, size, sha(data), len(data))
		}
		assertContent(t, s, key, data)
		ok, err := s.Exists(ctx, key)
		if err != nil || !ok {
			t.Fatalf("Exists = %v, %v; want true", ok, err)
		}
		key2, size2, err := s.Put(ctx, bytes.NewReader(data), -1)
		if err != nil || key2 != key || size2 != size {
			t.Fatalf("second Put = %s, %d, %v", key2, size2, err)
		}
		assertContent(t, s, key, data)
	})

	t.Run("Empty", func(t *testing.T) {
		key, size, err := s.Put(ctx, strings.NewReader(""), 0)
		if err != nil || key != sha(nil) || size != 0 {
			t.Fatalf("Put empty = %s, %d, %v", key, size, err)
		}
		assertContent(t, s, key, nil)
	})

	t.Run("NotFound", func(t *testing.T) {
		key := sha([]byte("never stored"))
		if _, _, err := s.Open(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Open = %v; want ErrNotFound", err)
		}
		ok, err := s.Exists(ctx, key)
		if err != nil || ok {
			t.Fatalf("Exists = %v, %v; want false", ok, err)
		}
	})

	t.Run("TooLarge", func(t *testing.T) {
		big := []byte("0123456789 too large")
		_, _, err := s.Put(ctx, bytes.NewReader(big), int64(len(big)-1))
		var tl *TooLargeError
		if !errors.As(err, &tl) || tl.Max != int64(len(big)-1) {
			t.Fatalf("Put = %v; want *TooLargeError", err)
		}
		if ok, err := s.Exists(ctx, sha(big)); err != nil || ok {
			t.Fatalf("Exists after too large = %v, %v", ok, err)
		}
		if _, _, err := s.Put(ctx, bytes.NewReader(big), int64(len(big))); err != nil {
			t.Fatalf("Put at exact limit: %v", err)
		}
	})

	t.Run("ReadError", func(t *testing.T) {
		boom := errors.New("boom")
		r := io.MultiReader(strings.NewReader("partial"), errReader{boom})
		if _, _, err := s.Put(ctx, r, -1); !errors.Is(err, boom) {
			t.Fatalf("Put = %v; want boom", err)
		}
		if ok, _ := s.Exists(ctx, sha([]byte("partial"))); ok {
			t.Fatal("partial data stored")
		}
	})

	t.Run("ConcurrentSame", func(t *testing.T) {
		same := bytes.Repeat([]byte("same bytes "), 50_000)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		keys := make([]string, 8)
		for i := range errs {
			wg.Go(func() {
				keys[i], _, errs[i] = s.Put(ctx, bytes.NewReader(same), -1)
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil || keys[i] != sha(same) {
				t.Fatalf("Put %d = %s, %v", i, keys[i], err)
			}
		}
		assertContent(t, s, sha(same), same)
	})

	t.Run("List", func(t *testing.T) {
		// The subtests before stored these, and nothing else: the temporary
		// objects of the failed and concurrent uploads are not listed.
		want := map[string]int64{
			sha(data): int64(len(data)), sha(nil): 0,
			sha([]byte("0123456789 too large")):              20,
			sha(bytes.Repeat([]byte("same bytes "), 50_000)): 11 * 50_000,
		}
		got := map[string]int64{}
		var keys []string
		err := s.List(ctx, func(key string, size int64) error {
			got[key] = size
			keys = append(keys, key)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("List = %v; want %v", got, want)
		}
		if !slices.IsSorted(keys) {
			t.Errorf("List order %v; want the keys in order", keys)
		}
		stop := errors.New("stop")
		n := 0
		err = s.List(ctx, func(string, int64) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("List stopping at the first error = %v after %d calls", err, n)
		}
	})

	t.Run("InvalidKeys", func(t *testing.T) {
		for _, key := range invalidKeys {
			if _, _, err := s.Open(ctx, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("Open(%q) = %v; want ErrInvalidKey", key, err)
			}
			if _, err := s.Exists(ctx, key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("Exists(%q) = %v; want ErrInvalidKey", key, err)
			}
		}
	})
}

// invalidKeys are keys Open and Exists must refuse.
var invalidKeys = []string{
	"",
	"abc",
	strings.Repeat("A", 64),
	strings.Repeat("a", 63),
	strings.Repeat("a", 65),
	strings.Repeat("g", 64),
	"../" + strings.Repeat("a", 61),
	"/" + strings.Repeat("a", 63),
	strings.Repeat("a", 62) + "/.",
	"tmp/" + strings.Repeat("a", 60),
}

// assertContent checks that key opens to want.
func assertContent(t *testing.T, s Store, key string, want []byte) {
	t.Helper()
	r, size, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open(%s): %v", key, err)
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(len(want)) || !bytes.Equal(got, want) {
		t.Fatalf("Open(%s) = %d bytes (size %d); want %d", key, len(got), size, len(want))
	}
}

// errReader fails every read with err.
type errReader struct{ err error }

// Read implements io.Reader.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestValidKey(t *testing.T) {
	if !ValidKey(sha([]byte("x"))) {
		t.Error("valid key refused")
	}
	for _, k := range invalidKeys {
		if ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}
