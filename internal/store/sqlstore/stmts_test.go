package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	_ "modernc.org/sqlite"
)

// TestStmtCacheBounded checks that the cache never holds more than its
// limit, and that a statement evicted while in use keeps working until
// released.
func TestStmtCacheBounded(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	c := newStmtCache(8)
	held, release, err := c.get(ctx, db, "SELECT 0")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 100; i++ {
		st, done, err := c.get(ctx, db, fmt.Sprintf("SELECT %d", i))
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := st.QueryRowContext(ctx).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d, %v", i, n, err)
		}
		done()
		if c.len() > 8 {
			t.Fatalf("after %d queries the cache holds %d statements, limit 8", i+1, c.len())
		}
	}
	var n int
	if err := held.QueryRowContext(ctx).Scan(&n); err != nil {
		t.Fatalf("an evicted statement still held: %v", err)
	}
	release()
	if err := held.QueryRowContext(ctx).Scan(&n); err == nil {
		t.Fatal("an evicted statement was not closed on its last release")
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}

// TestInListLen checks the padded sizes of IN lists.
func TestInListLen(t *testing.T) {
	sizes := map[int]bool{}
	for n := 1; n <= 1000; n++ {
		got := inListLen(n)
		if got < n {
			t.Fatalf("inListLen(%d) = %d, shorter than the list", n, got)
		}
		sizes[got] = true
	}
	if len(sizes) > 12 {
		t.Errorf("lists of 1 to 1000 values use %d sizes, want at most 12", len(sizes))
	}
	marks, args := inList([]any{"x"}, []string{"a", "b"})
	if marks != "?, ?, ?, ?, ?, ?, ?, ?" || len(args) != 9 || args[8] != "b" {
		t.Errorf("inList: %q, %v", marks, args)
	}
}
