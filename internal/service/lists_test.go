package service_test

import (
	"context"
	"fmt"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store/sqlstore"
)

// statsStore is a store that counts its statements and rows.
type statsStore interface {
	quire.Store
	Stats() sqlstore.Stats
}

// eachEngine runs fn on a fresh store of every engine available.
func eachEngine(t *testing.T, fn func(t *testing.T, st statsStore)) {
	service.EachStore(t, func(t *testing.T, st quire.Store) {
		ss, ok := st.(statsStore)
		if !ok {
			t.Fatalf("%T does not report its stats", st)
		}
		fn(t, ss)
	})
}

// cost runs fn and returns the statements it sent and the rows it read.
func cost(t *testing.T, st statsStore, fn func() error) (statements, rows int64) {
	t.Helper()
	before := st.Stats()
	if err := fn(); err != nil {
		t.Fatal(err)
	}
	after := st.Stats()
	return after.Statements - before.Statements, after.Rows - before.Rows
}

// bootstrap creates an organization and returns the service, its owner
// and the organization id.
func bootstrap(t *testing.T, st quire.Store) (*service.Service, *quire.User, string) {
	t.Helper()
	ctx := context.Background()
	svc := service.New(st)
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.User(ctx, boot.User)
	if err != nil {
		t.Fatal(err)
	}
	return svc, u, boot.Organization
}

// TestCreateCostDoesNotGrow checks that placing a new space or collection
// last reads no more rows and sends no more statements with many siblings
// than with one.
func TestCreateCostDoesNotGrow(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, st statsStore) {
		ctx := context.Background()
		svc, u, org := bootstrap(t, st)
		coll, err := svc.CreateCollection(ctx, u, org, "C", "")
		if err != nil {
			t.Fatal(err)
		}
		measure := func() (spaceSt, spaceRows, collSt, collRows int64) {
			spaceSt, spaceRows = cost(t, st, func() error {
				_, err := svc.CreateSpace(ctx, u, org, service.SpaceInput{Title: "S", Parent: coll.Collection.ID})
				return err
			})
			collSt, collRows = cost(t, st, func() error {
				_, err := svc.CreateCollection(ctx, u, org, "C", coll.Collection.ID)
				return err
			})
			return
		}
		s1, r1, c1, q1 := measure()
		for i := 0; i < 60; i++ {
			if _, err := svc.CreateSpace(ctx, u, org, service.SpaceInput{Title: "S", Parent: coll.Collection.ID}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.CreateCollection(ctx, u, org, "C", coll.Collection.ID); err != nil {
				t.Fatal(err)
			}
		}
		s2, r2, c2, q2 := measure()
		if s1 != s2 || r1 != r2 {
			t.Errorf("create space: %d statements, %d rows with 2 siblings; %d, %d with 122", s1, r1, s2, r2)
		}
		if c1 != c2 || q1 != q2 {
			t.Errorf("create collection: %d statements, %d rows with 3 siblings; %d, %d with 123", c1, q1, c2, q2)
		}
		l, err := svc.CollectionSpaces(ctx, u, coll.Collection.ID, quire.Page{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(l.Items); i++ {
			if l.Items[i-1].Space.Position >= l.Items[i].Space.Position {
				t.Fatalf("space %d at %q is not after %q", i, l.Items[i].Space.Position, l.Items[i-1].Space.Position)
			}
		}
	})
}

// TestListCostDoesNotGrow checks that a page of spaces in many
// collections, and a page of collections, cost as many statements as a
// page of one, and that neither list counts.
func TestListCostDoesNotGrow(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, st statsStore) {
		ctx := context.Background()
		svc, u, org := bootstrap(t, st)
		add := func(n int) {
			for i := 0; i < n; i++ {
				c, err := svc.CreateCollection(ctx, u, org, fmt.Sprintf("C%d", i), "")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := svc.CreateSpace(ctx, u, org, service.SpaceInput{Title: "S", Parent: c.Collection.ID}); err != nil {
					t.Fatal(err)
				}
			}
		}
		measure := func(want int) (spaces, colls int64) {
			spaces, _ = cost(t, st, func() error {
				l, err := svc.Spaces(ctx, u, org, quire.Page{Limit: 100})
				if err == nil && (len(l.Items) != want || l.Count != quire.Uncounted) {
					err = fmt.Errorf("spaces: %d items, count %d; want %d, uncounted", len(l.Items), l.Count, want)
				}
				return err
			})
			colls, _ = cost(t, st, func() error {
				l, err := svc.Collections(ctx, u, org, false, quire.Page{Limit: 100})
				if err == nil && (len(l.Items) != want || l.Count != quire.Uncounted) {
					err = fmt.Errorf("collections: %d items, count %d; want %d, uncounted", len(l.Items), l.Count, want)
				}
				return err
			})
			return spaces, colls
		}
		add(1)
		s1, c1 := measure(1)
		add(39)
		s40, c40 := measure(40)
		if s1 != s40 {
			t.Errorf("spaces list: %d statements for spaces in 1 collection, %d for 40", s1, s40)
		}
		if c1 != c40 {
			t.Errorf("collections list: %d statements for 1 collection, %d for 40", c1, c40)
		}
	})
}

