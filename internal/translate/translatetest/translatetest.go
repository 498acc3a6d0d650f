// Package translatetest runs fake translation engines on 127.0.0.1 that
// speak the protocols of LibreTranslate, DeepL and OpenAI-compatible
// chat completions, for tests. Their translation is Fake: every run of
// text outside the markup's tags is prefixed with "[lang] ".
package translatetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Key is the API key the fake engines expect.
const Key = "test-secret-key-7f3a"

// Server is a fake engine.
type Server struct {
	// URL is the engine URL to configure: scheme engine+http.
	URL string

	mu       sync.Mutex
	requests int
	segments []string
	fails    []int
	keys     []string
	prompts  []string
}

// Start runs a fake engine of the given kind (libretranslate, deepl or
// openai) until the test ends.
func Start(t testing.TB, engine string) *Server {
	t.Helper()
	s := &Server{}
	var h http.HandlerFunc
	switch engine {
	case "libretranslate":
		h = s.libre
	case "deepl":
		h = s.deepl
	case "openai":
		h = s.openai
	default:
		t.Fatalf("translatetest: unknown engine %q", engine)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	s.URL = engine + "+" + hs.URL
	if engine == "openai" {
		s.URL += "/v1?model=test-model"
	}
	return s
}

// FailNext makes the next requests answer these statuses, in order.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = append(s.fails, statuses...)
}

// Requests counts the requests answered, failures included.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Segments returns the segments received since the last Reset.
func (s *Server) Segments() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.segments...)
}

// Keys returns the keys the requests carried.
func (s *Server) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}

// Prompts returns the system prompts of chat requests.
func (s *Server) Prompts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.prompts...)
}

// Reset forgets the segments, keys and requests seen.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.segments, s.keys, s.prompts, s.requests = nil, nil, nil, 0
}

// begin counts a request and reports the failure status to answer, if
// any.
func (s *Server) begin(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	s.keys = append(s.keys, key)
	if len(s.fails) > 0 {
		st := s.fails[0]
		s.fails = s.fails[1:]
		return st
	}
	return 0
}

// record keeps the segments of a request that succeeds.
func (s *Server) record(segs []string, prompt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.segments = append(s.segments, segs...)
	if prompt != "" {
		s.prompts = append(s.prompts, prompt)
	}
}

// Fake is the fake translation of a segment into lang: each run of text
// between tags that holds more than white space gets "[lang] " before it.
func Fake(seg, lang string) string {
	tag := regexp.MustCompile(`</?[gx]\d+\s*/?>`)
	var b strings.Builder
	pos := 0
	run := func(s string) {
		if strings.TrimSpace(s) == "" {
			b.WriteString(s)
			return
		}
		trimmed := strings.TrimLeft(s, " ")
		b.WriteString(s[:len(s)-len(trimmed)] + "[" + lang + "] " + trimmed)
	}
	for _, m := range tag.FindAllStringIndex(seg, -1) {
		run(seg[pos:m[0]])
		b.WriteString(seg[m[0]:m[1]])
		pos = m[1]
	}
	run(seg[pos:])
	return b.String()
}

// decode reads a JSON request body.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// answer writes a JSON answer.
func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) libre(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Q      []string `json:"q"`
		Source string   `json:"source"`
		Target string   `json:"target"`
		Format string   `json:"format"`
		Key    string   `json:"api_key"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/translate" {
		http.NotFound(w, r)
		return
	}
	if !decode(w, r, &in) {
		return
	}
	if st := s.begin(in.Key); st != 0 {
		http.Error(w, `{"error":"busy"}`, st)
		return
	}
	if in.Key != Key {
		http.Error(w, `{"error":"Invalid API key"}`, http.StatusForbidden)
		return
	}
	if in.Format != "html" || in.Source == "" || in.Target == "" {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	s.record(in.Q, "")
	out := make([]string, len(in.Q))
	for i, q := range in.Q {
		out[i] = Fake(q, in.Target)
	}
	answer(w, map[string]any{"translatedText": out})
}

func (s *Server) deepl(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Text        []string `json:"text"`
		TargetLang  string   `json:"target_lang"`
		TagHandling string   `json:"tag_handling"`
		Context     string   `json:"context"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v2/translate" {
		http.NotFound(w, r)
		return
	}
	if !decode(w, r, &in) {
		return
	}
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "DeepL-Auth-Key ")
	if st := s.begin(key); st != 0 {
		http.Error(w, `{"message":"Too many requests"}`, st)
		return
	}
	if key != Key {
		http.Error(w, `{"message":"Wrong key"}`, http.StatusForbidden)
		return
	}
	if in.TagHandling != "xml" || in.TargetLang == "" {
		http.Error(w, `{"message":"bad request"}`, http.StatusBadRequest)
		return
	}
	s.record(in.Text, in.Context)
	type tr struct {
		Text string `json:"text"`
	}
	out := make([]tr, len(in.Text))
	for i, q := range in.Text {
		out[i] = tr{Text: Fake(q, strings.ToLower(in.TargetLang))}
	}
	answer(w, map[string]any{"translations": out})
}

func (s *Server) openai(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	if !decode(w, r, &in) {
		return
	}
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if st := s.begin(key); st != 0 {
		http.Error(w, `{"error":{"message":"overloaded"}}`, st)
		return
	}
	if key != Key {
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
		return
	}
	if in.Model != "test-model" || len(in.Messages) != 2 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	var segs []string
	if err := json.Unmarshal([]byte(in.Messages[1].Content), &segs); err != nil {
		http.Error(w, `{"error":{"message":"user message is not an array"}}`, http.StatusBadRequest)
		return
	}
	lang := "xx"
	prompt := in.Messages[0].Content
	if i := strings.Index(prompt, " to "); i >= 0 {
		rest := prompt[i+4:]
		if j := strings.IndexByte(rest, '.'); j >= 0 {
			lang = strings.ToLower(rest[:j])
		}
	}
	s.record(segs, prompt)
	out := make([]string, len(segs))
	for i, q := range segs {
		out[i] = Fake(q, lang)
	}
	b, _ := json.Marshal(out)
	answer(w, map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant",
		"content": fmt.Sprintf("Here is the translation:\n```json\n%s\n```", b)}}}})
}
