package httpapi

import (
	"context"

	"quire/internal/quire"
)

// teamJSON is the Team object.
type teamJSON struct {
	Object      string          `json:"object" enum:"team"`
	ID          string          `json:"id"`
	Title       string          `json:"title" minLength:"1" maxLength:"64"`
	Members     int             `json:"members"`
	Spaces      int             `json:"spaces"`
	CreatedAt   string          `json:"createdAt" format:"date-time"`
	Permissions teamPermissions `json:"permissions"`
}

// teamPermissions are the team flags for the caller.
type teamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// teamOut converts a team for a caller at a level in the organization.
func teamOut(t *quire.Team, l quire.Level) teamJSON {
	p := quire.TeamPermissionsFor(l)
	return teamJSON{Object: "team", ID: t.ID, Title: t.Title, Members: t.Members, Spaces: t.Spaces,
		CreatedAt: timestamp(t.CreatedAt), Permissions: teamPermissions{Admin: p.Admin, View: p.View}}
}

// TeamPath names a team.
type TeamPath struct {
	OrgPath
	TeamID string `path:"teamId"`
}

func (s *Server) listTeams(ctx context.Context, in *struct {
	OrgPath
	ListParams
	Owner string `query:"owner" doc:"Only teams this member can manage: all for an organization admin, the teams they own otherwise"`
	Title string `query:"title" maxLength:"64" doc:"Case-insensitive part of the title"`
}) (*body[listOf[teamJSON]], error) {
	l, err := s.svc.Teams(ctx, in.OrganizationID, quire.TeamFilter{Owner: in.Owner, Title: in.Title}, in.page())
	if err != nil {
		return nil, err
	}
	lvl := levelFrom(ctx)
	return reply(listJSON(l, func(t *quire.Team) teamJSON { return teamOut(t, lvl) })), nil
}

func (s *Server) createTeam(ctx context.Context, in *struct {
	OrgPath
	Body struct {
		Title   string   `json:"title" minLength:"1" maxLength:"64"`
		Members []string `json:"members,omitempty" maxItems:"1000"`
	}
}) (*body[teamJSON], error) {
	t, err := s.svc.CreateTeam(ctx, in.OrganizationID, in.Body.Title, in.Body.Members)
	if err != nil {
		return nil, err
	}
	return reply(teamOut(t, levelFrom(ctx))), nil
}

func (s *Server) getTeam(ctx context.Context, in *TeamPath) (*body[teamJSON], error) {
	t, err := s.svc.Team(ctx, in.OrganizationID, in.TeamID)
	if err != nil {
		return nil, err
	}
	return reply(teamOut(t, levelFrom(ctx))), nil
}

func (s *Server) updateTeam(ctx context.Context, in *struct {
	TeamPath
	Body struct {
		Title string `json:"title" minLength:"1" maxLength:"64"`
	}
}) (*body[teamJSON], error) {
	t, err := s.svc.RenameTeam(ctx, in.OrganizationID, in.TeamID, in.Body.Title)
	if err != nil {
		return nil, err
	}
	return reply(teamOut(t, levelFrom(ctx))), nil
}

func (s *Server) deleteTeam(ctx context.Context, in *TeamPath) (*statusOnly, error) {
	ok, err := s.svc.DeleteTeam(ctx, in.OrganizationID, in.TeamID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}
