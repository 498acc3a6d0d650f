package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// BootstrapInput describes the first organization and its owner.
type BootstrapInput struct {
	OrgTitle string
	Email    string
	Name     string
}

// BootstrapResult is what Bootstrap created; Token is shown once.
type BootstrapResult struct {
	Organization string `json:"organization"`
	User         string `json:"user"`
	Token        string `json:"token"`
}

// IsFresh reports whether the database holds no user yet.
func (s *Service) IsFresh(ctx context.Context) (bool, error) {
	n, err := s.store.CountUsers(ctx)
	return n == 0, err
}

// Bootstrap creates an organization, an owner user with the admin role
// and an API token for that user, in one transaction.
func (s *Service) Bootstrap(ctx context.Context, in BootstrapInput) (*BootstrapResult, error) {
	if err := checkTitle("orgTitle", in.OrgTitle, 2, 255); err != nil {
		return nil, err
	}
	var res BootstrapResult
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		now := s.Now()
		org := newOrganization(in.OrgTitle, now)
		if err := st.CreateOrganization(ctx, org); err != nil {
			return err
		}
		u, token, err := s.createUser(ctx, st, in.Email, in.Name)
		if err != nil {
			return err
		}
		m := &quire.Member{OrgID: org.ID, User: *u, Role: quire.RoleAdmin, JoinedAt: now}
		if err := st.AddMember(ctx, m); err != nil {
			return err
		}
		res = BootstrapResult{Organization: org.ID, User: u.ID, Token: token}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// CreateUserInput describes a user to create, optionally as a member of an
// organization with a role.
type CreateUserInput struct {
	Email string
	Name  string
	OrgID string
	Role  quire.Role // "" makes a guest when OrgID is set
}

// CreateUser creates a user with an API token, and the membership when
// OrgID is set. It returns the user and the token, shown once.
func (s *Service) CreateUser(ctx context.Context, in CreateUserInput) (*quire.User, string, error) {
	if in.Role != "" && !in.Role.Valid() {
		return nil, "", quire.Invalid("role", "must be one of admin, create, edit, review, comment, read")
	}
	var (
		u     *quire.User
		token string
	)
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		var err error
		if in.OrgID != "" {
			if _, err := st.Organization(ctx, in.OrgID); err != nil {
				return err
			}
		}
		u, token, err = s.createUser(ctx, st, in.Email, in.Name)
		if err != nil {
			return err
		}
		if in.OrgID == "" {
			return nil
		}
		if err := st.AddMember(ctx, &quire.Member{OrgID: in.OrgID, User: *u, Role: in.Role, JoinedAt: s.Now()}); err != nil {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: in.OrgID, Action: quire.AuditMemberAdded,
			TargetKind: quire.AuditTargetUser, TargetID: u.ID, Details: map[string]string{"role": roleWord(in.Role), "via": "server administrator"}})
	})
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// CreateToken issues a new API token with a name for the user with the
// given email.
func (s *Service) CreateToken(ctx context.Context, email, name string) (string, error) {
	u, err := s.store.UserByEmail(ctx, strings.TrimSpace(email))
	if err != nil {
		return "", err
	}
	token, _, err := s.CreatePersonalToken(ctx, u, name)
	return token, err
}

func (s *Service) createUser(ctx context.Context, st quire.Store, email, name string) (*quire.User, string, error) {
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return nil, "", quire.Invalid("email", "must be an email address")
	}
	if err := checkTitle("name", name, 1, 64); err != nil {
		return nil, "", err
	}
	now := s.Now()
	u := &quire.User{ID: quire.NewID(), DisplayName: strings.TrimSpace(name), Email: email, CreatedAt: now}
	if err := st.CreateUser(ctx, u); err != nil {
		return nil, "", err
	}
	token, t := quire.NewToken(u.ID, now)
	if err := st.CreateToken(ctx, t); err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// Authenticate resolves a presented API token to its user. Any failure is
// EUNAUTHORIZED and says nothing about which part was wrong.
func (s *Service) Authenticate(ctx context.Context, token string) (*quire.User, error) {
	if strings.HasPrefix(token, integrationTokenPrefix) {
		return s.authenticateIntegration(ctx, token)
	}
	bad := quire.Errorf(quire.EUNAUTHORIZED, "invalid API token")
	id, secret, ok := quire.ParseToken(token)
	if !ok {
		return nil, bad
	}
	// Every request reads the token, so that a revoked one is refused by
	// every replica at once; the last-used time is written at most once
	// a minute.
	t, u, err := s.store.TokenUser(ctx, id)
	if quire.IsNotFound(err) {
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	if !quire.CheckSecret(t, secret) {
		return nil, bad
	}
	now := s.Now()
	if since := now.Add(-sessionTouchEvery); !t.LastUsedAt.After(since) {
		if _, err := s.store.TouchToken(ctx, t.ID, now, since); err != nil {
			s.log.WarnContext(ctx, "recording a token's use", "err", err)
		}
	}
	return u, nil
}
