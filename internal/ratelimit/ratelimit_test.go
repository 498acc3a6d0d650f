package ratelimit

import (
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Rate
	}{
		{"600/1m", Rate{600, time.Minute}},
		{" 10 / 15m ", Rate{10, 15 * time.Minute}},
		{"5000/1h", Rate{5000, time.Hour}},
		{"120", Rate{120, time.Minute}},
		{"0", Rate{}},
		{"0/1h", Rate{}},
		{"off", Rate{}},
	} {
		got, err := ParseRate(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if back, err := ParseRate(got.String()); err != nil || back != got {
			t.Errorf("ParseRate(%q.String() = %q) = %v, %v", c.in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "-1", "ten", "10/", "10/soon", "10/500ms", "10/-1m", "2000000000/1m"} {
		if r, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) = %v, want an error", bad, r)
		}
	}
	for r, want := range map[Rate]string{PerMinute(600): "600/1m", {10, 15 * time.Minute}: "10/15m", {5, 2 * time.Hour}: "5/2h",
		{3, 90 * time.Second}: "3/90s", {3, 1500 * time.Millisecond}: "3/1.5s", {}: "0"} {
		if got := r.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", r, got, want)
		}
	}
	if (Rate{}).On() || !PerMinute(1).On() {
		t.Error("On: a zero rate is off, one a minute is on")
	}
}

func TestLocalSpendsThenRefills(t *testing.T) {
	l := NewLocal(Rate{Requests: 3, Window: time.Minute})
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, want := range []int{2, 1, 0} {
		q := l.Take("a", t0)
		if !q.Allowed || q.Limit != 3 || q.Remaining != want {
			t.Fatalf("request %d: %+v, want allowed with %d remaining", i+1, q, want)
		}
		// Each spent token comes back in 20 s.
		if want := t0.Add(time.Duration(3-want) * 20 * time.Second); !q.Reset.Equal(want) {
			t.Fatalf("request %d: reset %v, want %v", i+1, q.Reset, want)
		}
	}
	q := l.Take("a", t0)
	if q.Allowed || q.Remaining != 0 || q.RetryAfter != 20*time.Second || q.RetrySeconds() != 20 {
		t.Fatalf("fourth request: %+v, want refused for 20 s", q)
	}
	if q := l.Take("b", t0); !q.Allowed || q.Remaining != 2 {
		t.Fatalf("another key shares the budget: %+v", q)
	}
	if q := l.Take("a", t0.Add(20*time.Second)); !q.Allowed || q.Remaining != 0 {
		t.Fatalf("20 s later one request passes: %+v", q)
	}
	if q := l.Take("a", t0.Add(2*time.Minute)); !q.Allowed || q.Remaining != 2 {
		t.Fatalf("a window later the bucket is full again: %+v", q)
	}
}

func TestLocalForgetsFullBuckets(t *testing.T) {
	l := NewLocal(Rate{Requests: 2, Window: time.Minute})
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, k := range []string{"a", "b", "c"} {
		l.Take(k, t0)
	}
	if n := l.Len(); n != 3 {
		t.Fatalf("%d buckets, want 3", n)
	}
	l.Take("d", t0.Add(2*time.Minute))
	if n := l.Len(); n != 1 {
		t.Fatalf("%d buckets after a window, want only the one just used", n)
	}
}

func TestFixedWindow(t *testing.T) {
	r := Rate{Requests: 2, Window: 15 * time.Minute}
	now := time.Date(2030, 1, 2, 3, 20, 30, 0, time.UTC)
	start, end := r.WindowAt(now)
	if want := time.Date(2030, 1, 2, 3, 15, 0, 0, time.UTC); !start.Equal(want) || !end.Equal(want.Add(15*time.Minute)) {
		t.Fatalf("window %v–%v", start, end)
	}
	if q := r.Counted(2, end, now); !q.Allowed || q.Remaining != 0 || !q.Reset.Equal(end) || q.ResetUnix() != end.Unix() {
		t.Fatalf("second request: %+v", q)
	}
	if q := r.Counted(3, end, now); q.Allowed || q.RetryAfter != end.Sub(now) || q.Remaining != 0 {
		t.Fatalf("third request: %+v", q)
	}
	if q := (Quota{Reset: end.Add(time.Millisecond)}); q.ResetUnix() != end.Unix()+1 {
		t.Fatalf("reset rounds up: %d", q.ResetUnix())
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.9":          "203.0.113.9",
		"::ffff:203.0.113.9":   "203.0.113.9",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"fe80::1%eth0":         "fe80::/64",
		"not an address":       "not an address",
		"2001:db8:1:3:3:4:5:6": "2001:db8:1:3::/64",
	} {
		if got := AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLocalTake is what the API's limit costs each request: one
// caller's bucket, from every core at once.
func BenchmarkLocalTake(b *testing.B) {
	l := NewLocal(PerMinute(MaxRequests))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if q := l.Take("token", time.Now()); !q.Allowed {
				b.Fatal("refused")
			}
		}
	})
}
