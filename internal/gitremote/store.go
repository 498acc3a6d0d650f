package gitremote

import (
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/memory"
)

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

// into returns a sink of download unpacking a pack into s.
func (s *store) into(pack io.Reader) error { return packfile.UpdateObjectStorage(s, pack) }
