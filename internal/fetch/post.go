package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Post sends payload with POST to rawURL under the same guard, timeouts and
// size cap as Get, with the given headers (an API key, the content
// type), and returns the response once its headers are in. Any failure,
// including an answer other than 200, is an *Error whose Code is the
// status the server answered; header values never appear in it nor in
// the log.
func (c *Client) Post(ctx context.Context, rawURL string, header http.Header, payload []byte) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, c.fail(ctx, rawURL, "", errScheme)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(payload))
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
		Body:        &body{r: resp.Body, url: rawURL, left: c.maxBytes, max: c.maxBytes, cancel: cancel, c: c, ctx: ctx},
		ContentType: resp.Header.Get("Content-Type"),
		Size:        resp.ContentLength,
		MaxBytes:    c.maxBytes,
	}, nil
}
