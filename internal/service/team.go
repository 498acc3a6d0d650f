package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// Teams lists the teams of an organization. With an owner, only the
// teams that member can manage are listed: every team for an admin of the
// organization, the teams they own otherwise.
func (s *Service) Teams(ctx context.Context, orgID string, f quire.TeamFilter, p quire.Page) (*quire.List[*quire.Team], error) {
	if f.Owner != "" {
		m, err := s.store.Member(ctx, orgID, f.Owner)
		if quire.IsNotFound(err) {
			return &quire.List[*quire.Team]{Items: []*quire.Team{}}, nil
		} else if err != nil {
			return nil, err
		}
		if m.Role == quire.RoleAdmin {
			f.Owner = ""
		}
	}
	return s.store.Teams(ctx, orgID, f, p)
}

// CreateTeam creates a team with initial members, who must belong to the
// organization.
func (s *Service) CreateTeam(ctx context.Context, orgID, title string, members []string) (*quire.Team, error) {
	if err := checkTitle("title", title, 1, 64); err != nil {
		return nil, err
	}
	var out *quire.Team
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		t := &quire.Team{ID: quire.NewID(), OrgID: orgID, Title: strings.TrimSpace(title), CreatedAt: s.Now()}
		if err := st.CreateTeam(ctx, t, dedupe(members)); err != nil {
			return err
		}
		var err error
		out, err = st.Team(ctx, orgID, t.ID)
		return err
	})
	return out, err
}

// Team returns a team.
func (s *Service) Team(ctx context.Context, orgID, id string) (*quire.Team, error) {
	t, err := s.store.Team(ctx, orgID, id)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("team")
	}
	return t, err
}

// RenameTeam changes a team's title.
func (s *Service) RenameTeam(ctx context.Context, orgID, id, title string) (*quire.Team, error) {
	if err := checkTitle("title", title, 1, 64); err != nil {
		return nil, err
	}
	t, err := s.store.RenameTeam(ctx, orgID, id, strings.TrimSpace(title))
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("team")
	}
	return t, err
}

// DeleteTeam deletes a team; it reports whether it existed.
func (s *Service) DeleteTeam(ctx context.Context, orgID, id string) (bool, error) {
	return s.store.DeleteTeam(ctx, orgID, id)
}

// dedupe drops repeated strings, keeping the first occurrence.
func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// TeamMembers lists the members of a team, newest to the organization
// first.
func (s *Service) TeamMembers(ctx context.Context, orgID, teamID string, p quire.Page) (*quire.List[*quire.Member], error) {
	if _, err := s.Team(ctx, orgID, teamID); err != nil {
		return nil, err
	}
	return s.Members(ctx, orgID, quire.MemberFilter{Team: teamID}, p)
}

// AddTeamMember adds a member of the organization to a team, or makes an
// owner of the team a plain member again.
func (s *Service) AddTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	if userID == "" {
		return quire.Invalid("user", "choose a member to add")
	}
	err := s.store.SetTeamMember(ctx, orgID, teamID, userID, quire.TeamMember)
	if quire.IsNotFound(err) {
		return quire.NotFound("team")
	}
	return err
}

// RemoveTeamMember removes a user from a team; it reports whether they
// were in it.
func (s *Service) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	if _, err := s.Team(ctx, orgID, teamID); err != nil {
		return false, err
	}
	return s.store.RemoveTeamMember(ctx, orgID, teamID, userID)
}
