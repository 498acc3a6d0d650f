package app

import (
	"context"
	"net/http"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// shareTarget is the space or collection a sharing page is about.
type shareTarget struct {
	Kind  quire.GrantTarget
	ID    string
	OrgID string
	Title string
	Emoji string
	// Parent is the collection it sits in, "" at the organization's root.
	Parent  string
	Default quire.DefaultLevel
	// Base is the address of its sharing page.
	Base string
}

// IsSpace reports whether the target is a space, for the template.
func (t *shareTarget) IsSpace() bool { return t.Kind == quire.GrantSpace }

// shareTargetOf loads the space or collection of the request's path.
func (a *App) shareTargetOf(r *http.Request) (*shareTarget, error) {
	ctx := r.Context()
	if r.PathValue("spaceId") != "" {
		sp, err := spaceFrom(r)
		if err != nil {
			return nil, err
		}
		return &shareTarget{Kind: quire.GrantSpace, ID: sp.ID, OrgID: sp.OrgID, Title: sp.Title, Emoji: sp.Emoji,
			Parent: sp.Parent, Default: sp.DefaultLevel, Base: spaceAppPath(sp.ID, "sharing")}, nil
	}
	c, err := a.svc.Collection(ctx, r.PathValue("collectionId"))
	if err != nil {
		return nil, err
	}
	return &shareTarget{Kind: quire.GrantCollection, ID: c.ID, OrgID: c.OrgID, Title: c.Title,
		Parent: c.Parent, Default: c.DefaultLevel, Base: "/app/c/" + c.ID + "/sharing"}, nil
}

// inheritedShares are the grants of a collection above the target, which
// reach everything in it.
type inheritedShares struct {
	Collection *quire.Collection
	Users      []service.UserGrant
	Teams      []service.TeamGrant
}

// shareRow is a person or team given a role on the target.
type shareRow struct {
	// Kind is "users" or "teams", as the change addresses say.
	Kind, ID, Name, Detail, Link string
	Role                         quire.Role
}

// shareRows lists people, then teams, as rows.
func shareRows(orgID string, users []service.UserGrant, teams []service.TeamGrant) []shareRow {
	var out []shareRow
	for _, g := range users {
		out = append(out, shareRow{Kind: "users", ID: g.User.ID, Name: g.User.DisplayName, Detail: g.User.Email,
			Link: "/app/o/" + orgID + "/members/" + g.User.ID, Role: g.Role})
	}
	for _, g := range teams {
		detail := "1 member"
		if g.Team.Members != 1 {
			detail = strconv.Itoa(g.Team.Members) + " members"
		}
		out = append(out, shareRow{Kind: "teams", ID: g.Team.ID, Name: g.Team.Title, Detail: detail,
			Link: "/app/o/" + orgID + "/teams/" + g.Team.ID, Role: g.Role})
	}
	return out
}

// defaultOption is a choice of the default access select.
type defaultOption struct {
	Value, Label string
}

// sharingData is what a sharing page shows.
type sharingData struct {
	Target *shareTarget
	// Rows are the people and teams given a role here.
	Rows      []shareRow
	Inherited []inheritedShares
	// DefaultValue is the default level as the form names it; Effective
	// says what organization members get by default, and from where.
	DefaultValue string
	Effective    string
	Admin        bool
	Roles        []roleOption
	Defaults     []defaultOption
	People       []*quire.Member
	OrgTeams     []*quire.Team
	Notice       string
	Problem      *problem
}

// defaultOptions are the choices of default access: inherit, none, or a
// role.
func defaultOptions(isSpace bool) []defaultOption {
	above := "its collection"
	if !isSpace {
		above = "the collection above"
	}
	out := []defaultOption{{"inherit", "Inherit (" + above + " or the organization)"}, {"none", "No one beyond those listed"}}
	for _, r := range quire.Roles() {
		out = append(out, defaultOption{string(r), "Every member: " + roleName(r)})
	}
	return out
}

// defaultValue names a default level as the form does.
func defaultValue(d quire.DefaultLevel) string {
	if d == quire.DefaultNone {
		return "none"
	}
	return string(d)
}

// sharing shows who has which role on a space or collection: people and
// teams given one here, those given one on a collection above, and what
// members get by default; admins change all of it.
func (a *App) sharing(w http.ResponseWriter, r *http.Request) error {
	return a.sharingPage(w, r, http.StatusOK, nil)
}

// sharingPage draws a sharing page, with a refused change's problem.
func (a *App) sharingPage(w http.ResponseWriter, r *http.Request, status int, p *problem) error {
	ctx := r.Context()
	t, err := a.shareTargetOf(r)
	if err != nil {
		return err
	}
	sh, err := a.shell(r, t.OrgID)
	if err != nil {
		return err
	}
	sh.Title = "Sharing · " + t.Title
	if t.IsSpace() {
		sh.SpaceID = t.ID
	}
	d := sharingData{Target: t, DefaultValue: defaultValue(t.Default), Admin: levelFrom(ctx) >= admin,
		Roles: grantRoleOptions(), Defaults: defaultOptions(t.IsSpace()), Notice: noticeOf(r), Problem: p}
	users, teams, err := a.grantsOn(ctx, t.Kind, t.ID)
	if err != nil {
		return err
	}
	d.Rows = shareRows(t.OrgID, users, teams)
	// Walk up the collections: their grants reach the target, and the
	// first default level that is not "inherit" is the one that holds.
	effective, from := t.Default, ""
	for parent, hops := t.Parent, 0; parent != "" && hops < 64; hops++ {
		c, err := a.svc.Collection(ctx, parent)
		if err != nil {
			return err
		}
		in := inheritedShares{Collection: c}
		if in.Users, in.Teams, err = a.grantsOn(ctx, quire.GrantCollection, c.ID); err != nil {
			return err
		}
		if len(in.Users)+len(in.Teams) > 0 {
			d.Inherited = append(d.Inherited, in)
		}
		if effective == quire.DefaultInherit {
			effective, from = c.DefaultLevel, c.Title
		}
		parent = c.Parent
	}
	switch {
	case effective == quire.DefaultInherit && sh.Org.DefaultRole == "":
		d.Effective = "Members of the organization get no access by default (the organization's default): only those listed, and admins, see it."
	case effective == quire.DefaultInherit:
		d.Effective = "Members of the organization get " + roleName(sh.Org.DefaultRole) + " access by default, the organization's default."
	case effective == quire.DefaultNone:
		d.Effective = "Members of the organization get no access by default: only those listed, and admins, see it."
	default:
		d.Effective = "Members of the organization get " + roleName(effective.Role()) + " access by default."
	}
	if from != "" && effective != quire.DefaultInherit {
		d.Effective += " This comes from the collection " + from + "."
	}
	if d.Admin {
		people, err := a.svc.Members(ctx, t.OrgID, quire.MemberFilter{Order: quire.OrderAsc}, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		d.People = people.Items
		teams, err := a.svc.Teams(ctx, t.OrgID, quire.TeamFilter{}, quire.Page{Limit: quire.MaxLimit})
		if err != nil {
			return err
		}
		d.OrgTeams = teams.Items
	}
	return a.render(w, r, status, "sharing", sh, d)
}

// grantsOn lists the people and teams holding a role on a space or
// collection.
func (a *App) grantsOn(ctx context.Context, kind quire.GrantTarget, id string) ([]service.UserGrant, []service.TeamGrant, error) {
	page := quire.Page{Limit: quire.MaxLimit}
	var (
		users *quire.List[service.UserGrant]
		teams *quire.List[service.TeamGrant]
		err   error
	)
	if kind == quire.GrantSpace {
		if users, err = a.svc.SpaceUserGrants(ctx, id, page); err == nil {
			teams, err = a.svc.SpaceTeamGrants(ctx, id, page)
		}
	} else {
		if users, err = a.svc.CollectionUserGrants(ctx, id, page); err == nil {
			teams, err = a.svc.CollectionTeamGrants(ctx, id, page)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return users.Items, teams.Items, nil
}

// sharingFailed draws the sharing page with the problem a change met, or
// returns an error that is not the person's doing.
func (a *App) sharingFailed(w http.ResponseWriter, r *http.Request, err error) error {
	p, status, ok := userProblem(err)
	if !ok {
		return err
	}
	return a.sharingPage(w, r, status, p)
}

// sharingDone goes back to the sharing page after a change.
func sharingDone(w http.ResponseWriter, r *http.Request, t *shareTarget, done string) {
	http.Redirect(w, r, t.Base+"?done="+done, http.StatusSeeOther)
}

// formRole reads the role field of a form.
func formRole(r *http.Request) (quire.Role, error) {
	role := quire.Role(r.PostFormValue("role"))
	if !role.Valid() {
		return "", quire.Invalid("role", "choose one of the listed roles")
	}
	return role, nil
}

// share gives a person or a team a role on the space or collection.
func (a *App) share(w http.ResponseWriter, r *http.Request) error {
	t, err := a.shareTargetOf(r)
	if err != nil {
		return err
	}
	role, err := formRole(r)
	if err != nil {
		return a.sharingFailed(w, r, err)
	}
	var users, teams []string
	if u := r.PostFormValue("user"); u != "" {
		users = []string{u}
	}
	if tm := r.PostFormValue("team"); tm != "" {
		teams = []string{tm}
	}
	if len(users)+len(teams) == 0 {
		field := "user"
		if _, ok := r.PostForm["team"]; ok {
			field = "team"
		}
		return a.sharingFailed(w, r, quire.Invalid(field, "choose who to share with"))
	}
	if t.IsSpace() {
		err = a.svc.InviteToSpace(r.Context(), t.ID, role, users, teams)
	} else {
		err = a.svc.InviteToCollection(r.Context(), t.ID, role, users, teams)
	}
	if err != nil {
		return a.sharingFailed(w, r, err)
	}
	sharingDone(w, r, t, "shared")
	return nil
}

// principalOf reads the {kind} path parameter: users or teams.
func principalOf(r *http.Request) (quire.Principal, error) {
	switch r.PathValue("kind") {
	case "users":
		return quire.PrincipalUser, nil
	case "teams":
		return quire.PrincipalTeam, nil
	}
	return "", quire.NotFound("page")
}

// changeShare changes the role of a person or team on the space or
// collection.
func (a *App) changeShare(w http.ResponseWriter, r *http.Request) error {
	return a.setShare(w, r, false)
}

// removeShare takes a person's or team's role on the space or collection
// away.
func (a *App) removeShare(w http.ResponseWriter, r *http.Request) error {
	return a.setShare(w, r, true)
}

// setShare changes or removes one grant.
func (a *App) setShare(w http.ResponseWriter, r *http.Request, remove bool) error {
	t, err := a.shareTargetOf(r)
	if err != nil {
		return err
	}
	kind, err := principalOf(r)
	if err != nil {
		return err
	}
	var role *quire.Role
	if !remove {
		rl, err := formRole(r)
		if err != nil {
			return a.sharingFailed(w, r, err)
		}
		role = &rl
	}
	if t.IsSpace() {
		err = a.svc.SetSpaceGrant(r.Context(), t.ID, kind, r.PathValue("principalId"), role)
	} else {
		err = a.svc.SetCollectionGrant(r.Context(), t.ID, kind, r.PathValue("principalId"), role)
	}
	if err != nil {
		return a.sharingFailed(w, r, err)
	}
	done := "changed"
	if remove {
		done = "unshared"
	}
	sharingDone(w, r, t, done)
	return nil
}

// setDefaultAccess changes what members of the organization get on the
// space or collection without being listed.
func (a *App) setDefaultAccess(w http.ResponseWriter, r *http.Request) error {
	t, err := a.shareTargetOf(r)
	if err != nil {
		return err
	}
	var d quire.DefaultLevel
	switch v := r.PostFormValue("default"); {
	case v == "none":
		d = quire.DefaultNone
	case v == string(quire.DefaultInherit) || quire.Role(v).Valid():
		d = quire.DefaultLevel(v)
	default:
		return a.sharingFailed(w, r, quire.Invalid("default", "choose one of the listed levels"))
	}
	u := userFrom(r.Context())
	if t.IsSpace() {
		_, err = a.svc.UpdateSpace(r.Context(), u, t.ID, quire.SpaceUpdate{DefaultLevel: &d})
	} else {
		_, err = a.svc.UpdateCollection(r.Context(), u, t.ID, quire.CollectionUpdate{DefaultLevel: &d})
	}
	if err != nil {
		return a.sharingFailed(w, r, err)
	}
	sharingDone(w, r, t, "default")
	return nil
}
