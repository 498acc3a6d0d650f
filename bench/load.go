package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// target is one server under load: its base URL, the paths requests cycle
// through and the bearer token they carry. With a body set, requests are
// POSTs of that JSON body answered 201; otherwise GETs answered 200.
// method and status, when set, replace that method and that status (a
// PATCH answered 200, a create answered 200); noAuth sends no
// Authorization header at all, for public requests.
type target struct {
	base   string
	paths  []string
	token  string
	body   []byte
	method string
	status int
	noAuth bool
	// vary, when set, gives each request's path and JSON body in place of
	// paths and body, from the loader's worker sending it (0 to the
	// concurrency less one) and the request's number in the run; its
	// requests are POSTs, with no body when it gives none.
	vary func(worker, i int) (path string, body []byte)
}

// request returns the method, body reader and status of a request to t.
func (t target) request() (string, io.Reader, int) {
	method, body, status := http.MethodGet, io.Reader(nil), http.StatusOK
	if t.body != nil || t.vary != nil {
		method, status = http.MethodPost, http.StatusCreated
	}
	if t.body != nil {
		body = bytes.NewReader(t.body)
	}
	if t.method != "" {
		method = t.method
	}
	if t.status != 0 {
		status = t.status
	}
	return method, body, status
}

// header sets the headers of a request to t: its credentials, unless it
// has none, and the type of its body.
func (t target) header(req *http.Request) {
	if !t.noAuth {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	if req.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
}

// nth returns the path of the i-th request of a run, sent by worker, and
// the target that request is sent as: t itself, or with vary t carrying
// that request's body.
func (t target) nth(worker int, i int64) (string, target) {
	if t.vary == nil {
		return t.paths[i%int64(len(t.paths))], t
	}
	path, body := t.vary(worker, int(i))
	t.body = body
	return path, t
}

// statusError is a request answered with a status other than the one its
// target answers.
type statusError struct {
	method, path string
	status       int
}

// Error names the request and the status it got.
func (e *statusError) Error() string {
	return fmt.Sprintf("%s %s: status %d", e.method, e.path, e.status)
}

// runStats is the outcome of one measured run against one target.
type runStats struct {
	requests int           // requests answered the target's status
	errors   int           // transport failures and other statuses
	conflict int           // of the errors, those answered 409
	firstErr error         // the first of those, for the report
	elapsed  time.Duration // from the first request to the last answer
	p50, p99 time.Duration
}

// rps is the run's throughput in requests per second.
func (s runStats) rps() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.requests) / s.elapsed.Seconds()
}

// loader drives targets with a fixed number of concurrent workers over one
// shared keep-alive client.
type loader struct {
	client      *http.Client
	concurrency int
}

// newLoader returns a loader whose transport keeps an idle connection per
// worker to each server, so runs measure requests, not handshakes.
func newLoader(concurrency int) *loader {
	tr := &http.Transport{
		MaxIdleConns:        4 * concurrency,
		MaxIdleConnsPerHost: concurrency,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	return &loader{client: &http.Client{Transport: tr}, concurrency: concurrency}
}

// close drops the idle connections.
func (l *loader) close() { l.client.CloseIdleConnections() }

// run loads t until d has passed or, when n > 0, until n requests were
// sent, and returns what it measured. Every worker takes the next path in
// turn from a shared counter.
func (l *loader) run(ctx context.Context, t target, d time.Duration, n int) runStats {
	var (
		next     atomic.Int64
		mu       sync.Mutex
		all      []time.Duration
		stats    runStats
		wg       sync.WaitGroup
		deadline = time.Now().Add(d)
	)
	start := time.Now()
	for worker := range l.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 4096)
			var errs, conflicts int
			var firstErr error
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if (n > 0 && i >= int64(n)) || (n <= 0 && time.Now().After(deadline)) {
					break
				}
				path, rt := t.nth(worker, i)
				began := time.Now()
				err := l.get(ctx, rt, path)
				if err != nil {
					errs++
					var se *statusError
					if errors.As(err, &se) && se.status == http.StatusConflict {
						conflicts++
					}
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				lat = append(lat, time.Since(began))
			}
			mu.Lock()
			defer mu.Unlock()
			all = append(all, lat...)
			stats.errors += errs
			stats.conflict += conflicts
			if stats.firstErr == nil {
				stats.firstErr = firstErr
			}
		}()
	}
	wg.Wait()
	stats.elapsed = time.Since(start)
	stats.requests = len(all)
	stats.p50, stats.p99 = percentile(all, 0.50), percentile(all, 0.99)
	return stats
}

// get sends one request and reads the whole answer; any status but the
// one the target answers is an error.
func (l *loader) get(ctx context.Context, t target, path string) error {
	method, body, want := t.request()
	req, err := http.NewRequestWithContext(ctx, method, t.base+path, body)
	if err != nil {
		return err
	}
	t.header(req)
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != want {
		return &statusError{method: method, path: path, status: resp.StatusCode}
	}
	return nil
}

// capture fetches path once and returns its body and Content-Type; it
// fails on anything but 200.
func (l *loader) capture(ctx context.Context, t target, path string) ([]byte, string, error) {
	method, body, want := t.request()
	req, err := http.NewRequestWithContext(ctx, method, t.base+path, body)
	if err != nil {
		return nil, "", err
	}
	t.header(req)
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != want {
		return nil, "", fmt.Errorf("%s %s: status %d: %s", method, path, resp.StatusCode, b)
	}
	return b, resp.Header.Get("Content-Type"), nil
}

// bareHandler answers every request with body under the given
// Content-Type and does nothing else: the ceiling a handler serving the
// same bytes over the same server and client can reach.
func bareHandler(body []byte, contentType string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	})
}

// percentile returns the q-quantile of d, sorting it in place.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	if !slices.IsSorted(d) {
		slices.Sort(d)
	}
	return d[int(q*float64(len(d)-1))]
}
