package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func spaceID(s *quire.Space) string { return s.ID }

func spaceTests() []test {
	return []test{
		{"spaces/create and read", func(t *testing.T, f *fixture) {
			o := f.org("A")
			c := f.collection(o, "", "a")
			s := &quire.Space{ID: quire.NewID(), OrgID: o.ID, Title: "Guide", Emoji: "📘", IconURL: "https://icon",
				Visibility: quire.VisibilityPublic, EditMode: quire.EditModeLocked, Parent: c.ID, Language: "fr",
				DefaultLevel: quire.DefaultNone, Revision: quire.NewID(), Position: "m",
				MergeRules: quire.MergeRules{Type: "rules", Rules: []quire.MergeRule{{Rule: "reviewers", Users: []string{"x"}}}},
				CreatedAt:  f.tick(), UpdatedAt: f.tick()}
			must(t, f.st.CreateSpace(ctx(t), s))
			got, err := f.st.Space(ctx(t), s.ID)
			must(t, err)
			equal(t, "space", *got, *s)
			wantCode(t, f.st.CreateSpace(ctx(t), s), quire.ECONFLICT)
			dupRevision := *s
			dupRevision.ID = quire.NewID()
			wantCode(t, f.st.CreateSpace(ctx(t), &dupRevision), quire.ECONFLICT)
			_, err = f.st.Space(ctx(t), dupRevision.ID)
			wantCode(t, err, quire.ENOTFOUND)
			noRevision := *s
			noRevision.ID, noRevision.Revision = quire.NewID(), ""
			wantCode(t, f.st.CreateSpace(ctx(t), &noRevision), quire.EINVALID)
			_, err = f.st.Space(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"spaces/list by organization and parent", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			c := f.collection(o, "", "c")
			var root, inC []string
			for _, pos := range []string{"d", "a", "c", "a", "b"} {
				root = append(root, f.space(o, "", pos).ID)
				inC = append(inC, f.space(o, c.ID, pos).ID)
			}
			gone := f.space(o, "", "a")
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			f.space(other, "", "a")
			order := func(l []string) []string {
				// positions d a c a b: a, a (by id), b, c, d
				first, second := l[1], l[3]
				if second < first {
					first, second = second, first
				}
				return []string{first, second, l[4], l[2], l[0]}
			}
			all, err := f.st.Spaces(ctx(t), quire.SpaceFilter{OrgID: o.ID}, quire.Page{Limit: 100})
			must(t, err)
			equal(t, "whole organization", len(all.Items), 10)
			equal(t, "count", all.Count, quire.Uncounted)
			for _, size := range []int{1, 2, 4, 5} {
				got, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.Space], error) {
					return f.st.Spaces(ctx(t), quire.SpaceFilter{OrgID: o.ID, Parent: ptr("")}, p)
				})
				equal(t, "root", ids(got, spaceID), order(root))
				got, _ = collect(t, size, func(p quire.Page) (*quire.List[*quire.Space], error) {
					return f.st.Spaces(ctx(t), quire.SpaceFilter{OrgID: o.ID, Parent: &c.ID}, p)
				})
				equal(t, "in the collection", ids(got, spaceID), order(inC))
			}
			_, err = f.st.Spaces(ctx(t), quire.SpaceFilter{OrgID: o.ID}, quire.Page{Cursor: "WyJjIiwiYSIsImIiXQ"})
			wantCode(t, err, quire.EINVALID)
		}},
		{"spaces/update", func(t *testing.T, f *fixture) {
			o := f.org("A")
			s := f.space(o, "", "a")
			got, err := f.st.UpdateSpace(ctx(t), s.ID, quire.SpaceUpdate{})
			must(t, err)
			equal(t, "empty update changes nothing", *got, *s)
			before := f.clock.Advance(time.Millisecond)
			rules := quire.MergeRules{Type: "none"}
			got, err = f.st.UpdateSpace(ctx(t), s.ID, quire.SpaceUpdate{Title: ptr("T"), Emoji: ptr("e"), IconURL: ptr("i"),
				Visibility: ptr(quire.VisibilityUnlisted), EditMode: ptr(quire.EditModeLocked), Language: ptr("de"),
				DefaultLevel: ptr(quire.DefaultLevel(quire.RoleRead)), MergeRules: &rules})
			must(t, err)
			if !got.UpdatedAt.Equal(before) {
				t.Fatalf("updatedAt %v, want the store's clock: %v", got.UpdatedAt, before)
			}
			want := *s
			want.Title, want.Emoji, want.IconURL, want.Visibility, want.EditMode = "T", "e", "i", quire.VisibilityUnlisted, quire.EditModeLocked
			want.Language, want.DefaultLevel, want.MergeRules, want.UpdatedAt = "de", quire.DefaultLevel(quire.RoleRead), rules, got.UpdatedAt
			equal(t, "updated", *got, want)
			_, err = f.st.UpdateSpace(ctx(t), "nope", quire.SpaceUpdate{Title: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
