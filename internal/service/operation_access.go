package service

import (
	"context"
	"slices"
	"strings"

	"quire/internal/quire"
)

// Operation is one call of the API as the authorization table sees it:
// which operation, on which subject, needing which level.
type Operation struct {
	// ID is the operation id.
	ID string
	// Scope is the kind of subject the route names, Subject its id.
	Scope   Scope
	Subject string
	// Min is the level a member needs on the subject.
	Min quire.Level
	// Param returns another path parameter of the call ("" when absent),
	// for the scope rules whose target is not the route's subject (the
	// site of an organization route).
	Param func(name string) string
}

// OperationAccess is Access for one operation: a member's level on the
// subject, or for an installation's token what its scopes allow of this
// operation (quire.IntegrationScopes). A token whose scopes name the
// operation, on a subject its installation covers, holds the level the
// operation needs; a token that sees the subject but whose scopes do not
// name the operation is EFORBIDDEN, naming the scopes that would; a
// subject it does not see answers the level of a stranger.
func (s *Service) OperationAccess(ctx context.Context, u *quire.User, op Operation) (quire.Level, any, error) {
	if u.Integration == nil {
		return s.Access(ctx, u, op.Scope, op.Subject)
	}
	level, subject, err := s.integrationAccess(ctx, s.store, u, op.Scope, op.Subject)
	if err != nil {
		return level, subject, err
	}
	g := u.Integration
	og := g.Operation(op.ID)
	if og.Allowed {
		covered, err := s.coversTarget(ctx, g, og.Target, op, subject)
		switch {
		case err != nil:
			return quire.LevelNone, nil, err
		case covered:
			return max(level, op.Min), subject, nil
		case op.Scope == ScopeOrganization && og.Target == quire.TargetSite:
			return quire.LevelNone, nil, quire.NotFound("site")
		}
		// A subject the installation does not cover: the level of the
		// table decides, as for a member.
		return level, subject, nil
	}
	if level < op.Scope.Visible() {
		return level, subject, nil
	}
	return level, subject, scopeRefusal(op.ID)
}

// scopeRefusal is the error of a token whose scopes do not allow an
// operation on a subject it sees.
func scopeRefusal(opID string) error {
	need := quire.ScopesAllowing(opID)
	if len(need) == 0 {
		return quire.Errorf(quire.EFORBIDDEN, "no integration scope allows %s; use a member's token", opID)
	}
	return quire.Errorf(quire.EFORBIDDEN, "the integration's scopes do not allow %s; it needs one of: %s",
		opID, strings.Join(need, ", "))
}

// coversTarget reports whether the installation of g covers what a scope
// rule's operation acts on: the space or site of the route, the site an
// organization route names, or the installation's organization.
func (s *Service) coversTarget(ctx context.Context, g *quire.IntegrationGrant, t quire.ScopeTarget, op Operation, subject any) (bool, error) {
	switch t {
	case quire.TargetSpace:
		sp, ok := subject.(*quire.Space)
		return ok && g.CoversSpace(sp.OrgID, sp.ID), nil
	case quire.TargetSite:
		siteID := op.Subject
		if op.Scope == ScopeOrganization && op.Param != nil {
			siteID = op.Param("siteId")
		} else if op.Scope != ScopeSite {
			return false, nil
		}
		site, err := s.store.Site(ctx, siteID)
		if quire.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if op.Scope == ScopeOrganization && site.OrgID != op.Subject {
			return false, nil
		}
		return g.CoversSite(site.OrgID, site.ID), nil
	case quire.TargetOrganization:
		return op.Scope == ScopeOrganization && g.InstallationID != "" && op.Subject == g.OrgID, nil
	}
	return false, nil
}

// checkScopeFields refuses a change an installation token's scopes allow
// only in part: every field changed must be one of those the operation's
// scopes name. Members, and tokens whose scopes allow the operation
// whole, pass.
func checkScopeFields(u *quire.User, opID string, fields []string) error {
	if u == nil || u.Integration == nil {
		return nil
	}
	og := u.Integration.Operation(opID)
	if og.Fields == nil {
		return nil
	}
	for _, f := range fields {
		if !slices.Contains(og.Fields, f) {
			return quire.Errorf(quire.EFORBIDDEN, "%s: the integration's scopes let it change only %s",
				f, strings.Join(og.Fields, ", "))
		}
	}
	return nil
}

// spaceUpdateFields names the body fields of updateSpaceById an update
// changes.
func spaceUpdateFields(upd quire.SpaceUpdate) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(upd.Title != nil, "title")
	add(upd.Emoji != nil, "emoji")
	add(upd.IconURL != nil, "icon")
	add(upd.Language != nil, "language")
	add(upd.Visibility != nil, "visibility")
	add(upd.DefaultLevel != nil, "defaultLevel")
	add(upd.MergeRules != nil, "mergeRules")
	add(upd.EditMode != nil, "editMode")
	return out
}
