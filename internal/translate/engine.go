package translate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"quire/internal/fetch"
)

// Request asks for segments to be translated. Segments are in the markup
// Segments produces: XML-escaped text with <gN>…</gN> and <xN/> tags.
type Request struct {
	// From and To are language codes of the API (en, fr, pt-br, zh…).
	From, To string
	// Instructions are style rules for the engine, in plain text; engines
	// that take no instructions use them as context or leave them out.
	Instructions string
	Segments     []string
}

// Translator translates segments, answering one translation per segment
// in the same order.
type Translator interface {
	Translate(ctx context.Context, r Request) ([]string, error)
}

// backend is the protocol of one engine: one request for one batch.
type backend interface {
	translate(ctx context.Context, r Request) ([]string, error)
}

// Options configure an Engine; zero fields take their defaults.
type Options struct {
	// Fetch is the outbound client requests go through; required.
	Fetch *fetch.Client
	// Key is the engine's API key, sent in a header or the request body,
	// never in a URL.
	Key string
	// RatePerSecond bounds the requests sent per second (default 5).
	RatePerSecond float64
	// BatchSegments and BatchChars bound one request (default 50
	// segments, 20000 characters).
	BatchSegments, BatchChars int
	// Attempts is how many times a batch is sent before giving up
	// (default 4); Backoff is the delay before the second attempt,
	// doubled after each (default 500ms).
	Attempts int
	Backoff  time.Duration
}

// Engine is a Translator speaking one engine's protocol, with batching,
// retries and a rate limit.
type Engine struct {
	name     string
	b        backend
	limiter  *rate.Limiter
	segs     int
	chars    int
	attempts int
	backoff  time.Duration
}

// Engine names, the part of a URL's scheme before "+".
const (
	LibreTranslate = "libretranslate"
	DeepL          = "deepl"
	OpenAI         = "openai"
)

// New returns the engine rawURL names: its scheme is the engine's name,
// "+", and http or https; the rest is the engine's base address. An
// openai URL names its model with the query parameter model.
func New(rawURL string, o Options) (*Engine, error) {
	if o.Fetch == nil {
		return nil, errors.New("translate: no outbound client")
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("translate: the engine URL cannot be read")
	}
	name, transport, ok := strings.Cut(u.Scheme, "+")
	if !ok || (transport != "http" && transport != "https") || u.Host == "" {
		return nil, fmt.Errorf("translate: the engine URL must look like libretranslate+http://host:port, deepl+https://api.deepl.com or openai+http://host:port/v1?model=NAME")
	}
	if u.User != nil {
		return nil, errors.New("translate: give the engine's key on its own, not in the URL")
	}
	u.Scheme = transport
	q := u.Query()
	u.RawQuery, u.Fragment = "", ""
	base := strings.TrimRight(u.String(), "/")
	var b backend
	switch name {
	case LibreTranslate:
		b = &libreTranslate{f: o.Fetch, base: base, key: o.Key}
	case DeepL:
		b = &deepL{f: o.Fetch, base: base, key: o.Key}
	case OpenAI:
		model := q.Get("model")
		if model == "" {
			return nil, errors.New("translate: an openai engine URL names its model: ?model=NAME")
		}
		b = &openAI{f: o.Fetch, base: base, key: o.Key, model: model}
	default:
		return nil, fmt.Errorf("translate: unknown engine %q: use libretranslate, deepl or openai", name)
	}
	e := &Engine{name: name, b: b, segs: o.BatchSegments, chars: o.BatchChars, attempts: o.Attempts, backoff: o.Backoff}
	if e.segs <= 0 {
		e.segs = 50
	}
	if e.chars <= 0 {
		e.chars = 20000
	}
	if e.attempts <= 0 {
		e.attempts = 4
	}
	if e.backoff <= 0 {
		e.backoff = 500 * time.Millisecond
	}
	perSecond := o.RatePerSecond
	if perSecond <= 0 {
		perSecond = 5
	}
	e.limiter = rate.NewLimiter(rate.Limit(perSecond), 1)
	return e, nil
}

// Name is the engine's name: libretranslate, deepl or openai.
func (e *Engine) Name() string { return e.name }

// Translate sends the segments in batches and returns their translations
// in order.
func (e *Engine) Translate(ctx context.Context, r Request) ([]string, error) {
	out := make([]string, 0, len(r.Segments))
	for _, batch := range e.batches(r.Segments) {
		br := r
		br.Segments = batch
		got, err := e.send(ctx, br)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// batches splits segments into runs within the batch bounds.
func (e *Engine) batches(segs []string) [][]string {
	var out [][]string
	start, size := 0, 0
	for i, s := range segs {
		if i > start && (i-start >= e.segs || size+len(s) > e.chars) {
			out = append(out, segs[start:i])
			start, size = i, 0
		}
		size += len(s)
	}
	if start < len(segs) {
		out = append(out, segs[start:])
	}
	return out
}

// send sends one batch, waiting for the rate limit, and tries again when
// the engine is busy or failing.
func (e *Engine) send(ctx context.Context, r Request) ([]string, error) {
	delay := e.backoff
	var err error
	for attempt := 1; ; attempt++ {
		if err := e.limiter.Wait(ctx); err != nil {
			return nil, err
		}
		var got []string
		got, err = e.b.translate(ctx, r)
		if err == nil && len(got) != len(r.Segments) {
			err = &answerError{engine: e.name, msg: fmt.Sprintf("%d translations for %d segments", len(got), len(r.Segments))}
		}
		if err == nil {
			return got, nil
		}
		if attempt >= e.attempts || !retryable(err) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
	return nil, fmt.Errorf("%s: %w", e.name, err)
}

// answerError is an answer of the engine that cannot be used; a model
// may answer better on another try.
type answerError struct {
	engine, msg string
}

func (e *answerError) Error() string { return "unusable answer: " + e.msg }

// retryable reports whether a failed request may pass on another try: a
// network failure, a rate limit, a server error or an unusable answer,
// but not a refusal such as a wrong key.
func retryable(err error) bool {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return fe.Code == 0 || fe.Code == 429 || fe.Code >= 500
	}
	var ae *answerError
	return errors.As(err, &ae)
}
