package gitbook

import (
	"reflect"
	"sort"
	"testing"
)

// TestRoundTripGenerated exports a generated space, reads it back and
// checks the tree, the documents and the files are the same, and that a
// second export writes the same bytes.
func TestRoundTripGenerated(t *testing.T) {
	orig := genSpace(t, 60)
	files := mustWrite(t, orig)

	first := mustRead(t, files, pathIDs{})
	if len(first.Warnings) > 0 || len(first.Unlisted) > 0 {
		t.Fatalf("warnings %q, unlisted %q", first.Warnings, first.Unlisted)
	}
	back := mustRead(t, files, idsFor(t, first, orig))
	compareTrees(t, back.Pages, orig.Pages, "")
	compareFiles(t, back.Files, orig.Files)
	if !reflect.DeepEqual(back.Redirects, orig.Redirects) {
		t.Fatalf("redirects %v, want %v", back.Redirects, orig.Redirects)
	}

	again := mustWrite(t, back)
	if a, b := sortedKeys(again), sortedKeys(files); !reflect.DeepEqual(a, b) {
		t.Fatalf("second export writes other files:\n%q\n%q", a, b)
	}
	for name, data := range files {
		if string(again[name]) != string(data) {
			t.Fatalf("second export changed %s:\n%s\n--- was:\n%s", name, again[name], data)
		}
	}
}

func sortedKeys(f Files) []string {
	out := make([]string, 0, len(f))
	for k := range f {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
