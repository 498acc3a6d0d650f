package service

import (
	"context"

	"quire/internal/quire"
)

// Scope names the kind of subject an operation acts on.
type Scope int

// Scopes of the authorization table.
const (
	ScopeNone Scope = iota // any authenticated caller
	ScopeOrganization
	ScopeSpace
	ScopeCollection
	// ScopeSite is a site, authorized at its organization for users; an
	// installation token with site:metadata:read reads the sites its
	// installation covers.
	ScopeSite
)

// String names the subject kind, for error messages.
func (sc Scope) String() string {
	switch sc {
	case ScopeOrganization:
		return "organization"
	case ScopeSpace:
		return "space"
	case ScopeCollection:
		return "collection"
	case ScopeSite:
		return "site"
	}
	return "resource"
}

// Visible is the lowest level at which a subject of this scope exists for
// the caller: below it, the subject answers "not found". Any member, guest
// included, sees their organization; content needs at least read.
func (sc Scope) Visible() quire.Level {
	if sc == ScopeOrganization || sc == ScopeSite {
		return quire.LevelGuest
	}
	return quire.LevelRead
}

// Level returns the caller's effective level on a subject. An unknown
// subject is ENOTFOUND.
func (s *Service) Level(ctx context.Context, u *quire.User, sc Scope, id string) (quire.Level, error) {
	l, _, err := s.Access(ctx, u, sc, id)
	return l, err
}

// OrgAccess is the subject Access loads for ScopeOrganization: the
// caller's facts on the organization together with its default role, the
// facts a space at its root inherits (see SpacesAfterAccess).
type OrgAccess struct {
	UserID string
	Facts  quire.Facts
}

// Access returns the caller's effective level on a subject and, where the
// same statement can load it, the subject itself (a *quire.Space for
// ScopeSpace, an OrgAccess for ScopeOrganization), so that a handler need
// not load it again. An unknown subject is ENOTFOUND.
func (s *Service) Access(ctx context.Context, u *quire.User, sc Scope, id string) (quire.Level, any, error) {
	if u.Integration != nil {
		return s.integrationAccess(ctx, s.store, u, sc, id)
	}
	if sc == ScopeSite {
		site, err := loadSite(ctx, s.store, id)
		if err != nil {
			return quire.LevelNone, nil, err
		}
		return s.Access(ctx, u, ScopeOrganization, site.OrgID)
	}
	if sc == ScopeOrganization {
		f, err := s.store.RootFacts(ctx, id, u.ID)
		if err != nil {
			if quire.IsNotFound(err) {
				return quire.LevelNone, nil, quire.NotFound(sc.String())
			}
			return quire.LevelNone, nil, err
		}
		// Organization-level checks use the role alone, without the
		// default role spaces inherit.
		org := f
		org.OrgDefault = ""
		if org.OrgID == "" {
			org.OrgID = id
		}
		if err := s.checkSSO(ctx, u, org); err != nil {
			return quire.LevelNone, nil, err
		}
		return org.Level(), OrgAccess{UserID: u.ID, Facts: f}, nil
	}
	if sc == ScopeSpace {
		sp, f, err := s.store.SpaceWithFacts(ctx, id, u.ID)
		if err != nil {
			if quire.IsNotFound(err) {
				return quire.LevelNone, nil, quire.NotFound("space")
			}
			return quire.LevelNone, nil, err
		}
		if err := s.checkSSO(ctx, u, f); err != nil {
			return quire.LevelNone, nil, err
		}
		return f.Level(), sp, nil
	}
	f, err := s.facts(ctx, s.store, u, sc, id)
	if err != nil {
		return quire.LevelNone, nil, err
	}
	if err := s.checkSSO(ctx, u, f); err != nil {
		return quire.LevelNone, nil, err
	}
	return f.Level(), nil, nil
}

// facts gathers the facts about the caller on a subject.
func (s *Service) facts(ctx context.Context, st quire.Store, u *quire.User, sc Scope, id string) (quire.Facts, error) {
	if u.Integration != nil {
		_, subject, err := s.integrationAccess(ctx, st, u, sc, id)
		if err != nil {
			return quire.Facts{}, err
		}
		switch v := subject.(type) {
		case OrgAccess:
			return v.Facts, nil
		case *quire.Space:
			return u.Integration.SpaceFacts(v.OrgID, v.ID), nil
		}
		return quire.Facts{}, nil
	}
	var (
		f   quire.Facts
		err error
	)
	switch sc {
	case ScopeOrganization:
		f, err = st.OrganizationFacts(ctx, id, u.ID)
	case ScopeSpace:
		f, err = st.SpaceFacts(ctx, id, u.ID)
	case ScopeCollection:
		f, err = st.CollectionFacts(ctx, id, u.ID)
	default:
		return quire.Facts{}, nil
	}
	if err != nil {
		if quire.IsNotFound(err) {
			return quire.Facts{}, quire.NotFound(sc.String())
		}
		return quire.Facts{}, err
	}
	return f, nil
}

