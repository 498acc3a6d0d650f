package quire

import (
	"strings"
	"testing"
	"time"
)

func TestNewIDUniqueAndOrdered(t *testing.T) {
	seen := map[string]bool{}
	prev := NewID()
	for i := 0; i < 1000; i++ {
		id := NewID()
		if len(id) != 21 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
		if id[:9] < prev[:9] {
			t.Fatalf("time prefix went backwards: %q after %q", id, prev)
		}
		prev = id
	}
}

func TestTokenRoundTrip(t *testing.T) {
	plain, rec := NewToken("u1", time.Now())
	id, secret, ok := ParseToken(plain)
	if !ok || id != rec.ID || !CheckSecret(rec, secret) {
		t.Fatalf("token %q does not verify", plain)
	}
	if strings.Contains(string(rec.Hash), secret) {
		t.Fatal("stored hash contains the secret")
	}
	if CheckSecret(rec, secret+"x") {
		t.Fatal("wrong secret accepted")
	}
	for _, bad := range []string{"", "qt_", "qt_abc", "xx_a_b", "qt__b", "qt_a_"} {
		if _, _, ok := ParseToken(bad); ok {
			t.Errorf("ParseToken(%q) accepted", bad)
		}
	}
}
