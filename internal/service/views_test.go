package service_test

import (
	"context"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestListLevelsMatchFacts checks that the levels shown on listed spaces,
// resolved in bulk, equal the levels the authorization check resolves one
// space at a time, across default-level chains, grants and guests.
func TestListLevelsMatchFacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := service.NewBootstrapped(t)
	st, svc := f.Store, f.Svc
	admin := f.Admin
	org := f.Org
	users := map[string]*quire.User{}
	for _, r := range []quire.Role{quire.RoleRead, quire.RoleComment, ""} {
		u, _, err := svc.CreateUser(ctx, service.CreateUserInput{Email: "u" + string(r) + "@example.com", Name: "U", OrgID: org, Role: r})
		if err != nil {
			t.Fatal(err)
		}
		users[string(r)] = u
	}
	outer, err := svc.CreateCollection(ctx, admin, org, "Outer", "")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := svc.CreateCollection(ctx, admin, org, "Inner", outer.Collection.ID)
	if err != nil {
		t.Fatal(err)
	}
	edit := quire.DefaultLevel(quire.RoleEdit)
	if _, err := svc.UpdateCollection(ctx, admin, outer.Collection.ID, quire.CollectionUpdate{DefaultLevel: &edit}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, parent := range []string{"", outer.Collection.ID, inner.Collection.ID, inner.Collection.ID} {
		v, err := svc.CreateSpace(ctx, admin, org, service.SpaceInput{Title: "S", Parent: parent})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.Space.ID)
		if i == 3 {
			none := quire.DefaultNone
			if _, err := svc.UpdateSpace(ctx, admin, v.Space.ID, quire.SpaceUpdate{DefaultLevel: &none}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := svc.InviteToSpace(ctx, ids[0], quire.RoleReview, []string{users[""].ID, users["read"].ID}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.SetGrant(ctx, quire.Grant{TargetKind: "collection", TargetID: inner.Collection.ID, PrincipalKind: "user", PrincipalID: users[""].ID, Role: quire.RoleComment}); err != nil {
		t.Fatal(err)
	}
	for name, u := range map[string]*quire.User{"admin": admin, "read": users["read"], "comment": users["comment"], "guest": users[""]} {
		l, err := svc.Spaces(ctx, u, org, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != len(ids) {
			t.Fatalf("%s: listed %d spaces, want %d", name, len(l.Items), len(ids))
		}
		for _, v := range l.Items {
			want, err := svc.Level(ctx, u, service.ScopeSpace, v.Space.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.Level != want {
				t.Errorf("%s on space %s: listed level %s, checked level %s", name, v.Space.ID, v.Level, want)
			}
			facts, err := st.SpaceFacts(ctx, v.Space.ID, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if facts.Level() != want {
				t.Errorf("%s on space %s: facts level %s, combined level %s", name, v.Space.ID, facts.Level(), want)
			}
			_, subject, err := svc.Access(ctx, u, service.ScopeSpace, v.Space.ID)
			if sp, ok := subject.(*quire.Space); err != nil || !ok || sp.ID != v.Space.ID || sp.Title != v.Space.Title {
				t.Errorf("%s: access check loaded %#v, %v; want space %s", name, subject, err, v.Space.ID)
			}
		}
	}
}
