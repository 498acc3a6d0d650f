package httpapi

import (
	"context"

	"quire/internal/quire"
)

// memberJSON is the Member object.
type memberJSON struct {
	Object     string   `json:"object" enum:"member"`
	ID         string   `json:"id"`
	Role       *string  `json:"role" nullable:"true" enum:"admin,create,edit,review,comment,read"`
	User       userJSON `json:"user"`
	Disabled   bool     `json:"disabled"`
	JoinedAt   string   `json:"joinedAt" format:"date-time"`
	LastSeenAt *string  `json:"lastSeenAt,omitempty" format:"date-time"`
	SSO        bool     `json:"sso"`
	Spaces     int      `json:"spaces"`
	Teams      int      `json:"teams"`
}

// memberOut converts a membership.
func (s *Server) memberOut(m *quire.Member) memberJSON {
	return memberJSON{Object: "member", ID: m.User.ID, Role: roleOrNull(m.Role), User: s.userOut(&m.User),
		Disabled: m.Disabled, JoinedAt: timestamp(m.JoinedAt), LastSeenAt: optTimestamp(m.LastSeenAt),
		SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams}
}

// MemberPath names a member of an organization.
type MemberPath struct {
	OrgPath
	UserID string `path:"userId"`
}

// memberListParams are the filters of the member list.
type memberListParams struct {
	OrgPath
	ListParams
	Order  string `query:"order" enum:"asc,desc" default:"desc"`
	Role   string `query:"role" enum:"admin,create,edit,review,comment,read,guest" doc:"Only members with this role; guest selects members without one"`
	Search string `query:"search" maxLength:"256" doc:"Matches display name and email"`
	Sort   string `query:"sort" enum:"joinedAt,lastSeenAt" default:"joinedAt" doc:"lastSeenAt lists only members seen at least once"`
}

func (s *Server) listMembers(ctx context.Context, in *memberListParams) (*body[listOf[memberJSON]], error) {
	f := quire.MemberFilter{Search: in.Search, Sort: quire.MemberSort(in.Sort), Order: quire.Order(in.Order)}
	if in.Role != "" {
		r := quire.Role(in.Role)
		if in.Role == "guest" {
			r = ""
		}
		f.Role = &r
	}
	l, err := s.svc.Members(ctx, in.OrganizationID, f, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.memberOut)), nil
}

func (s *Server) getMember(ctx context.Context, in *MemberPath) (*body[memberJSON], error) {
	m, err := s.svc.Member(ctx, in.OrganizationID, in.UserID)
	if err != nil {
		return nil, err
	}
	return reply(s.memberOut(m)), nil
}

func (s *Server) updateMember(ctx context.Context, in *struct {
	MemberPath
	Body struct {
		Role nullable[string] `json:"role,omitempty" enum:"admin,create,edit,review,comment,read"`
	}
}) (*body[memberJSON], error) {
	var role *quire.Role
	if in.Body.Role.Set {
		r := quire.Role(in.Body.Role.Value)
		role = &r
	}
	m, err := s.svc.UpdateMemberRole(ctx, in.OrganizationID, in.UserID, role)
	if err != nil {
		return nil, err
	}
	return reply(s.memberOut(m)), nil
}

func (s *Server) removeMember(ctx context.Context, in *MemberPath) (*statusOnly, error) {
	ok, err := s.svc.RemoveMember(ctx, in.OrganizationID, in.UserID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) setMemberSSO(ctx context.Context, in *MemberPath) (*body[memberJSON], error) {
	m, err := s.svc.SetMemberSSO(ctx, in.OrganizationID, in.UserID)
	if err != nil {
		return nil, err
	}
	return reply(s.memberOut(m)), nil
}

// pingJSON answers a ping; visitor claims are only set for visitor-auth
// sites.
type pingJSON struct {
	ServiceVisitorClaims string `json:"serviceVisitorClaims,omitempty" doc:"Token to attach to the user for visitor-authenticated sites"`
}

func (s *Server) ping(ctx context.Context, in *OrgPath) (*body[pingJSON], error) {
	if err := s.svc.Ping(ctx, userFrom(ctx), in.OrganizationID); err != nil {
		return nil, err
	}
	return reply(pingJSON{}), nil
}

// memberSpaceJSON is a space a member holds a role on.
type memberSpaceJSON struct {
	Permission string    `json:"permission" enum:"admin,create,edit,review,comment,read"`
	Space      spaceJSON `json:"space"`
}

func (s *Server) listMemberSpaces(ctx context.Context, in *struct {
	MemberPath
	ListParams
	Order string `query:"order" enum:"asc,desc" default:"desc"`
}) (*body[listOf[memberSpaceJSON]], error) {
	l, err := s.svc.MemberSpaces(ctx, in.OrganizationID, in.UserID, quire.Order(in.Order), in.page())
	if err != nil {
		return nil, err
	}
	spaces := make([]*quire.Space, len(l.Items))
	for i, ms := range l.Items {
		spaces[i] = ms.Space
	}
	levels, err := s.svc.SpaceLevels(ctx, userFrom(ctx), spaces)
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, func(ms *quire.MemberSpace) memberSpaceJSON {
		return memberSpaceJSON{Permission: string(ms.Role), Space: s.spaceOut(ms.Space, levels[ms.Space.ID])}
	})), nil
}

// memberTeamJSON is a team a member belongs to.
type memberTeamJSON struct {
	Team   teamJSON       `json:"team"`
	Member teamMemberJSON `json:"member"`
}

// teamMemberJSON is a member's role in a team.
type teamMemberJSON struct {
	Role string `json:"role" enum:"owner,member"`
}

func (s *Server) listMemberTeams(ctx context.Context, in *struct {
	MemberPath
	ListParams
	Title string `query:"title" maxLength:"64" doc:"Case-insensitive part of the title"`
}) (*body[listOf[memberTeamJSON]], error) {
	l, err := s.svc.MemberTeams(ctx, in.OrganizationID, in.UserID, quire.TeamFilter{Title: in.Title}, in.page())
	if err != nil {
		return nil, err
	}
	lvl := levelFrom(ctx)
	return reply(listJSON(l, func(mt *quire.MemberTeam) memberTeamJSON {
		return memberTeamJSON{Team: teamOut(mt.Team, lvl), Member: teamMemberJSON{Role: mt.Role}}
	})), nil
}