// TestStatementCacheStaysSmall checks that lists of every page size share
// a few prepared statements instead of one per IN-list length.
func TestStatementCacheStaysSmall(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, st statsStore) {
		ctx := context.Background()
		svc, u, org := bootstrap(t, st)
		for i := 0; i < 150; i++ {
			if _, err := svc.CreateSpace(ctx, u, org, service.SpaceInput{Title: "S"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Spaces(ctx, u, org, quire.Page{Limit: 1}); err != nil {
			t.Fatal(err)
		}
		before := st.Stats().Prepared
		for limit := 1; limit <= 150; limit++ {
			if _, err := svc.Spaces(ctx, u, org, quire.Page{Limit: limit}); err != nil {
				t.Fatal(err)
			}
		}
		// The grant lookup is padded to 1, 8, 32, 128 or 256 ids.
		if grown := st.Stats().Prepared - before; grown > 4 {
			t.Errorf("150 page sizes prepared %d more statements, want at most 4", grown)
		}
	})
}

// TestAdminListSkipsGrants checks that the grants on listed spaces are
// read only when one could raise the caller's level: an organization
// admin's page costs one statement fewer than a reader's, and the reader's
// grant still shows.
func TestAdminListSkipsGrants(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, st statsStore) {
		ctx := context.Background()
		svc, admin, org := bootstrap(t, st)
		reader, _, err := svc.CreateUser(ctx, service.CreateUserInput{Email: "r@example.com", Name: "R", OrgID: org, Role: quire.RoleRead})
		if err != nil {
			t.Fatal(err)
		}
		v, err := svc.CreateSpace(ctx, admin, org, service.SpaceInput{Title: "S"})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.InviteToSpace(ctx, v.Space.ID, quire.RoleEdit, []string{reader.ID, admin.ID}, nil); err != nil {
			t.Fatal(err)
		}
		list := func(u *quire.User) (int64, quire.Level) {
			var level quire.Level
			n, _ := cost(t, st, func() error {
				l, err := svc.Spaces(ctx, u, org, quire.Page{Limit: 100})
				if err == nil && len(l.Items) != 1 {
					err = fmt.Errorf("listed %d spaces, want 1", len(l.Items))
				}
				if err == nil {
					level = l.Items[0].Level
				}
				return err
			})
			return n, level
		}
		// The first list reads the page and caches it; both measured
		// lists then read the same cached page.
		list(admin)
		adminCost, adminLevel := list(admin)
		readerCost, readerLevel := list(reader)
		if adminLevel != quire.LevelAdmin || readerLevel != quire.LevelEdit {
			t.Errorf("levels: admin %s, reader %s; want admin, edit", adminLevel, readerLevel)
		}
		if adminCost != readerCost-1 {
			t.Errorf("an admin's page cost %d statements, a reader's %d; want one fewer", adminCost, readerCost)
		}
	})
}

// TestSpacesAfterAccess checks that a list taking the root facts from
// the organization's access check shows the levels Spaces shows, reads
// one statement fewer, and ignores facts loaded for another user.
func TestSpacesAfterAccess(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, st statsStore) {
		ctx := context.Background()
		svc, admin, org := bootstrap(t, st)
		reader, _, err := svc.CreateUser(ctx, service.CreateUserInput{Email: "r@example.com", Name: "R", OrgID: org, Role: quire.RoleRead})
		if err != nil {
			t.Fatal(err)
		}
		c, err := svc.CreateCollection(ctx, admin, org, "C", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, parent := range []string{"", c.Collection.ID, ""} {
			if _, err := svc.CreateSpace(ctx, admin, org, service.SpaceInput{Title: "S", Parent: parent}); err != nil {
				t.Fatal(err)
			}
		}
		levels := func(l *quire.List[service.SpaceView]) []quire.Level {
			var out []quire.Level
			for _, v := range l.Items {
				out = append(out, v.Level)
			}
			return out
		}
		access := func(u *quire.User) service.OrgAccess {
			_, subject, err := svc.Access(ctx, u, service.ScopeOrganization, org)
			if err != nil {
				t.Fatal(err)
			}
			acc, ok := subject.(service.OrgAccess)
			if !ok {
				t.Fatalf("the organization's access check loaded %T, want service.OrgAccess", subject)
			}
			return acc
		}
		// A first list caches the page, so that both measured lists read
		// it from the cache.
		if _, err := svc.Spaces(ctx, admin, org, quire.Page{}); err != nil {
			t.Fatal(err)
		}
		for _, u := range []*quire.User{admin, reader} {
			var plain, after *quire.List[service.SpaceView]
			plainCost, _ := cost(t, st, func() (err error) {
				plain, err = svc.Spaces(ctx, u, org, quire.Page{})
				return err
			})
			acc := access(u)
			afterCost, _ := cost(t, st, func() (err error) {
				after, err = svc.SpacesAfterAccess(ctx, u, acc, quire.Page{})
				return err
			})
			if fmt.Sprint(levels(plain)) != fmt.Sprint(levels(after)) {
				t.Errorf("%s: levels %v after the access check, %v without", u.DisplayName, levels(after), levels(plain))
			}
			if afterCost != plainCost-1 {
				t.Errorf("%s: %d statements after the access check, %d without; want one fewer", u.DisplayName, afterCost, plainCost)
			}
		}
		// The admin's facts do not stand in for the reader's.
		mixed, err := svc.SpacesAfterAccess(ctx, reader, access(admin), quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := svc.Spaces(ctx, reader, org, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(levels(mixed)) != fmt.Sprint(levels(plain)) {
			t.Errorf("with the admin's facts the reader gets %v, want %v", levels(mixed), levels(plain))
		}
	})
}
