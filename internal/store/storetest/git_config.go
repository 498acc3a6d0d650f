package storetest

import (
	"testing"

	"quire/internal/quire"
)

func gitConfigTests() []test {
	return []test{
		{"git config/put, read back and replace", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			sp := f.space(o, "", "a0")
			other := f.space(o, "", "a1")
			_, err := f.st.GitConfig(ctx(t), sp.ID)
			wantCode(t, err, quire.ENOTFOUND)

			first := quire.GitConfig{Root: "docs", Readme: "intro.md", Summary: "toc.md", Source: "root: ./docs/\n"}
			must(t, f.st.PutGitConfig(ctx(t), sp.ID, first))
			must(t, f.st.PutGitConfig(ctx(t), other.ID, quire.GitConfig{Root: "other"}))
			got, err := f.st.GitConfig(ctx(t), sp.ID)
			must(t, err)
			equal(t, "read back", *got, first)

			// A later import replaces them.
			must(t, f.st.PutGitConfig(ctx(t), sp.ID, quire.GitConfig{}))
			got, err = f.st.GitConfig(ctx(t), sp.ID)
			must(t, err)
			equal(t, "replaced", *got, quire.GitConfig{})
			got, err = f.st.GitConfig(ctx(t), other.ID)
			must(t, err)
			equal(t, "other space", got.Root, "other")
		}},
		{"git config/unknown space", func(t *testing.T, f *fixture) {
			wantCode(t, f.st.PutGitConfig(ctx(t), "nope", quire.GitConfig{Root: "docs"}), quire.ENOTFOUND)
		}},
	}
}
