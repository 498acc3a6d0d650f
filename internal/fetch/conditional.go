package fetch

import (
	"context"
	"errors"
)

// Validators are what a previous answer said to recognize its body again:
// its ETag and Last-Modified headers.
type Validators struct {
	ETag, LastModified string
}

// ErrNotModified is the answer of GetIfChanged when the server says the
// file has not changed since the answer the validators came from.
var ErrNotModified = errors.New("fetch: not modified")

// GetIfChanged is Get as a conditional request: it sends v's validators
// (If-None-Match, If-Modified-Since) and returns ErrNotModified when the
// server answers 304. With no validators it is Get.
func (c *Client) GetIfChanged(ctx context.Context, rawURL string, v Validators) (*Response, error) {
	return c.get(ctx, rawURL, v)
}
