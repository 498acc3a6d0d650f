package storetest

import (
	"fmt"
	"testing"

	"quire/internal/quire"
)

func gitRedirectTests() []test {
	return []test{
		{"git redirects/replace, read back and remove", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			other := f.space(o, "", "a1")
			got, err := f.st.GitRedirects(ctx(t), sp.ID)
			must(t, err)
			equal(t, "none yet", len(got), 0)
			_, err = f.st.GitRedirect(ctx(t), sp.ID, "old")
			wantCode(t, err, quire.ENOTFOUND)

			first := []quire.GitRedirect{
				{Path: "old/intro", Target: "README.md", PageID: "p1"},
				{Path: "gone", Target: "nowhere.md"},
			}
			must(t, f.st.ReplaceGitRedirects(ctx(t), sp.ID, first))
			must(t, f.st.ReplaceGitRedirects(ctx(t), other.ID, []quire.GitRedirect{{Path: "old/intro", Target: "x.md", PageID: "p9"}}))
			got, err = f.st.GitRedirects(ctx(t), sp.ID)
			must(t, err)
			equal(t, "by path", got, []quire.GitRedirect{first[1], first[0]})
			one, err := f.st.GitRedirect(ctx(t), sp.ID, "old/intro")
			must(t, err)
			equal(t, "one", *one, first[0])

			// A later import replaces them all.
			must(t, f.st.ReplaceGitRedirects(ctx(t), sp.ID, []quire.GitRedirect{{Path: "new", Target: "a.md", PageID: "p2"}}))
			_, err = f.st.GitRedirect(ctx(t), sp.ID, "old/intro")
			wantCode(t, err, quire.ENOTFOUND)
			got, err = f.st.GitRedirects(ctx(t), sp.ID)
			must(t, err)
			equal(t, "replaced", got, []quire.GitRedirect{{Path: "new", Target: "a.md", PageID: "p2"}})

			// An import without redirects removes them; other spaces keep theirs.
			must(t, f.st.ReplaceGitRedirects(ctx(t), sp.ID, nil))
			got, err = f.st.GitRedirects(ctx(t), sp.ID)
			must(t, err)
			equal(t, "removed", len(got), 0)
			one, err = f.st.GitRedirect(ctx(t), other.ID, "old/intro")
			must(t, err)
			equal(t, "other space", one.PageID, "p9")
		}},
		{"git redirects/many in one replace", func(t *testing.T, f *fixture) {
			sp := f.space(f.org("Docs"), "", "a0")
			rs := make([]quire.GitRedirect, 450)
			for i := range rs {
				rs[i] = quire.GitRedirect{Path: fmt.Sprintf("old/%03d", i), Target: "README.md"}
			}
			must(t, f.st.ReplaceGitRedirects(ctx(t), sp.ID, rs))
			got, err := f.st.GitRedirects(ctx(t), sp.ID)
			must(t, err)
			equal(t, "count", len(got), len(rs))
		}},
		{"git redirects/unknown space", func(t *testing.T, f *fixture) {
			wantCode(t, f.st.ReplaceGitRedirects(ctx(t), "nope", nil), quire.ENOTFOUND)
			wantCode(t, f.st.ReplaceGitRedirects(ctx(t), "nope", []quire.GitRedirect{{Path: "a", Target: "b.md"}}), quire.ENOTFOUND)
		}},
	}
}
