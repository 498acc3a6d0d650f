package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// IssueToken issues a new API token for a user, with the default name,
// shown once.
func (s *Service) IssueToken(ctx context.Context, u *quire.User) (string, error) {
	token, _, err := s.CreatePersonalToken(ctx, u, quire.DefaultTokenName)
	return token, err
}

// CreatePersonalToken issues a new API token for u with a name (1 to 64
// characters). It returns the token, to show once, and its record.
func (s *Service) CreatePersonalToken(ctx context.Context, u *quire.User, name string) (string, *quire.Token, error) {
	if err := checkTitle("name", name, 1, 64); err != nil {
		return "", nil, err
	}
	token, t := quire.NewToken(u.ID, s.Now())
	t.Name = strings.TrimSpace(name)
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.CreateToken(ctx, t); err != nil {
			return err
		}
		return auditUserOrgs(ctx, st, u.ID, quire.AuditEvent{ActorID: u.ID, Action: quire.AuditTokenCreated,
			TargetKind: quire.AuditTargetToken, TargetID: t.ID, Details: map[string]string{"name": t.Name}})
	})
	if err != nil {
		return "", nil, err
	}
	s.log.InfoContext(ctx, "API token created", "user", u.ID, "token", t.ID)
	t.Hash = nil
	return token, t, nil
}

// ListTokens lists u's API tokens, the newest first, without their
// secrets' hashes.
func (s *Service) ListTokens(ctx context.Context, u *quire.User) ([]*quire.Token, error) {
	list, err := s.store.Tokens(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		t.Hash = nil
	}
	return list, nil
}

// RevokeToken deletes one of u's API tokens; every replica refuses it
// from the next request on, since none caches tokens. A token that is not
// u's is ENOTFOUND.
func (s *Service) RevokeToken(ctx context.Context, u *quire.User, id string) error {
	var ok bool
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if ok, err = st.DeleteToken(ctx, u.ID, id); err != nil || !ok {
			return err
		}
		return auditUserOrgs(ctx, st, u.ID, quire.AuditEvent{ActorID: u.ID, Action: quire.AuditTokenRevoked,
			TargetKind: quire.AuditTargetToken, TargetID: id})
	})
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("token")
	}
	s.log.InfoContext(ctx, "API token revoked", "user", u.ID, "token", id)
	return nil
}
