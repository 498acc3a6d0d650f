package cli

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// selfAPI sends the requests of integration scripts. Those addressed to
// this server's own base URL (an integration calling the API back with
// its installation token) are served by the server's handler in
// process, so they work whatever the fetch guard says of the address
// the server listens on; the rest go out through the guarded client.
type selfAPI struct {
	base    *url.URL
	out     *http.Client
	handler atomic.Pointer[http.Handler]
}

// newSelfAPI returns a sender for scripts of a server at baseURL, with
// out for every other address.
func newSelfAPI(baseURL string, out *http.Client) (*selfAPI, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, err
	}
	return &selfAPI{base: u, out: out}, nil
}

// serve sets the handler that answers requests for the server itself;
// until it is set they go out like any other.
func (s *selfAPI) serve(h http.Handler) { s.handler.Store(&h) }

// errSelfNotServing is a request for the server itself before it serves.
func errSelfNotServing() error { return errors.New("the server is not serving yet") }

// Do answers r, in process when it is addressed to this server.
func (s *selfAPI) Do(r *http.Request) (*http.Response, error) {
	if !s.own(r.URL) {
		return s.out.Do(r)
	}
	h := s.handler.Load()
	if h == nil {
		return nil, errSelfNotServing()
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	// The handler sees what a request over the network would carry.
	r.RequestURI = r.URL.RequestURI()
	if r.RemoteAddr == "" {
		r.RemoteAddr = "127.0.0.1:0"
	}
	w := &memResponse{header: make(http.Header)}
	(*h).ServeHTTP(w, r)
	return w.response(r), nil
}

// own reports whether u is under the server's base URL.
func (s *selfAPI) own(u *url.URL) bool {
	if !strings.EqualFold(u.Scheme, s.base.Scheme) || !strings.EqualFold(u.Host, s.base.Host) {
		return false
	}
	prefix := strings.TrimSuffix(s.base.Path, "/")
	return prefix == "" || u.Path == prefix || strings.HasPrefix(u.Path, prefix+"/")
}

// memResponse is an http.ResponseWriter that keeps the answer in memory.
type memResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the answer's header.
func (m *memResponse) Header() http.Header { return m.header }

// WriteHeader records the status, once.
func (m *memResponse) WriteHeader(status int) {
	if m.status == 0 {
		m.status = status
	}
}

// Write appends to the body, answering 200 if no status was set.
func (m *memResponse) Write(p []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	return m.body.Write(p)
}

// response is the recorded answer to r.
func (m *memResponse) response(r *http.Request) *http.Response {
	m.WriteHeader(http.StatusOK)
	h := m.header.Clone()
	h.Set("Content-Length", strconv.Itoa(m.body.Len()))
	return &http.Response{
		Status:        strconv.Itoa(m.status) + " " + http.StatusText(m.status),
		StatusCode:    m.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(m.body.Bytes())),
		ContentLength: int64(m.body.Len()),
		Request:       r,
	}
}
