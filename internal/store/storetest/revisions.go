package storetest

import (
	"sync"
	"testing"

	"quire/internal/quire"
)

// revision stores a revision of a space following parent.
func (f *fixture) revision(sp *quire.Space, parent string) *quire.Revision {
	f.t.Helper()
	r := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Parents: []string{parent}, Type: quire.RevisionEdits,
		Pages: "p" + parent, CreatedAt: f.tick()}
	must(f.t, f.st.CreateRevision(ctx(f.t), r))
	return r
}

func revisionTests() []test {
	return []test{
		{"revisions/create and read", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			first, err := f.st.Revision(ctx(t), sp.ID, sp.Revision)
			must(t, err)
			equal(t, "first revision", *first, quire.Revision{ID: sp.Revision, SpaceID: sp.ID, Type: quire.RevisionEdits,
				CreatedAt: sp.CreatedAt})
			r := &quire.Revision{ID: quire.NewID(), SpaceID: sp.ID, Parents: []string{sp.Revision, "x"},
				Type: quire.RevisionMerge, Pages: "pages", Slugs: "slugs", Files: "files", MergedFrom: "cr",
				CreatedBy: u.ID, CreatedAt: f.tick(),
				Git: &quire.GitCommit{OID: "abc", Message: "Sync", CreatedByService: true, URL: "https://git/x", Ref: "main"}}
			must(t, f.st.CreateRevision(ctx(t), r))
			got, err := f.st.Revision(ctx(t), sp.ID, r.ID)
			must(t, err)
			equal(t, "revision", *got, *r)
			_, err = f.st.Revision(ctx(t), other.ID, r.ID)
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.Revision(ctx(t), sp.ID, "nope")
			wantCode(t, err, quire.ENOTFOUND)
			wantCode(t, f.st.CreateRevision(ctx(t), r), quire.ECONFLICT)
			orphan := *r
			orphan.ID, orphan.SpaceID = quire.NewID(), "nosuchspace"
			wantCode(t, f.st.CreateRevision(ctx(t), &orphan), quire.EINVALID)
		}},
		{"revisions/advance the space", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			r2 := f.revision(sp, sp.Revision)
			must(t, f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r2.ID))
			got, err := f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "current revision", got.Revision, r2.ID)
			if !got.UpdatedAt.After(sp.UpdatedAt) {
				t.Fatalf("updatedAt %v not after %v", got.UpdatedAt, sp.UpdatedAt)
			}
			r3 := f.revision(sp, sp.Revision)
			wantCode(t, f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r3.ID), quire.ECONFLICT)
			got, err = f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "after a stale advance", got.Revision, r2.ID)
			wantCode(t, f.st.AdvanceSpaceRevision(ctx(t), "nosuchspace", "a", "b"), quire.ENOTFOUND)
		}},
		{"revisions/racing advances: one wins", func(t *testing.T, f *fixture) {
			o := f.org("A")
			sp := f.space(o, "", "a")
			const writers = 8
			nexts := make([]*quire.Revision, writers)
			for i := range nexts {
				nexts[i] = f.revision(sp, sp.Revision)
			}
			errs := make([]error, writers)
			var wg sync.WaitGroup
			for i := range writers {
				wg.Go(func() { errs[i] = f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, nexts[i].ID) })
			}
			wg.Wait()
			winner := ""
			for i, err := range errs {
				if err == nil {
					if winner != "" {
						t.Fatalf("two advances from the same revision succeeded")
					}
					winner = nexts[i].ID
					continue
				}
				wantCode(t, err, quire.ECONFLICT)
			}
			got, err := f.st.Space(ctx(t), sp.ID)
			must(t, err)
			equal(t, "current revision", got.Revision, winner)
		}},
	}
}
