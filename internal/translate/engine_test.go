package translate_test

import (
	"strings"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/translate"
	"quire/internal/translate/translatetest"
)

// newEngine returns an engine speaking to a fake server of its kind.
func newEngine(t *testing.T, kind string, o translate.Options) (*translate.Engine, *translatetest.Server) {
	t.Helper()
	srv := translatetest.Start(t, kind)
	o.Fetch = fetch.New(fetch.Config{AllowLocal: true})
	if o.Key == "" {
		o.Key = translatetest.Key
	}
	o.Backoff = time.Millisecond
	o.RatePerSecond = 1000
	e, err := translate.New(srv.URL, o)
	if err != nil {
		t.Fatalf("New(%s): %v", srv.URL, err)
	}
	return e, srv
}

func TestEnginesTranslateInBatches(t *testing.T) {
	for _, kind := range []string{translate.LibreTranslate, translate.DeepL, translate.OpenAI} {
		t.Run(kind, func(t *testing.T) {
			e, srv := newEngine(t, kind, translate.Options{BatchSegments: 3})
			segs := []string{"One", "<g0>Two</g0><x0/><g1> three</g1>", "Four &amp; five", "Six", "Seven", "Eight", "Nine"}
			got, err := e.Translate(t.Context(), translate.Request{From: "en", To: "fr", Instructions: "Be formal.", Segments: segs})
			if err != nil {
				t.Fatalf("Translate: %v", err)
			}
			if len(got) != len(segs) {
				t.Fatalf("%d translations for %d segments", len(got), len(segs))
			}
			for i, g := range got {
				if !strings.Contains(g, "] ") || strings.Count(g, "<") != strings.Count(segs[i], "<") {
					t.Errorf("segment %d: %q translated as %q", i, segs[i], g)
				}
			}
			if n := srv.Requests(); n != 3 {
				t.Errorf("%d requests, want 3 batches of at most 3 segments", n)
			}
			for _, k := range srv.Keys() {
				if k != translatetest.Key {
					t.Errorf("request carried key %q", k)
				}
			}
			if kind != translate.LibreTranslate {
				if p := srv.Prompts(); len(p) == 0 || !strings.Contains(p[0], "Be formal.") {
					t.Errorf("instructions not sent: %q", p)
				}
			}
		})
	}
}

func TestEngineRetriesBusyServer(t *testing.T) {
	e, srv := newEngine(t, translate.DeepL, translate.Options{Attempts: 3})
	srv.FailNext(429, 503)
	got, err := e.Translate(t.Context(), translate.Request{From: "en", To: "de", Segments: []string{"Hello"}})
	if err != nil {
		t.Fatalf("Translate after two busy answers: %v", err)
	}
	if got[0] != "[de] Hello" || srv.Requests() != 3 {
		t.Errorf("got %q after %d requests", got, srv.Requests())
	}
	srv.FailNext(503, 503, 503)
	if _, err := e.Translate(t.Context(), translate.Request{From: "en", To: "de", Segments: []string{"Hello"}}); err == nil {
		t.Error("no error after every attempt failed")
	}
}

func TestEngineDoesNotRetryRefusal(t *testing.T) {
	e, srv := newEngine(t, translate.LibreTranslate, translate.Options{Key: "wrong-key"})
	_, err := e.Translate(t.Context(), translate.Request{From: "en", To: "fr", Segments: []string{"Hello"}})
	if err == nil {
		t.Fatal("a wrong key translated")
	}
	if srv.Requests() != 1 {
		t.Errorf("%d requests for a refusal, want 1", srv.Requests())
	}
	if strings.Contains(err.Error(), "wrong-key") {
		t.Errorf("the error shows the key: %v", err)
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	f := fetch.New(fetch.Config{})
	for _, u := range []string{"http://host:5000", "libretranslate://host", "google+https://x", "openai+http://host/v1",
		"deepl+https://user:secret@api.deepl.com", "libretranslate+ftp://host"} {
		if _, err := translate.New(u, translate.Options{Fetch: f}); err == nil {
			t.Errorf("New(%q) accepted", u)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q) error shows the password: %v", u, err)
		}
	}
	e, err := translate.New("openai+https://llm.example/v1?model=m", translate.Options{Fetch: f})
	if err != nil || e.Name() != translate.OpenAI {
		t.Errorf("openai URL: %v", err)
	}
}
