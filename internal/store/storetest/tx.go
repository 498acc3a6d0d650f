package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"quire/internal/quire"
)

func txTests() []test {
	return []test{
		{"tx/commit", func(t *testing.T, f *fixture) {
			var u *quire.User
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				u = &quire.User{ID: quire.NewID(), DisplayName: "Ada", Email: "ada@x.io", CreatedAt: f.tick()}
				if err := st.CreateUser(ctx(t), u); err != nil {
					return err
				}
				got, err := st.User(ctx(t), u.ID)
				if err != nil {
					return fmt.Errorf("read own write: %w", err)
				}
				equal(t, "read inside", got.ID, u.ID)
				return nil
			})
			must(t, err)
			_, err = f.st.User(ctx(t), u.ID)
			must(t, err)
		}},
		{"tx/rollback", func(t *testing.T, f *fixture) {
			boom := errors.New("boom")
			o := f.org("A")
			var id string
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				u := &quire.User{ID: quire.NewID(), DisplayName: "Ada", Email: "ada@x.io", CreatedAt: f.tick()}
				id = u.ID
				must(t, st.CreateUser(ctx(t), u))
				must(t, st.AddMember(ctx(t), &quire.Member{OrgID: o.ID, User: *u, JoinedAt: f.tick()}))
				_, err := st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{Title: ptr("Renamed")})
				must(t, err)
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the function's error", err)
			}
			_, err = f.st.User(ctx(t), id)
			wantCode(t, err, quire.ENOTFOUND)
			got, err := f.st.Organization(ctx(t), o.ID)
			must(t, err)
			equal(t, "title", got.Title, "A")
			n, err := f.st.CountUsers(ctx(t))
			must(t, err)
			equal(t, "users", n, 0)
		}},
		{"tx/nested runs in the outer transaction", func(t *testing.T, f *fixture) {
			boom := errors.New("boom")
			var id string
			err := f.st.WithTx(ctx(t), func(outer quire.Store) error {
				err := outer.WithTx(ctx(t), func(inner quire.Store) error {
					u := &quire.User{ID: quire.NewID(), DisplayName: "Ada", Email: "ada@x.io", CreatedAt: f.tick()}
					id = u.ID
					return inner.CreateUser(ctx(t), u)
				})
				must(t, err)
				_, err = outer.User(ctx(t), id)
				must(t, err)
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("got %v, want the function's error", err)
			}
			_, err = f.st.User(ctx(t), id)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"tx/nested failure undoes its own writes only", func(t *testing.T, f *fixture) {
			f.user("Ada", "ada@x.io")
			boom := errors.New("boom")
			var kept, undone, after string
			err := f.st.WithTx(ctx(t), func(outer quire.Store) error {
				u := &quire.User{ID: quire.NewID(), DisplayName: "Bo", Email: "bo@x.io", CreatedAt: f.tick()}
				kept = u.ID
				must(t, outer.CreateUser(ctx(t), u))
				err := outer.WithTx(ctx(t), func(inner quire.Store) error {
					u := &quire.User{ID: quire.NewID(), DisplayName: "Cy", Email: "cy@x.io", CreatedAt: f.tick()}
					undone = u.ID
					must(t, inner.CreateUser(ctx(t), u))
					return boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("nested: got %v, want the function's error", err)
				}
				// A failed statement: on PostgreSQL it aborts the
				// transaction unless a savepoint takes it back.
				err = outer.WithTx(ctx(t), func(inner quire.Store) error {
					return inner.CreateUser(ctx(t), &quire.User{ID: quire.NewID(), DisplayName: "A", Email: "ADA@x.io", CreatedAt: f.tick()})
				})
				wantCode(t, err, quire.ECONFLICT)
				u = &quire.User{ID: quire.NewID(), DisplayName: "Di", Email: "di@x.io", CreatedAt: f.tick()}
				after = u.ID
				return outer.CreateUser(ctx(t), u)
			})
			must(t, err)
			for _, id := range []string{kept, after} {
				_, err := f.st.User(ctx(t), id)
				must(t, err)
			}
			_, err = f.st.User(ctx(t), undone)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"tx/domain errors pass through", func(t *testing.T, f *fixture) {
			f.user("Ada", "ada@x.io")
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				return st.CreateUser(ctx(t), &quire.User{ID: quire.NewID(), DisplayName: "A", Email: "ADA@x.io", CreatedAt: f.tick()})
			})
			wantCode(t, err, quire.ECONFLICT)
		}},
		{"tx/concurrent writers", func(t *testing.T, f *fixture) {
			o := f.org("A")
			const writers = 8
			var wg sync.WaitGroup
			errs := make(chan error, 2*writers)
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- f.st.WithTx(ctx(t), func(st quire.Store) error {
						u := &quire.User{ID: quire.NewID(), DisplayName: "U", Email: fmt.Sprintf("u%d@x.io", i), CreatedAt: base()}
						if err := st.CreateUser(ctx(t), u); err != nil {
							return err
						}
						if _, err := st.Organization(ctx(t), o.ID); err != nil {
							return err
						}
						return st.AddMember(ctx(t), &quire.Member{OrgID: o.ID, User: *u, Role: quire.RoleRead, JoinedAt: base()})
					})
					_, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{})
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				must(t, err)
			}
			l, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{})
			must(t, err)
			equal(t, "members", l.Count, writers)
		}},
	}
}
