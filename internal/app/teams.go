package app

import (
	"net/http"

	"quire/internal/quire"
)

// teamsData is what the teams page shows.
type teamsData struct {
	OrgID   string
	Teams   []*quire.Team
	Admin   bool
	Title   string
	Notice  string
	Problem *problem
}

// teams lists an organization's teams; admins create them here.
func (a *App) teams(w http.ResponseWriter, r *http.Request) error {
	return a.teamsPage(w, r, http.StatusOK, nil)
}

// teamsPage draws the teams page, with a refused creation's problem.
func (a *App) teamsPage(w http.ResponseWriter, r *http.Request, status int, p *problem) error {
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Teams", "teams"
	l, err := a.svc.Teams(r.Context(), orgID, quire.TeamFilter{}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	d := teamsData{OrgID: orgID, Teams: l.Items, Admin: sh.Level >= admin, Notice: noticeOf(r), Problem: p}
	if p != nil {
		d.Title = r.PostFormValue("title")
	}
	return a.render(w, r, status, "teams", sh, d)
}

// createTeam creates a team and opens its page.
func (a *App) createTeam(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	t, err := a.svc.CreateTeam(r.Context(), orgID, r.PostFormValue("title"), nil)
	if err != nil {
		if p, status, ok := userProblem(err); ok {
			return a.teamsPage(w, r, status, p)
		}
		return err
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/teams/"+t.ID+"?done=created", http.StatusSeeOther)
	return nil
}

// teamData is what a team's page shows.
type teamData struct {
	OrgID   string
	Team    *quire.Team
	Members []*quire.Member
	// Candidates are the organization's members not in the team, to add.
	Candidates []*quire.Member
	Admin      bool
	Notice     string
	Problem    *problem
}

// team shows a team and its members; admins rename and delete it and
// add and remove members.
func (a *App) team(w http.ResponseWriter, r *http.Request) error {
	return a.teamPage(w, r, http.StatusOK, nil)
}

// teamPage draws a team's page, with a refused change's problem.
func (a *App) teamPage(w http.ResponseWriter, r *http.Request, status int, p *problem) error {
	ctx := r.Context()
	orgID, teamID := r.PathValue("organizationId"), r.PathValue("teamId")
	t, err := a.svc.Team(ctx, orgID, teamID)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = t.Title, "teams"
	members, err := a.svc.TeamMembers(ctx, orgID, teamID, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	d := teamData{OrgID: orgID, Team: t, Members: members.Items, Admin: sh.Level >= admin, Notice: noticeOf(r), Problem: p}
	if d.Admin {
		in := map[string]bool{}
		for _, m := range members.Items {
			in[m.User.ID] = true
		}
		all, err := a.svc.Members(ctx, orgID, quire.MemberFilter{Order: quire.OrderAsc}, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		for _, m := range all.Items {
			if !in[m.User.ID] {
				d.Candidates = append(d.Candidates, m)
			}
		}
	}
	return a.render(w, r, status, "team", sh, d)
}

// teamFailed draws the team's page with the problem a change met (a
// missing team draws the 404 page), or returns an error that is not the
// person's doing.
func (a *App) teamFailed(w http.ResponseWriter, r *http.Request, err error) error {
	p, status, ok := userProblem(err)
	if !ok {
		return err
	}
	return a.teamPage(w, r, status, p)
}

// teamDone goes back to the team's page after a change.
func teamDone(w http.ResponseWriter, r *http.Request, done string) {
	http.Redirect(w, r, "/app/o/"+r.PathValue("organizationId")+"/teams/"+r.PathValue("teamId")+"?done="+done, http.StatusSeeOther)
}

// renameTeam changes a team's title.
func (a *App) renameTeam(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.svc.RenameTeam(r.Context(), r.PathValue("organizationId"), r.PathValue("teamId"), r.PostFormValue("title")); err != nil {
		return a.teamFailed(w, r, err)
	}
	teamDone(w, r, "renamed")
	return nil
}

// deleteTeam deletes a team and goes back to the list.
func (a *App) deleteTeam(w http.ResponseWriter, r *http.Request) error {
	orgID := r.PathValue("organizationId")
	ok, err := a.svc.DeleteTeam(r.Context(), orgID, r.PathValue("teamId"))
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("team")
	}
	http.Redirect(w, r, "/app/o/"+orgID+"/teams?done=deleted", http.StatusSeeOther)
	return nil
}

// addTeamMember adds a member of the organization to the team.
func (a *App) addTeamMember(w http.ResponseWriter, r *http.Request) error {
	if err := a.svc.AddTeamMember(r.Context(), r.PathValue("organizationId"), r.PathValue("teamId"), r.PostFormValue("user")); err != nil {
		return a.teamFailed(w, r, err)
	}
	teamDone(w, r, "added")
	return nil
}

// removeTeamMember takes a member out of the team.
func (a *App) removeTeamMember(w http.ResponseWriter, r *http.Request) error {
	ok, err := a.svc.RemoveTeamMember(r.Context(), r.PathValue("organizationId"), r.PathValue("teamId"), r.PathValue("userId"))
	if err == nil && !ok {
		err = quire.Invalid("user", "they are not in the team")
	}
	if err != nil {
		return a.teamFailed(w, r, err)
	}
	teamDone(w, r, "left")
	return nil
}
