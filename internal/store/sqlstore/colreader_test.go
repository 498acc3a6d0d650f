package sqlstore

import "testing"

// TestColReader checks the conversions of driver values and that an
// unexpected value is reported rather than read as zero.
func TestColReader(t *testing.T) {
	var c colReader
	if got := c.str("a"); got != "a" {
		t.Errorf("str(string) = %q", got)
	}
	if got := c.str([]byte("b")); got != "b" {
		t.Errorf("str([]byte) = %q", got)
	}
	if got := c.str(nil); got != "" {
		t.Errorf("str(nil) = %q", got)
	}
	if got := c.int(int64(-7)); got != -7 {
		t.Errorf("int(int64) = %d", got)
	}
	if got := c.int("42"); got != 42 {
		t.Errorf("int(string) = %d", got)
	}
	if got := c.int(nil); got != 0 {
		t.Errorf("int(nil) = %d", got)
	}
	if c.err != nil {
		t.Fatalf("unexpected error: %v", c.err)
	}
	c.int(1.5)
	if c.err == nil {
		t.Error("a float read as an integer gave no error")
	}
	c = colReader{}
	c.str(int64(1))
	if c.err == nil {
		t.Error("an integer read as text gave no error")
	}
	c = colReader{}
	c.int("x")
	if c.err == nil {
		t.Error("non-numeric text read as an integer gave no error")
	}
}
