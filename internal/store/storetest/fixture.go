package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

// base is the time fixtures start from; every fixture object gets its own
// later second, so creation order is also time order.
func base() time.Time { return time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC) }

// fixture builds test data in one store.
type fixture struct {
	t  *testing.T
	st quire.Store
	n  int
	// clock is the store's clock.
	clock *clock
}

func newFixture(t *testing.T, st quire.Store, c *clock) *fixture {
	return &fixture{t: t, st: st, clock: c}
}

// tick returns the next fixture time, one second after the last, with a
// millisecond part to show that milliseconds survive storage.
func (f *fixture) tick() time.Time {
	f.n++
	return base().Add(time.Duration(f.n)*time.Second + 123*time.Millisecond)
}

// user creates a user.
func (f *fixture) user(name, email string) *quire.User {
	f.t.Helper()
	u := &quire.User{ID: quire.NewID(), DisplayName: name, Email: email, PhotoURL: "https://img/" + name, CreatedAt: f.tick()}
	must(f.t, f.st.CreateUser(ctx(f.t), u))
	return u
}

// org creates an organization.
func (f *fixture) org(title string) *quire.Organization {
	f.t.Helper()
	o := &quire.Organization{ID: quire.NewID(), Title: title, CreatedAt: f.tick(), Type: "business",
		DefaultRole: quire.RoleRead, InviteLinks: true, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
	must(f.t, f.st.CreateOrganization(ctx(f.t), o))
	return o
}

// member adds u to o with a role ("" for a guest) and returns it.
func (f *fixture) member(o *quire.Organization, u *quire.User, role quire.Role) *quire.Member {
	f.t.Helper()
	m := &quire.Member{OrgID: o.ID, User: *u, Role: role, JoinedAt: f.tick()}
	must(f.t, f.st.AddMember(ctx(f.t), m))
	return m
}

// team creates a team with initial members.
func (f *fixture) team(o *quire.Organization, title string, members ...*quire.User) *quire.Team {
	f.t.Helper()
	t := &quire.Team{ID: quire.NewID(), OrgID: o.ID, Title: title, CreatedAt: f.tick()}
	ids := []string{}
	for _, u := range members {
		ids = append(ids, u.ID)
	}
	must(f.t, f.st.CreateTeam(ctx(f.t), t, ids))
	return t
}

// collection creates a collection under parent ("" for the root).
func (f *fixture) collection(o *quire.Organization, parent, position string) *quire.Collection {
	f.t.Helper()
	now := f.tick()
	c := &quire.Collection{ID: quire.NewID(), OrgID: o.ID, Title: "Collection " + position, Description: "about " + position,
		Parent: parent, DefaultLevel: quire.DefaultInherit, Position: position, CreatedAt: now, UpdatedAt: now}
	must(f.t, f.st.CreateCollection(ctx(f.t), c))
	return c
}

// space creates a space under parent ("" for the root).
func (f *fixture) space(o *quire.Organization, parent, position string) *quire.Space {
	f.t.Helper()
	now := f.tick()
	s := &quire.Space{ID: quire.NewID(), OrgID: o.ID, Title: "Space " + position, Visibility: quire.VisibilityPrivate,
		EditMode: quire.EditModeLive, Parent: parent, Language: "en", DefaultLevel: quire.DefaultInherit,
		MergeRules: quire.MergeRules{Type: "inherit"}, Revision: quire.NewID(), Position: position,
		CreatedAt: now, UpdatedAt: now}
	must(f.t, f.st.CreateSpace(ctx(f.t), s))
	return s
}

// grant gives a principal a role on a target.
func (f *fixture) grant(targetKind quire.GrantTarget, targetID string, principalKind quire.Principal, principalID string, role quire.Role) {
	f.t.Helper()
	must(f.t, f.st.SetGrant(ctx(f.t), quire.Grant{TargetKind: targetKind, TargetID: targetID,
		PrincipalKind: principalKind, PrincipalID: principalID, Role: role}))
}
