package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/store"
	"quire/internal/store/sqlstore"
)

// statsStore is a store that counts its statements.
type statsStore interface {
	quire.Store
	Stats() sqlstore.Stats
}

// TestSpaceListSeesOtherStoresWrites runs two stores on one database, as
// two replicas would: pages of the space list one of them serves again
// from memory must show every write the other made, and writes made with
// plain SQL behind both, as soon as they are committed.
func TestSpaceListSeesOtherStoresWrites(t *testing.T) {
	for name, config := range engines() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := config(t)
			open := func() statsStore {
				st, err := store.Open(ctx, c)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = st.Close() })
				ss, ok := st.(statsStore)
				if !ok {
					t.Fatalf("%T does not report its stats", st)
				}
				return ss
			}
			a, b := open(), open()
			raw := rawDB(t, c)
			at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
			org := func(title string) string {
				o := &quire.Organization{ID: quire.NewID(), Title: title, CreatedAt: at, Type: "business",
					DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
				if err := a.CreateOrganization(ctx, o); err != nil {
					t.Fatal(err)
				}
				return o.ID
			}
			orgID, otherID := org("A"), org("B")
			space := func(st quire.Store, title, position string) *quire.Space {
				sp := &quire.Space{ID: quire.NewID(), OrgID: orgID, Title: title, Visibility: quire.VisibilityPrivate,
					EditMode: quire.EditModeLive, DefaultLevel: quire.DefaultInherit,
					MergeRules: quire.MergeRules{Type: "inherit"}, Revision: quire.NewID(), Position: position,
					CreatedAt: at, UpdatedAt: at}
				if err := st.CreateSpace(ctx, sp); err != nil {
					t.Fatal(err)
				}
				return sp
			}
			s1, s2 := space(a, "One", "a"), space(a, "Two", "b")

			// list reads the first page of org through a, twice: the
			// second read must come from a's cache, one statement (the
			// version), with the same answer.
			list := func(org string) string {
				t.Helper()
				read := func() string {
					l, err := a.Spaces(ctx, quire.SpaceFilter{OrgID: org}, quire.Page{Limit: 10})
					if err != nil {
						t.Fatal(err)
					}
					out := ""
					for _, sp := range l.Items {
						out += fmt.Sprintf("%s:%d:%t ", sp.Title, sp.Comments, sp.DeletedAt != nil)
					}
					return out
				}
				first := read()
				before := a.Stats().Statements
				if again := read(); again != first {
					t.Fatalf("the cached page %q differs from the page read %q", again, first)
				}
				if n := a.Stats().Statements - before; n != 1 {
					t.Fatalf("reading the page again sent %d statements, want 1 (served from the cache)", n)
				}
				return first
			}
			check := func(step, org, want string) {
				t.Helper()
				if got := list(org); got != want {
					t.Fatalf("after %s: a lists %q, want %q", step, got, want)
				}
			}
			check("the start", orgID, "One:0:false Two:0:false ")

			title := "Renamed"
			if _, err := b.UpdateSpace(ctx, s1.ID, quire.SpaceUpdate{Title: &title}); err != nil {
				t.Fatal(err)
			}
			check("a rename through b", orgID, "Renamed:0:false Two:0:false ")

			if _, err := raw.ExecContext(ctx, "UPDATE spaces SET comments = 3 WHERE id = '"+s2.ID+"'"); err != nil {
				t.Fatal(err)
			}
			check("a counter changed by plain SQL", orgID, "Renamed:0:false Two:3:false ")

			space(b, "Three", "c")
			check("a create through b", orgID, "Renamed:0:false Two:3:false Three:0:false ")

			if _, err := b.DeleteSpace(ctx, s1.ID, at); err != nil {
				t.Fatal(err)
			}
			check("a delete through b", orgID, "Two:3:false Three:0:false ")

			// A transaction that fails leaves the cached page standing.
			rollback := errors.New("roll back")
			err := b.WithTx(ctx, func(tx quire.Store) error {
				if _, err := tx.UpdateSpace(ctx, s2.ID, quire.SpaceUpdate{Title: &title}); err != nil {
					return err
				}
				return rollback
			})
			if !errors.Is(err, rollback) {
				t.Fatalf("the transaction: %v", err)
			}
			check("a rolled back rename", orgID, "Two:3:false Three:0:false ")

			check("nothing", otherID, "")
			if _, err := raw.ExecContext(ctx, "UPDATE spaces SET org_id = '"+otherID+"' WHERE id = '"+s2.ID+"'"); err != nil {
				t.Fatal(err)
			}
			check("a move to another organization, in its old one", orgID, "Three:0:false ")
			check("a move to another organization, in its new one", otherID, "Two:3:false ")

			if _, err := b.PurgeSpaces(ctx, at.Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			if _, err := b.RestoreSpace(ctx, s1.ID); !quire.IsNotFound(err) {
				t.Fatalf("restoring a purged space: %v, want ENOTFOUND", err)
			}
			check("a purge through b", orgID, "Three:0:false ")
		})
	}
}

