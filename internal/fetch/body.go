package fetch

import (
	"context"
	"errors"
	"io"
)

// body is a response body that yields at most max bytes, turns read
// failures (a timeout, a reset) into an *Error, and ends the fetch's
// deadline when closed.
type body struct {
	r      io.ReadCloser
	url    string
	left   int64 // bytes that may still be read before the cap
	max    int64
	cancel context.CancelFunc
	c      *Client
	ctx    context.Context
}

// Read implements io.Reader.
func (b *body) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Read one byte more to tell "exactly max" from "more than max".
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n > 0 {
			return 0, &TooLargeError{Max: b.max}
		}
		return 0, b.readErr(err)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, b.readErr(err)
}

// readErr passes io.EOF and nil on and turns anything else into an *Error.
func (b *body) readErr(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return err
	}
	return b.c.fail(b.ctx, b.url, "", err)
}

// Close implements io.Closer.
func (b *body) Close() error {
	err := b.r.Close()
	b.cancel()
	return err
}
