package httpapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// slowInput is the body of the test operations.
type slowInput struct {
	Body struct {
		Text string `json:"text"`
	}
}

// contextServer serves, on a real server counting the connections it
// accepts, two operations through the body check: one that works longer
// than its body read timeout, and one that fails with err.
func contextServer(t *testing.T, err error) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	s := &Server{cfg: Config{MaxBodyBytes: DefaultMaxBodyBytes}, log: slog.New(slog.DiscardHandler)}
	mux := http.NewServeMux()
	api := humago.New(mux, s.humaConfig())
	api.UseMiddleware(s.checkBody(api))
	handle(s, api, Route{ID: "slow", Method: http.MethodPost, Path: "/slow"},
		func(ctx context.Context, in *slowInput) (*struct{}, error) {
			// Work past the framework's body read timeout, set below.
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("slow work: %w", ctx.Err())
			case <-time.After(200 * time.Millisecond):
				return nil, nil
			}
		})
	api.OpenAPI().Paths["/slow"].Post.BodyReadTimeout = 20 * time.Millisecond
	handle(s, api, Route{ID: "fail", Method: http.MethodPost, Path: "/fail"},
		func(ctx context.Context, in *slowInput) (*struct{}, error) { return nil, err })
	srv := httptest.NewUnstartedServer(mux)
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// postJSON sends a JSON body to path and returns the response.
func postJSON(t *testing.T, c *http.Client, url string) response {
	t.Helper()
	res, err := c.Post(url, "application/json", strings.NewReader(`{"text":"x"}`))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

func TestWorkPastBodyReadTimeoutKeepsItsContext(t *testing.T) {
	srv, conns := contextServer(t, nil)
	c := srv.Client()
	// The body is read before the handler starts; the timeout for
	// reading it must not end the handler's context, nor that of the
	// next request on the same connection.
	for i := range 2 {
		if r := postJSON(t, c, srv.URL+"/slow"); r.Status != http.StatusOK {
			t.Fatalf("request %d: status %d: %s", i+1, r.Status, r.Body)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want the two requests on one", n)
	}
}

func TestEndedContextIsServiceUnavailable(t *testing.T) {
	for _, cause := range []error{context.Canceled, context.DeadlineExceeded} {
		srv, _ := contextServer(t, fmt.Errorf("convert: %w", cause))
		r := postJSON(t, srv.Client(), srv.URL+"/fail")
		if r.Status != http.StatusServiceUnavailable {
			t.Fatalf("%v: status %d, want 503: %s", cause, r.Status, r.Body)
		}
		msg := checkErrorBody(t, r)
		wantContains(t, msg, "before it was done")
	}
}
