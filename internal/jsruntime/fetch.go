package jsruntime

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/dop251/goja"
)

// fetch is the native behind the global fetch: it sends one request
// through the Runner's Doer on its own goroutine and calls back on the
// loop with (null, answer) or (message, null). It returns an id that
// abortFetch cancels. Failures tell the script only which URL could not
// be fetched; the reason goes to the log.
func (l *loop) fetch(method, rawURL string, headers [][]string, body goja.Value, cb goja.Callable) int64 {
	vm := l.vm
	if l.fetchCount >= l.cfg.MaxFetches {
		panic(vm.NewTypeError(fmt.Sprintf("fetch refused: a run may make at most %d requests", l.cfg.MaxFetches)))
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		panic(vm.NewTypeError("fetch only fetches http and https URLs"))
	}
	if l.cfg.Doer == nil {
		panic(vm.NewTypeError("fetch is not available to scripts on this server"))
	}
	var payload []byte
	if b, ok := body.Export().(goja.ArrayBuffer); ok {
		payload = append([]byte(nil), b.Bytes()...)
	}
	ctx, cancel := context.WithCancel(l.ctx)
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(payload))
	if err != nil {
		cancel()
		panic(vm.NewTypeError("fetch: invalid request: " + err.Error()))
	}
	if payload == nil {
		req.Body = http.NoBody
	}
	for _, h := range headers {
		if len(h) == 2 {
			req.Header.Add(h[0], h[1])
		}
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "Quire-Integrations")
	}

	l.fetchCount++
	l.nextID++
	id := l.nextID
	l.fetches[id] = cancel
	l.pending++
	maxBody := l.cfg.MaxBody
	go func() {
		ans, err := l.send(req, maxBody)
		cancel()
		l.post(func() error {
			delete(l.fetches, id)
			l.pending--
			if err != nil {
				l.cfg.Logger.DebugContext(l.ctx, "script fetch failed", "url", u.Redacted(), "err", err)
				_, cerr := cb(goja.Undefined(), vm.ToValue(fmt.Sprintf("fetch failed: %s", u.Redacted())), goja.Null())
				return cerr
			}
			res := vm.NewObject()
			_ = res.Set("status", ans.status)
			_ = res.Set("statusText", ans.statusText)
			_ = res.Set("url", ans.url)
			_ = res.Set("redirected", ans.redirected)
			_ = res.Set("headers", ans.headers)
			_ = res.Set("body", vm.NewArrayBuffer(ans.body))
			_, cerr := cb(goja.Undefined(), goja.Null(), res)
			return cerr
		})
	}()
	return id
}

// answer is what came back from one fetch.
type answer struct {
	status     int
	statusText string
	url        string
	redirected bool
	headers    [][]string
	body       []byte
}

// send does req through the Runner's Doer (see sendWith).
func (l *loop) send(req *http.Request, maxBody int64) (*answer, error) {
	return sendWith(l.cfg.Doer, req, maxBody)
}

// sendWith does req through doer and reads the answer whole, refusing a
// body larger than maxBody.
func sendWith(doer Doer, req *http.Request, maxBody int64) (*answer, error) {
	resp, err := doer.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > maxBody {
		return nil, fmt.Errorf("answer of %d bytes is larger than the limit of %d bytes", resp.ContentLength, maxBody)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > maxBody {
		return nil, fmt.Errorf("answer is larger than the limit of %d bytes", maxBody)
	}
	a := &answer{
		status:     resp.StatusCode,
		statusText: http.StatusText(resp.StatusCode),
		url:        req.URL.String(),
		body:       body,
	}
	if resp.Request != nil && resp.Request.URL != nil {
		a.url = resp.Request.URL.String()
		a.redirected = a.url != req.URL.String()
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			a.headers = append(a.headers, []string{k, v})
		}
	}
	return a, nil
}
