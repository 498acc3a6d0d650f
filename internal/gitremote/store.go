package gitremote

import (
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"
)

// errObjectsTooLarge is the cause of objects unpacking to more than the cap.
var errObjectsTooLarge = errors.New("objects over the size cap")

// store is go-git's memory storage counting the bytes of the objects put
// into it, refusing more than a cap: a small pack that inflates to a huge
// repository stops there.
type store struct {
	*memory.Storage
	left int64
}

// newStore returns an empty store holding at most max bytes of objects.
func newStore(max int64) *store {
	return &store{Storage: memory.NewStorage(), left: max}
}

// SetEncodedObject implements storer.EncodedObjectStorer.
func (s *store) SetEncodedObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	s.left -= obj.Size()
	if s.left < 0 {
		return plumbing.ZeroHash, errObjectsTooLarge
	}
	return s.Storage.SetEncodedObject(obj)
}

// errPackTooLarge is the cause of a pack longer than the cap.
var errPackTooLarge = errors.New("pack over the size cap")

// capReader yields at most left bytes of r, then fails with
// errPackTooLarge instead of ending quietly.
type capReader struct {
	r    io.Reader
	left int64
}

// Read implements io.Reader.
func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, err := c.r.Read(one[:]); n > 0 {
			return 0, errPackTooLarge
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
