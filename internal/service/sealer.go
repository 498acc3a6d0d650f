package service

import (
	"context"
	"sync"

	"quire/internal/quire"
	"quire/internal/secret"
)

// sealer gives the box sealing secrets kept in the database: under the
// server's secret key when one is given, else under a key of server_keys
// made by the first replica that needs it. The box is made once; a
// failure is not remembered, so a later call tries again.
type sealer struct {
	// key is the server's secret key; nil uses the key stored under name.
	key  []byte
	name string

	mu  sync.Mutex
	box *secret.Box
}

// newSealer returns a sealer whose stored key, when the server has no
// secret key, is named name in server_keys.
func newSealer(name string) *sealer { return &sealer{name: name} }

// open returns the box.
func (s *sealer) open(ctx context.Context, st quire.ServerKeyStore) (*secret.Box, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.box != nil {
		return s.box, nil
	}
	key := s.key
	if key == nil {
		var err error
		if key, err = st.ServerKey(ctx, s.name, secret.NewKey()); err != nil {
			return nil, err
		}
	}
	box, err := secret.New(key)
	if err != nil {
		return nil, err
	}
	s.box = box
	return box, nil
}
