package sqlstore

import (
	"testing"

	"quire/internal/quire"
)

func TestRebindDollar(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":                            "SELECT 1",
		"a = ? AND b IN (?, ?)":               "a = $1 AND b IN ($2, $3)",
		`x = '?' AND "col?" = ? AND y LIKE ?`: `x = '?' AND "col?" = $1 AND y LIKE $2`,
		`LIKE ? ESCAPE '\' OR z = ?`:          `LIKE $1 ESCAPE '\' OR z = $2`,
	} {
		if got := RebindDollar(in); got != want {
			t.Errorf("RebindDollar(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCursor(t *testing.T) {
	c := encodeCursor("m", int64(1700000000123), "id-1")
	var (
		k  int64
		id string
	)
	if err := decodeCursor(c, "m", &k, &id); err != nil || k != 1700000000123 || id != "id-1" {
		t.Fatalf("round trip: %d %q %v", k, id, err)
	}
	for _, bad := range []struct{ cursor, tag string }{
		{c, "t"},                            // another list's cursor
		{"%%%", "m"},                        // not base64url
		{"bm90IGpzb24", "m"},                // not JSON
		{encodeCursor("m", "x", "y"), "m"},  // wrong key type
		{encodeCursor("m", int64(1)), "m"},  // too few keys
		{encodeCursor("m", 1, "a", 2), "m"}, // too many keys
	} {
		err := decodeCursor(bad.cursor, bad.tag, &k, &id)
		if quire.ErrorCode(err) != quire.EINVALID {
			t.Errorf("decode %q as %q: got %v, want EINVALID", bad.cursor, bad.tag, err)
		}
	}
}

func TestContainsPattern(t *testing.T) {
	for in, want := range map[string]string{
		"Ada":    "%ada%",
		"100%":   `%100\%%`,
		"a_b":    `%a\_b%`,
		`back\s`: `%back\\s%`,
	} {
		if got := containsPattern(in); got != want {
			t.Errorf("containsPattern(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoleRank(t *testing.T) {
	for _, r := range quire.Roles() {
		rank := int64(r.Level() - quire.LevelGuest)
		if got := roleOfRank(rank); got != r {
			t.Errorf("roleOfRank(%d) = %q, want %q", rank, got, r)
		}
	}
	if got := roleOfRank(0); got != "" {
		t.Errorf("roleOfRank(0) = %q, want none", got)
	}
}
