package service

import (
	"context"

	"quire/internal/quire"
)

// Members lists the members of an organization.
func (s *Service) Members(ctx context.Context, orgID string, f quire.MemberFilter, p quire.Page) (*quire.List[*quire.Member], error) {
	if f.Sort == "" {
		f.Sort = quire.SortJoinedAt
	}
	if f.Order == "" {
		f.Order = quire.OrderDesc
	}
	return s.store.Members(ctx, orgID, f, p)
}

// Member returns one membership.
func (s *Service) Member(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	m, err := s.store.Member(ctx, orgID, userID)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("member")
	}
	return m, err
}

// UpdateMemberRole changes a member's role. The last admin cannot give up
// the role.
func (s *Service) UpdateMemberRole(ctx context.Context, orgID, userID string, role *quire.Role) (*quire.Member, error) {
	var out *quire.Member
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		m, err := st.Member(ctx, orgID, userID)
		if err != nil {
			if quire.IsNotFound(err) {
				return quire.NotFound("member")
			}
			return err
		}
		if role == nil {
			out = m
			return nil
		}
		if m.Role == quire.RoleAdmin && !m.Disabled && *role != quire.RoleAdmin {
			if err := lastAdminGuard(ctx, st, orgID); err != nil {
				return err
			}
		}
		out, err = st.UpdateMemberRole(ctx, orgID, userID, *role)
		if err != nil || out.Role == m.Role {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditMemberRoleChanged,
			TargetKind: quire.AuditTargetUser, TargetID: userID,
			Details: map[string]string{"from": roleWord(m.Role), "to": roleWord(out.Role)}})
	})
	return out, err
}

// lastAdminGuard refuses to leave an organization without an admin who
// can act: disabled admins do not count.
func lastAdminGuard(ctx context.Context, st quire.Store, orgID string) error {
	n, err := st.CountAdmins(ctx, orgID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return quire.Invalid("role", "the organization's last admin cannot lose the admin role")
	}
	return nil
}

// RemoveMember removes a member, their team memberships and grants. It
// reports whether they were a member.
func (s *Service) RemoveMember(ctx context.Context, orgID, userID string) (bool, error) {
	var existed bool
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		m, err := st.Member(ctx, orgID, userID)
		if quire.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		if m.Role == quire.RoleAdmin && !m.Disabled {
			if err := lastAdminGuard(ctx, st, orgID); err != nil {
				return err
			}
		}
		existed, err = st.RemoveMember(ctx, orgID, userID)
		if err != nil || !existed {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditMemberRemoved,
			TargetKind: quire.AuditTargetUser, TargetID: userID, Details: map[string]string{"role": roleWord(m.Role)}})
	})
	return existed, err
}

// SetMemberSSO marks a member as signing in with SSO.
func (s *Service) SetMemberSSO(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	m, err := s.store.SetMemberSSO(ctx, orgID, userID, true)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("member")
	}
	return m, err
}

// Ping records that the caller was active in the organization.
func (s *Service) Ping(ctx context.Context, u *quire.User, orgID string) error {
	return s.store.TouchMember(ctx, orgID, u.ID, s.Now())
}

// MemberSpaces lists the spaces a member was given a role on, directly or
// through a team.
func (s *Service) MemberSpaces(ctx context.Context, orgID, userID string, order quire.Order, p quire.Page) (*quire.List[*quire.MemberSpace], error) {
	if _, err := s.Member(ctx, orgID, userID); err != nil {
		return nil, err
	}
	if order == "" {
		order = quire.OrderDesc
	}
	return s.store.MemberSpaces(ctx, orgID, userID, order, p)
}

// MemberTeams lists the teams a member belongs to.
func (s *Service) MemberTeams(ctx context.Context, orgID, userID string, f quire.TeamFilter, p quire.Page) (*quire.List[*quire.MemberTeam], error) {
	if _, err := s.Member(ctx, orgID, userID); err != nil {
		return nil, err
	}
	return s.store.MemberTeams(ctx, orgID, userID, f, p)
}

// SetMemberDisabled disables or enables a member: a disabled member keeps
// their role, teams and grants but reaches nothing in the organization
// until enabled again. The last admin who can act cannot be disabled.
func (s *Service) SetMemberDisabled(ctx context.Context, orgID, userID string, disabled bool) (*quire.Member, error) {
	var out *quire.Member
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		m, err := st.Member(ctx, orgID, userID)
		if quire.IsNotFound(err) {
			return quire.NotFound("member")
		} else if err != nil {
			return err
		}
		if disabled && m.Role == quire.RoleAdmin && !m.Disabled {
			if err := lastAdminGuard(ctx, st, orgID); err != nil {
				return quire.Invalid("disabled", "the organization's last admin cannot be disabled")
			}
		}
		out, err = st.SetMemberDisabled(ctx, orgID, userID, disabled)
		if err != nil || m.Disabled == disabled {
			return err
		}
		action := quire.AuditMemberEnabled
		if disabled {
			action = quire.AuditMemberDisabled
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: action, TargetKind: quire.AuditTargetUser, TargetID: userID})
	})
	return out, err
}