// TestSpaceListCacheHandsOutCopies checks that changing a listed space
// changes nothing the next list returns.
func TestSpaceListCacheHandsOutCopies(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, engines()["sqlite"](t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	o := &quire.Organization{ID: quire.NewID(), Title: "A", CreatedAt: at, Type: "business",
		DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
	if err := st.CreateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	sp := &quire.Space{ID: quire.NewID(), OrgID: o.ID, Title: "One", Revision: quire.NewID(), Position: "a",
		MergeRules: quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{{Rule: quire.RuleSpecificReviewers, Users: []string{"u"}}}},
		CreatedAt:  at, UpdatedAt: at}
	if err := st.CreateSpace(ctx, sp); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		l, err := st.Spaces(ctx, quire.SpaceFilter{OrgID: o.ID}, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		got := l.Items[0]
		if got.Title != "One" || got.MergeRules.Rules[0].Users[0] != "u" {
			t.Fatalf("listed %q with reviewers %v: a change to an earlier answer reached the cache", got.Title, got.MergeRules.Rules[0].Users)
		}
		got.Title = "Changed"
		got.MergeRules.Rules[0].Users[0] = "changed"
	}
}

// TestSpaceListCacheUnderConcurrentWrites lists from several goroutines
// while another store renames a space, then checks that the list shows
// the last name: run with -race it also checks the cache's locking.
func TestSpaceListCacheUnderConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	c := engines()["sqlite"](t)
	a, err := store.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	o := &quire.Organization{ID: quire.NewID(), Title: "A", CreatedAt: at, Type: "business",
		DefaultRole: quire.RoleRead, Plan: "free", MergeRules: quire.MergeRules{Type: "none"}}
	if err := a.CreateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	sp := &quire.Space{ID: quire.NewID(), OrgID: o.ID, Title: "T0", Revision: quire.NewID(), Position: "a",
		MergeRules: quire.MergeRules{Type: "inherit"}, CreatedAt: at, UpdatedAt: at}
	if err := a.CreateSpace(ctx, sp); err != nil {
		t.Fatal(err)
	}
	const renames = 20
	done := make(chan error, 4)
	for range 4 {
		go func() {
			for range 50 {
				l, err := a.Spaces(ctx, quire.SpaceFilter{OrgID: o.ID}, quire.Page{})
				if err == nil && len(l.Items) != 1 {
					err = fmt.Errorf("listed %d spaces, want 1", len(l.Items))
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for i := 1; i <= renames; i++ {
		title := fmt.Sprintf("T%d", i)
		if _, err := b.UpdateSpace(ctx, sp.ID, quire.SpaceUpdate{Title: &title}); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	l, err := a.Spaces(ctx, quire.SpaceFilter{OrgID: o.ID}, quire.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("T%d", renames); l.Items[0].Title != want {
		t.Fatalf("after the renames a lists %q, want %q", l.Items[0].Title, want)
	}
}
