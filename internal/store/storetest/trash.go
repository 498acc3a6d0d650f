package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func trashTests() []test {
	return []test{
		{"spaces/delete and restore", func(t *testing.T, f *fixture) {
			o := f.org("A")
			s := f.space(o, "", "a")
			at := f.tick()
			ok, err := f.st.DeleteSpace(ctx(t), s.ID, at)
			must(t, err)
			equal(t, "deleted", ok, true)
			ok, err = f.st.DeleteSpace(ctx(t), s.ID, f.tick())
			must(t, err)
			equal(t, "deleted again", ok, false)
			ok, err = f.st.DeleteSpace(ctx(t), "nope", at)
			must(t, err)
			equal(t, "missing", ok, false)
			got, err := f.st.Space(ctx(t), s.ID)
			must(t, err)
			equal(t, "deletedAt", *got.DeletedAt, at)
			l, err := f.st.Spaces(ctx(t), quire.SpaceFilter{OrgID: o.ID}, quire.Page{})
			must(t, err)
			equal(t, "listed", len(l.Items), 0)
			got, err = f.st.RestoreSpace(ctx(t), s.ID)
			must(t, err)
			equal(t, "restored", *got, *s)
			_, err = f.st.RestoreSpace(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"spaces/deleted list", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			older, newer, elsewhere, stale := f.space(o, "", "a"), f.space(o, "", "b"), f.space(other, "", "d"), f.space(o, "", "e")
			f.space(o, "", "c") // live: never listed
			since := base().Add(time.Hour)
			for _, d := range []struct {
				s  *quire.Space
				at time.Time
			}{{stale, since.Add(-time.Millisecond)}, {older, since}, {newer, since.Add(time.Minute)}, {elsewhere, since.Add(time.Minute)}} {
				_, err := f.st.DeleteSpace(ctx(t), d.s.ID, d.at)
				must(t, err)
			}
			got, err := f.st.DeletedSpaces(ctx(t), o.ID, since, 10)
			must(t, err)
			var ids []string
			for _, s := range got {
				ids = append(ids, s.ID)
			}
			equal(t, "deleted since, newest first", ids, []string{newer.ID, older.ID})
			equal(t, "deletedAt", *got[0].DeletedAt, since.Add(time.Minute))
			got, err = f.st.DeletedSpaces(ctx(t), o.ID, since, 1)
			must(t, err)
			equal(t, "limited", len(got), 1)
		}},
		{"spaces/purge", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			old, recent, live := f.space(o, "", "a"), f.space(o, "", "b"), f.space(o, "", "c")
			for _, s := range []*quire.Space{old, recent, live} {
				f.grant("space", s.ID, "user", u.ID, quire.RoleRead)
			}
			cutoff := base().Add(time.Hour)
			_, err := f.st.DeleteSpace(ctx(t), old.ID, cutoff.Add(-time.Millisecond))
			must(t, err)
			_, err = f.st.DeleteSpace(ctx(t), recent.ID, cutoff)
			must(t, err)
			n, err := f.st.PurgeSpaces(ctx(t), cutoff)
			must(t, err)
			equal(t, "purged", n, 1)
			_, err = f.st.Space(ctx(t), old.ID)
			wantCode(t, err, quire.ENOTFOUND)
			gs, err := f.st.Grants(ctx(t), "space", old.ID)
			must(t, err)
			equal(t, "grants of the purged space", len(gs), 0)
			for _, s := range []*quire.Space{recent, live} {
				_, err := f.st.Space(ctx(t), s.ID)
				must(t, err)
				gs, err := f.st.Grants(ctx(t), "space", s.ID)
				must(t, err)
				equal(t, "grants kept", len(gs), 1)
			}
			// The revision went with the space: its id can be used again.
			again := *old
			must(t, f.st.CreateSpace(ctx(t), &again))
			n, err = f.st.PurgeSpaces(ctx(t), cutoff)
			must(t, err)
			equal(t, "purged again", n, 0)
		}},
	}
}
