package content

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"
)

func newTestTrie() (trie, *memObjects) {
	st := newMemObjects()
	return trie{r: &reader{store: st, cache: newCache(1 << 20)}}, st
}

func TestTrieAgainstMap(t *testing.T) {
	ctx := context.Background()
	tr, _ := newTestTrie()
	rng := rand.New(rand.NewSource(7))
	model := map[string]string{}
	root := ""
	for i := 0; i < 4000; i++ {
		k := fmt.Sprintf("k%d", rng.Intn(1500))
		var err error
		if rng.Intn(3) == 0 {
			delete(model, k)
			root, err = tr.Delete(ctx, root, k)
		} else {
			v := fmt.Sprintf("v%d", rng.Intn(5))
			model[k] = v
			root, err = tr.Set(ctx, root, k, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 1500; i++ {
		k := fmt.Sprintf("k%d", i)
		v, ok, err := tr.Get(ctx, root, k)
		if err != nil || ok != (model[k] != "") || v != model[k] {
			t.Fatalf("Get(%s) = %q %v %v, want %q", k, v, ok, err, model[k])
		}
	}
	seen := map[string]string{}
	if err := tr.Walk(ctx, root, func(k, v string) error { seen[k] = v; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(model) {
		t.Fatalf("walk saw %d keys, want %d", len(seen), len(model))
	}
	// The same contents built in another order give the same root.
	keys := make([]string, 0, len(model))
	for k := range model {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	other := ""
	for _, k := range keys {
		var err error
		if other, err = tr.Set(ctx, other, k, model[k]); err != nil {
			t.Fatal(err)
		}
	}
	if tr.seal(other) != tr.seal(root) {
		t.Fatal("same contents, different roots: the trie is not canonical")
	}
}

func TestTrieDiff(t *testing.T) {
	ctx := context.Background()
	tr, _ := newTestTrie()
	rng := rand.New(rand.NewSource(3))
	base := ""
	for i := 0; i < 2000; i++ {
		var err error
		if base, err = tr.Set(ctx, base, fmt.Sprintf("p%d", i), "x"); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 20; round++ {
		want := map[string][2]string{}
		b := base
		for j := 0; j < 1+rng.Intn(30); j++ {
			k := fmt.Sprintf("p%d", rng.Intn(2300))
			old, _, err := tr.Get(ctx, base, k)
			if err != nil {
				t.Fatal(err)
			}
			if rng.Intn(2) == 0 {
				b, err = tr.Delete(ctx, b, k)
				want[k] = [2]string{old, ""}
			} else {
				v := fmt.Sprintf("y%d", j)
				b, err = tr.Set(ctx, b, k, v)
				want[k] = [2]string{old, v}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for k, w := range want {
			if w[0] == w[1] {
				delete(want, k)
			}
		}
		got := map[string][2]string{}
		if err := tr.Diff(ctx, base, b, func(k, va, vb string) error { got[k] = [2]string{va, vb}; return nil }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: diff\n got %v\nwant %v", round, got, want)
		}
	}
}

// TestTrieEditCostFollowsChange checks that one change writes a handful of
// nodes whether the trie holds a hundred keys or ten thousand: at least
// the new root, at most one node per level.
func TestTrieEditCostFollowsChange(t *testing.T) {
	ctx := context.Background()
	written := func(n int) int {
		tr, st := newTestTrie()
		root := ""
		for i := 0; i < n; i++ {
			var err error
			if root, err = tr.Set(ctx, root, fmt.Sprintf("page%d", i), "x"); err != nil {
				t.Fatal(err)
			}
		}
		root = tr.seal(root)
		if err := st.PutObjects(ctx, tr.r.pending); err != nil {
			t.Fatal(err)
		}
		tr.r.pending = nil
		changed, err := tr.Set(ctx, root, "page7", "changed")
		if err != nil {
			t.Fatal(err)
		}
		changed = tr.seal(changed)
		if v, ok, err := tr.Get(ctx, changed, "page7"); err != nil || !ok || v != "changed" {
			t.Fatalf("%d keys: page7 after the change = %q %v %v", n, v, ok, err)
		}
		return len(tr.r.pending)
	}
	small, large := written(100), written(10000)
	if small < 1 || large < 1 || large > 4 || small > 4 {
		t.Fatalf("one change wrote %d nodes with 100 keys and %d with 10,000; want from 1 to the trie's depth", small, large)
	}
}
