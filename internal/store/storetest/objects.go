package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"quire/internal/quire"
)

// object returns a content-addressed object: its key and bytes.
func object(content string) (string, []byte) {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:]), []byte(content)
}

func objectTests() []test {
	return []test{
		{"objects/put and get", func(t *testing.T, f *fixture) {
			k1, b1 := object("one")
			k2, b2 := object("two")
			kEmpty, bEmpty := object("")
			kMissing, _ := object("missing")
			must(t, f.st.PutObjects(ctx(t), map[string][]byte{k1: b1, k2: b2, kEmpty: bEmpty}))
			got, err := f.st.Objects(ctx(t), []string{k1, kMissing, k2, k1, kEmpty})
			must(t, err)
			equal(t, "objects", got, map[string][]byte{k1: b1, k2: b2, kEmpty: {}})
			// A stored key keeps its first bytes.
			must(t, f.st.PutObjects(ctx(t), map[string][]byte{k1: []byte("other"), kMissing: []byte("late")}))
			got, err = f.st.Objects(ctx(t), []string{k1, kMissing})
			must(t, err)
			equal(t, "after a second put", got, map[string][]byte{k1: b1, kMissing: []byte("late")})
			got, err = f.st.Objects(ctx(t), nil)
			must(t, err)
			equal(t, "no keys", len(got), 0)
			must(t, f.st.PutObjects(ctx(t), nil))
		}},
		{"objects/many in one call", func(t *testing.T, f *fixture) {
			const n = 1234
			objs := map[string][]byte{}
			keys := []string{}
			for i := range n {
				k, b := object(fmt.Sprintf("object %d", i))
				objs[k] = b
				keys = append(keys, k)
			}
			must(t, f.st.PutObjects(ctx(t), objs))
			for _, size := range []int{1, 3, 500, 501, n} {
				got, err := f.st.Objects(ctx(t), keys[:size])
				must(t, err)
				equal(t, fmt.Sprintf("%d objects", size), len(got), size)
				for _, k := range keys[:size] {
					if string(got[k]) != string(objs[k]) {
						t.Fatalf("object %s: got %q, want %q", k, got[k], objs[k])
					}
				}
			}
		}},
		{"objects/rolled back with the transaction", func(t *testing.T, f *fixture) {
			boom := errors.New("boom")
			k, b := object("rolled back")
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				must(t, st.PutObjects(ctx(t), map[string][]byte{k: b}))
				got, err := st.Objects(ctx(t), []string{k})
				must(t, err)
				equal(t, "read inside", len(got), 1)
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the function's error", err)
			}
			got, err := f.st.Objects(ctx(t), []string{k})
			must(t, err)
			equal(t, "after rollback", len(got), 0)
		}},
	}
}
