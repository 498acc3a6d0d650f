package fetch

import (
	"bytes"
	"context"
	"net/http"
)

// Post sends payload with POST to rawURL under the same guard, timeouts and
// size cap as Get, with the given headers (an API key, the content
// type), and returns the response once its headers are in. Any failure,
// including an answer other than 200, is an *Error whose Code is the
// status the server answered; header values never appear in it nor in
// the log.
func (c *Client) Post(ctx context.Context, rawURL string, header http.Header, payload []byte) (*Response, error) {
	return c.do(ctx, http.MethodPost, rawURL, bytes.NewReader(payload), header, false)
}
