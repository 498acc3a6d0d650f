package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestSelfAPIAnswersOwnAddressesInProcess(t *testing.T) {
	t.Parallel()
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "outside")
	}))
	defer outside.Close()
	s, err := newSelfAPI("https://docs.example.com/quire", outside.Client())
	if err != nil {
		t.Fatal(err)
	}
	get := func(rawURL string) (int, string, error) {
		req, err := http.NewRequest(http.MethodGet, rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, string(b), nil
	}
	if _, _, err := get("https://docs.example.com/quire/v1/user"); err == nil {
		t.Fatal("a request for the server before it serves was answered")
	}
	s.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "inside "+r.URL.Path+" "+r.Header.Get("Authorization"))
	}))
	for _, own := range []string{"https://docs.example.com/quire/v1/user", "https://DOCS.example.com/quire"} {
		status, body, err := get(own)
		if err != nil || status != http.StatusTeapot || body[:6] != "inside" {
			t.Fatalf("%s: %d %q %v", own, status, body, err)
		}
	}
	// Other hosts, schemes and paths beside the base go out.
	for _, other := range []string{outside.URL + "/quire/v1/user"} {
		status, body, err := get(other)
		if err != nil || status != http.StatusOK || body != "outside" {
			t.Fatalf("%s: %d %q %v", other, status, body, err)
		}
	}
	for _, u := range []string{"http://docs.example.com/quire/v1", "https://docs.example.com/quirex/v1"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if s.own(req.URL) {
			t.Fatalf("%s counted as the server's own", u)
		}
	}
}
