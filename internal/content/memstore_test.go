package content

import (
	"context"
	"sync"

	"quire/internal/quire"
)

// memObjects is an in-memory object store for tests; it counts reads.
type memObjects struct {
	mu    sync.Mutex
	m     map[string][]byte
	reads int
}

func newMemObjects() *memObjects { return &memObjects{m: map[string][]byte{}} }

func (s *memObjects) Objects(_ context.Context, keys []string) (map[string][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	out := map[string][]byte{}
	for _, k := range keys {
		if b, ok := s.m[k]; ok {
			out[k] = b
		}
	}
	return out, nil
}

func (s *memObjects) PutObjects(_ context.Context, objs map[string][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, b := range objs {
		s.m[k] = b
	}
	return nil
}

// memRevisions keeps revisions in memory for tests.
type memRevisions struct {
	*memObjects
	revs map[string]*quire.Revision
}

func newMemStore() *memRevisions {
	return &memRevisions{memObjects: newMemObjects(), revs: map[string]*quire.Revision{}}
}

func (s *memRevisions) CreateRevision(_ context.Context, r *quire.Revision) error {
	s.revs[r.ID] = r
	return nil
}

func (s *memRevisions) Revision(_ context.Context, _, id string) (*quire.Revision, error) {
	if r, ok := s.revs[id]; ok {
		return r, nil
	}
	return nil, quire.NotFound("revision")
}

func (s *memRevisions) AdvanceSpaceRevision(context.Context, string, string, string) error {
	return nil
}
