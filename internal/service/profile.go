package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// SetDisplayName changes the display name of u (1 to 64 characters) and
// returns the user as changed.
func (s *Service) SetDisplayName(ctx context.Context, u *quire.User, name string) (*quire.User, error) {
	if err := checkTitle("displayName", name, 1, 64); err != nil {
		return nil, err
	}
	if err := s.store.SetDisplayName(ctx, u.ID, strings.TrimSpace(name)); err != nil {
		return nil, err
	}
	return s.store.User(ctx, u.ID)
}
