package storetest

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func rateLimitTests() []test {
	return []test{
		{"rate limits/counted per key and window", func(t *testing.T, f *fixture) {
			start := base().Truncate(time.Minute)
			end := start.Add(time.Minute)
			count := func(key string, start time.Time) (int, time.Time) {
				t.Helper()
				n, until, err := f.st.CountRequest(ctx(t), key, start, start.Add(time.Minute))
				must(t, err)
				return n, until
			}
			for want := 1; want <= 3; want++ {
				n, until := count("sign-in:1", start)
				equal(t, "hits", n, want)
				equal(t, "window end", until, end)
			}
			n, _ := count("sign-in:2", start)
			equal(t, "another key", n, 1)
			n, until := count("sign-in:1", end)
			equal(t, "a newer window starts again", n, 1)
			equal(t, "its end", until, end.Add(time.Minute))
			n, until = count("sign-in:1", start)
			equal(t, "a request dated in the older window counts in the newer", n, 2)
			equal(t, "the newer window's end", until, end.Add(time.Minute))

			// Windows that ended are pruned; the others stay.
			must(t, f.st.PruneRequestCounts(ctx(t), end))
			n, _ = count("sign-in:2", end)
			equal(t, "a pruned key starts again", n, 1)
			n, _ = count("sign-in:1", end)
			equal(t, "a key of a window still open is kept", n, 3)
		}},
		{"rate limits/concurrent counts each get their own number", func(t *testing.T, f *fixture) {
			start := base().Truncate(time.Hour)
			const workers = 12
			got := make([]int, workers)
			errs := make([]error, workers)
			var wg sync.WaitGroup
			for i := range workers {
				wg.Go(func() {
					got[i], _, errs[i] = f.st.CountRequest(ctx(t), "reset:1", start, start.Add(time.Hour))
				})
			}
			wg.Wait()
			for _, err := range errs {
				must(t, err)
			}
			slices.Sort(got)
			for i, n := range got {
				equal(t, "hits", n, i+1)
			}
		}},
	}
}
