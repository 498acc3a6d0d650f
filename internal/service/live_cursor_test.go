package service

import (
	"testing"
	"time"
)

// TestLiveCursorLateRow follows ids as PostgreSQL shows them when a
// transaction commits after a later one: row 3 is read before row 2
// exists. Row 2, found on the next read, is still new; rows are handed
// over once; the floor passes them only once they settled.
func TestLiveCursorLateRow(t *testing.T) {
	var c cursor
	c.reset(1)
	t0 := time.Now()
	if !c.take(3, t0) {
		t.Fatal("row 3 is new")
	}
	c.settle(t0)
	if c.floor != 1 {
		t.Fatalf("floor %d right after row 3, want 1", c.floor)
	}
	t1 := t0.Add(time.Second)
	if c.take(3, t1) {
		t.Error("row 3 handed over twice")
	}
	if !c.take(2, t1) {
		t.Error("row 2, committed late, was skipped")
	}
	c.settle(t0.Add(liveSettle))
	if c.floor != 1 {
		t.Fatalf("floor %d: row 2 has not settled, so it stays below", c.floor)
	}
	c.settle(t1.Add(liveSettle))
	if c.floor != 3 || len(c.seen) != 0 {
		t.Fatalf("floor %d, %d seen, want 3 and none once both settled", c.floor, len(c.seen))
	}
	if c.take(1, t1) || c.take(2, t1) {
		t.Error("a row below the floor is new again")
	}
}