// require checks that the caller holds at least min on a subject, with the
// same visibility rule as the authorization table: an invisible subject is
// ENOTFOUND, a visible one with too low a level is EPRECONDITION when the
// check guards the target of a move or transfer, EFORBIDDEN otherwise.
func (s *Service) require(ctx context.Context, st quire.Store, u *quire.User, sc Scope, id string, min quire.Level, denied string) (quire.Level, error) {
	f, err := s.facts(ctx, st, u, sc, id)
	if err != nil {
		return quire.LevelNone, err
	}
	l := f.Level()
	if l < sc.Visible() {
		return l, quire.NotFound(sc.String())
	}
	if l < min {
		return l, quire.Errorf(denied, "this needs the %s role on the %s; you have %s", min, sc, l)
	}
	return l, nil
}

// integrationAccess is Access for a caller holding an integration's
// token: what its grant allows, whatever the memberships of the
// integration's user. An installation token is a guest of its
// installation's organization and holds the role its scopes give on the
// spaces the installation covers; other subjects it does not see.
func (s *Service) integrationAccess(ctx context.Context, st quire.Store, u *quire.User, sc Scope, id string) (quire.Level, any, error) {
	g := u.Integration
	switch sc {
	case ScopeNone:
		return quire.LevelNone, nil, nil
	case ScopeOrganization:
		if _, err := st.Organization(ctx, id); err != nil {
			return quire.LevelNone, nil, err
		}
		f := g.OrgFacts(id)
		return f.Level(), OrgAccess{UserID: u.ID, Facts: f}, nil
	case ScopeSpace:
		sp, err := st.Space(ctx, id)
		if err != nil {
			if quire.IsNotFound(err) {
				return quire.LevelNone, nil, quire.NotFound("space")
			}
			return quire.LevelNone, nil, err
		}
		return g.SpaceFacts(sp.OrgID, sp.ID).Level(), sp, nil
	case ScopeSite:
		site, err := loadSite(ctx, st, id)
		if err != nil {
			return quire.LevelNone, nil, err
		}
		return g.SiteLevel(site.OrgID, site.ID), nil, nil
	}
	return quire.LevelNone, nil, nil
}

// requireIntegrationAdmin checks that the caller, a user, administers an
// organization: an organization they cannot see is ENOTFOUND, too low a
// role or an integration's token EFORBIDDEN.
func (s *Service) requireIntegrationAdmin(ctx context.Context, u *quire.User, orgID string) error {
	if u.Integration != nil {
		return quire.Errorf(quire.EFORBIDDEN, "an integration's token cannot do this; use a member's token")
	}
	l, _, err := s.Access(ctx, u, ScopeOrganization, orgID)
	if err != nil {
		return err
	}
	if l < ScopeOrganization.Visible() {
		return quire.NotFound("organization")
	}
	if l < quire.LevelAdmin {
		return quire.Errorf(quire.EFORBIDDEN, "this needs the admin role in the organization; you have %s", l)
	}
	return nil
}

// seeIntegration checks that the caller may see an integration: public
// and unlisted ones everyone sees, private ones the members of their
// organization and the integration's own tokens; to others they are
// ENOTFOUND.
func (s *Service) seeIntegration(ctx context.Context, u *quire.User, in *quire.Integration) error {
	if in.Manifest.Visibility != quire.IntegrationPrivate {
		return nil
	}
	if g := u.Integration; g != nil {
		if g.IntegrationID == in.ID {
			return nil
		}
		return quire.NotFound("integration")
	}
	l, _, err := s.Access(ctx, u, ScopeOrganization, in.OrgID)
	if err != nil || l < ScopeOrganization.Visible() {
		return quire.NotFound("integration")
	}
	return nil
}

// requireIntegrationOwner checks that the caller speaks for an
// integration: with its own token, or as an admin of the organization
// that published it.
func (s *Service) requireIntegrationOwner(ctx context.Context, u *quire.User, in *quire.Integration) error {
	if g := u.Integration; g != nil {
		if g.IntegrationID == in.ID && g.InstallationID == "" {
			return nil
		}
		return quire.Errorf(quire.EFORBIDDEN, "this needs the token of the integration %q", in.Name)
	}
	err := s.requireIntegrationAdmin(ctx, u, in.OrgID)
	if quire.IsNotFound(err) {
		// The integration is visible; its organization need not be.
		return quire.Errorf(quire.EFORBIDDEN, "only admins of the organization that published %q may do this", in.Name)
	}
	return err
}

// loadSite reads the site an access check is about; an unknown one is
// "site not found".
func loadSite(ctx context.Context, st quire.Store, id string) (*quire.Site, error) {
	site, err := st.Site(ctx, id)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("site")
	}
	return site, err
}
