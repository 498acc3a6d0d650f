package service

import "testing"

func TestWaitText(t *testing.T) {
	for s, want := range map[int64]string{1: "1 second", 59: "59 seconds", 119: "119 seconds", 120: "2 minutes",
		1199: "20 minutes", 7199: "120 minutes", 7200: "2 hours", 7201: "3 hours"} {
		if got := waitText(s); got != want {
			t.Errorf("waitText(%d) = %q, want %q", s, got, want)
		}
	}
}
