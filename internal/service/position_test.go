package service

import (
	"math/rand"
	"sort"
	"testing"

	"quire/internal/quire"
)

func TestKeyBetween(t *testing.T) {
	t.Parallel()
	cases := [][2]string{{"", ""}, {"", "i"}, {"i", ""}, {"a", "b"}, {"a", "a1"}, {"az", "b"}, {"h", "hz"}, {"zz", ""}, {"", "01"}}
	for _, c := range cases {
		k := quire.KeyBetween(c[0], c[1])
		if !(c[0] < k) || (c[1] != "" && !(k < c[1])) {
			t.Errorf("quire.KeyBetween(%q, %q) = %q, not strictly between", c[0], c[1], k)
		}
		if k[len(k)-1] == '0' {
			t.Errorf("quire.KeyBetween(%q, %q) = %q ends in the lowest digit", c[0], c[1], k)
		}
	}
}

func TestKeyBetweenRandomInserts(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	keys := []string{}
	for i := 0; i < 2000; i++ {
		j := rng.Intn(len(keys) + 1)
		lo, hi := "", ""
		if j > 0 {
			lo = keys[j-1]
		}
		if j < len(keys) {
			hi = keys[j]
		}
		k := quire.KeyBetween(lo, hi)
		keys = append(keys[:j], append([]string{k}, keys[j:]...)...)
	}
	if !sort.StringsAreSorted(keys) {
		t.Fatal("keys out of order")
	}
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			t.Fatalf("duplicate key %q", keys[i])
		}
	}
}

func TestPlacement(t *testing.T) {
	t.Parallel()
	sib := []quire.Sibling{{Kind: "space", ID: "a", Position: "a"}, {Kind: "space", ID: "b", Position: "b"}, {Kind: "collection", ID: "c", Position: "c"}}
	self := sib[0]
	if _, changed, err := placement(sib, self, Position{Before: NewAnchor("space", "b")}); err != nil || changed {
		t.Fatalf("before its own successor: changed=%v err=%v, want no change", changed, err)
	}
	k, changed, err := placement(sib, self, Position{After: NewAnchor("collection", "c")})
	if err != nil || !changed || k <= "c" {
		t.Fatalf("after last: key=%q changed=%v err=%v", k, changed, err)
	}
	k, changed, err = placement(sib, self, Position{After: NewAnchor("space", "b"), Before: NewAnchor("collection", "c")})
	if err != nil || !changed || !(k > "b" && k < "c") {
		t.Fatalf("between: key=%q changed=%v err=%v", k, changed, err)
	}
	if _, _, err := placement(sib, self, Position{Before: NewAnchor("space", "zzz")}); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("unknown anchor: err=%v, want invalid", err)
	}
	if _, _, err := placement(sib, self, Position{After: NewAnchor("collection", "c"), Before: NewAnchor("space", "b")}); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("non-adjacent anchors: err=%v, want invalid", err)
	}
}

// TestKeyBetweenAppendsStayShort checks that appending key after key keeps
// keys short and increasing, from an empty list and from a key made by
// inserting between two others.
func TestKeyBetweenAppendsStayShort(t *testing.T) {
	t.Parallel()
	for _, start := range []string{"", quire.KeyBetween("a", "b"), "zzz"} {
		k := start
		for i := 0; i < 10000; i++ {
			next := quire.KeyBetween(k, "")
			if next <= k || next[len(next)-1] == '0' {
				t.Fatalf("after %q: %q", k, next)
			}
			k = next
		}
		if len(k) > 16 {
			t.Errorf("from %q, 10,000 appends end in a key of %d characters", start, len(k))
		}
	}
}
