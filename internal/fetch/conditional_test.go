package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestGetIfChanged(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` || r.Header.Get("If-Modified-Since") == "Mon, 02 Jan 2006 15:04:05 GMT" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		_, _ = io.WriteString(w, "body")
	}))
	defer srv.Close()
	c := New(Config{AllowLocal: true})
	resp, err := c.GetIfChanged(context.Background(), srv.URL, Validators{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ETag != `"v1"` || resp.LastModified == "" {
		t.Errorf("validators %q %q", resp.ETag, resp.LastModified)
	}
	for _, v := range []Validators{{ETag: resp.ETag}, {LastModified: resp.LastModified}} {
		if _, err := c.GetIfChanged(context.Background(), srv.URL, v); !errors.Is(err, ErrNotModified) {
			t.Errorf("%+v: %v, want ErrNotModified", v, err)
		}
	}
	if _, err := c.GetIfChanged(context.Background(), srv.URL, Validators{ETag: `"v0"`}); err != nil {
		t.Errorf("changed file: %v", err)
	}
}

func TestTimeoutFlag(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := New(Config{AllowLocal: true}).Get(ctx, srv.URL)
	var fe *Error
	if !errors.As(err, &fe) || !fe.Timeout {
		t.Fatalf("%v: want a fetch error marked as a timeout", err)
	}
	down := httptest.NewServer(http.NotFoundHandler())
	defer down.Close()
	_, err = New(Config{AllowLocal: true}).Get(context.Background(), down.URL)
	if !errors.As(err, &fe) || fe.Timeout || fe.Status == "" {
		t.Fatalf("%v: want a 404 that is not a timeout", err)
	}
}
