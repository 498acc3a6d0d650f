package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"
)

// Defaults of a Config left zero.
const (
	// DefaultConnectTimeout bounds establishing one connection.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultTimeout bounds one fetch, from the request to the last byte of
	// the body.
	DefaultTimeout = 20 * time.Second
	// DefaultMaxRedirects is how many redirects one fetch follows.
	DefaultMaxRedirects = 5
	// DefaultMaxBytes bounds the body of one fetch.
	DefaultMaxBytes = 32 << 20
)

// Config configures a Client. The zero value is the safe default.
type Config struct {
	// AllowLocal lets fetches reach loopback, private and other
	// non-public addresses (a server fetching from its own network on
	// purpose, and tests).
	AllowLocal bool
	// Guard overrides the address check when AllowLocal is false; nil is
	// the public-addresses-only default.
	Guard Guard
	// ConnectTimeout bounds establishing one connection.
	ConnectTimeout time.Duration
	// Timeout bounds a whole fetch, body included.
	Timeout time.Duration
	// MaxRedirects is how many redirects one fetch follows; negative
	// follows none.
	MaxRedirects int
	// MaxBytes bounds the body of one fetch.
	MaxBytes int64
	// Logger receives the reason of each failure, at debug level.
	Logger *slog.Logger
}

// Client fetches URLs under one Config. It is safe for concurrent use.
type Client struct {
	http     *http.Client
	timeout  time.Duration
	maxBytes int64
	log      *slog.Logger
}

// Response is the answer to a successful fetch. Its Body yields at most the
// client's MaxBytes bytes, then fails with an error wrapping ErrTooLarge;
// a failure while reading is an *Error. Close the Body when done.
type Response struct {
	// Body is the response body.
	Body io.ReadCloser
	// ContentType is the Content-Type the server declared, if any.
	ContentType string
	// Size is the declared length of the body, or -1 when unknown.
	Size int64
	// MaxBytes is the cap on Body.
	MaxBytes int64
	// ETag and LastModified are the answer's validators, if it gave any.
	ETag, LastModified string
}

// New returns a Client configured by c, with defaults for zero fields.
func New(c Config) *Client {
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Client{
		http:     newHTTPClient(c),
		timeout:  c.Timeout,
		maxBytes: c.MaxBytes,
		log:      c.Logger,
	}
}

// NewDialer returns the dialer every outbound connection goes through: it
// checks each resolved address with c's guard (unless c.AllowLocal) and
// gives up after c's ConnectTimeout (DefaultConnectTimeout when zero).
// Other protocols than HTTP (Git over SSH) dial through it too.
func NewDialer(c Config) *net.Dialer {
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	dialer := &net.Dialer{Timeout: c.ConnectTimeout}
	if !c.AllowLocal {
		dialer.Control = c.guard().control
	}
	return dialer
}

// Check reports whether the guard of c lets ap be dialled: nil when it
// does (always with AllowLocal), an error wrapping ErrRefused when not.
// It is for protocols that must pick an address before handing it to a
// library that dials on its own.
func (c Config) Check(ap netip.AddrPort) error {
	if c.AllowLocal {
		return nil
	}
	return c.guard()(ap)
}

// guard is the address check of c when AllowLocal is false.
func (c Config) guard() Guard {
	if c.Guard != nil {
		return c.Guard
	}
	return publicGuard()
}

// NewHTTPClient returns an *http.Client with the same guard, redirect
// rules and timeouts as a Client built from c, but without the body cap
// and without a bound on a whole exchange: the caller reads bodies of its
// own size and bounds the exchange with its context. Git over HTTP uses it.
func NewHTTPClient(c Config) *http.Client {
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	return newHTTPClient(c)
}

// newHTTPClient builds the guarded client of c, whose zero fields have
// their defaults already.
func newHTTPClient(c Config) *http.Client {
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           NewDialer(c).DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   c.ConnectTimeout,
		ResponseHeaderTimeout: c.Timeout,
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
	}
	maxRedirects := max(c.MaxRedirects, 0)
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errTooManyRedirects
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return errScheme
			}
			return nil
		},
	}
}

var (
	errTooManyRedirects = errors.New("too many redirects")
	errScheme           = errors.New("only http and https URLs are fetched")
)

// Get fetches rawURL with GET and returns the response once its headers
// are in; the body is read as the caller reads it. The fetch ends, body
// included, after the client's Timeout or when ctx ends. Any failure,
// including an answer other than 200, is an *Error.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	return c.get(ctx, rawURL, Validators{})
}

// get is Get sending the validators of a previous answer; a 304 answer
// is ErrNotModified.
func (c *Client) get(ctx context.Context, rawURL string, v Validators) (*Response, error) {
	header := http.Header{}
	if v.ETag != "" {
		header.Set("If-None-Match", v.ETag)
	}
	if v.LastModified != "" {
		header.Set("If-Modified-Since", v.LastModified)
	}
	return c.do(ctx, http.MethodGet, rawURL, nil, header, v.ETag != "" || v.LastModified != "")
}

// do sends one request under the client's guard, timeout and size cap and
// returns the response once its headers are in. conditional says the
// request carries validators, so that a 304 is ErrNotModified; any other
// answer but 200 is an *Error with the status the server answered.
func (c *Client) do(ctx context.Context, method, rawURL string, payload io.Reader, header http.Header, conditional bool) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, c.fail(ctx, rawURL, "", errScheme)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	req, err := http.NewRequestWithContext(ctx, method, u.String(), payload)
	if err != nil {
		cancel()
		return nil, c.fail(ctx, rawURL, "", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := c.http.Do(req)
	if err != nil {
		cancel()
		return nil, c.fail(ctx, rawURL, "", err)
	}
	if resp.StatusCode == http.StatusNotModified && conditional {
		resp.Body.Close()
		cancel()
		return nil, ErrNotModified
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		e := c.fail(ctx, rawURL, resp.Status, fmt.Errorf("answered %s", resp.Status)).(*Error)
		e.Code = resp.StatusCode
		return nil, e
	}
	if resp.ContentLength > c.maxBytes {
		resp.Body.Close()
		cancel()
		return nil, &TooLargeError{Max: c.maxBytes}
	}
	return &Response{
		Body:         &body{r: resp.Body, url: rawURL, left: c.maxBytes, max: c.maxBytes, cancel: cancel, c: c, ctx: ctx},
		ContentType:  resp.Header.Get("Content-Type"),
		Size:         resp.ContentLength,
		MaxBytes:     c.maxBytes,
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
	}, nil
}

// fail logs why rawURL could not be fetched and returns the *Error shown to
// the caller; status is the HTTP status when the server answered.
func (c *Client) fail(ctx context.Context, rawURL, status string, cause error) error {
	c.log.DebugContext(ctx, "fetch failed", "url", redact(rawURL), "err", cause)
	var ne net.Error
	timeout := errors.Is(cause, context.DeadlineExceeded) || errors.As(cause, &ne) && ne.Timeout()
	return &Error{URL: redact(rawURL), Status: status, Timeout: timeout}
}

// redact hides the password of a URL's user information.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	return u.Redacted()
}
