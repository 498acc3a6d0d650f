package gitbook

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/testutil/gitbookrepo"
)

// TestGitBookRepositoryRoundTrip imports a repository written as GitBook
// writes it, exports it, and expects the same bytes for every file under
// the content root and for .gitbook.yaml; a second import and export
// change nothing either.
func TestGitBookRepositoryRoundTrip(t *testing.T) {
	orig := gitbookrepo.Files()
	in := Files{}
	for k, v := range orig {
		in[k] = v
	}
	sp := mustRead(t, in, pathIDs{})
	for _, w := range sp.Warnings {
		t.Logf("warning: %s", w)
	}
	out := mustWrite(t, sp)
	want := map[string][]byte{}
	for name, data := range orig {
		if name == configFile || strings.HasPrefix(name, gitbookrepo.Root+"/") {
			want[name] = data
		}
	}
	compareRepoFiles(t, out, want)

	again := mustWrite(t, mustRead(t, out, pathIDs{}))
	compareRepoFiles(t, again, want)
}

func compareRepoFiles(t *testing.T, got Files, want map[string][]byte) {
	t.Helper()
	for name, data := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s is not written", name)
			continue
		}
		if string(g) != string(data) {
			t.Errorf("%s differs\n%s\n--- got:\n%s\n--- want:\n%s", name, firstDiff(string(g), string(data)), g, data)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is written but was not in the repository", name)
		}
	}
}

// firstDiff names the first line where two texts differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, la[i], lb[i])
		}
	}
	return "lengths differ"
}
