package content

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// mpara is a paragraph block; an empty key leaves the block without one.
func mpara(key, text string) string {
	if key == "" {
		return fmt.Sprintf(`{"object":"block","type":"paragraph","nodes":[{"object":"text","text":%q}]}`, text)
	}
	return fmt.Sprintf(`{"object":"block","type":"paragraph","key":%q,"nodes":[{"object":"text","text":%q}]}`, key, text)
}

// mdoc is a document of blocks.
func mdoc(blocks ...string) []byte {
	return []byte(`{"object":"document","data":{},"nodes":[` + strings.Join(blocks, ",") + `]}`)
}

// blockTexts lists a document's blocks as key=text (text alone for a block
// without key).
func blockTexts(t testing.TB, doc []byte) string {
	t.Helper()
	var d struct {
		Nodes []struct {
			Key   string `json:"key"`
			Nodes []struct {
				Text string `json:"text"`
			} `json:"nodes"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("decode %s: %v", doc, err)
	}
	var parts []string
	for _, n := range d.Nodes {
		text := ""
		if len(n.Nodes) > 0 {
			text = n.Nodes[0].Text
		}
		if n.Key == "" {
			parts = append(parts, text)
		} else {
			parts = append(parts, n.Key+"="+text)
		}
	}
	return strings.Join(parts, " ")
}

func TestMergeDocuments(t *testing.T) {
	p := mpara
	base := mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "d"))
	for _, tc := range []struct {
		name         string
		ours, theirs []byte
		want         string // merged blocks, or "" when conflicts are expected
		conflicts    string // conflicting block names, space separated
	}{
		{"edits of different blocks",
			mdoc(p("k1", "A"), p("k2", "b"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "C"), p("k4", "d")),
			"k1=A k2=b k3=C k4=d", ""},
		{"same block changed differently",
			mdoc(p("k1", "a"), p("k2", "ours"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "theirs"), p("k3", "c"), p("k4", "d")),
			"", "k2"},
		{"same block changed identically",
			mdoc(p("k1", "a"), p("k2", "B"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "B"), p("k3", "C"), p("k4", "d")),
			"k1=a k2=B k3=C k4=d", ""},
		{"deleted in main, edited in the change request",
			mdoc(p("k1", "a"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "B"), p("k3", "c"), p("k4", "d")),
			"", "k2"},
		{"deleted in the change request, edited in main",
			mdoc(p("k1", "a"), p("k2", "B"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k3", "c"), p("k4", "d")),
			"", "k2"},
		{"deleted on one side, edit elsewhere on the other",
			mdoc(p("k1", "a"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "D")),
			"k1=a k3=c k4=D", ""},
		{"deleted on both sides",
			mdoc(p("k1", "a"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k3", "C"), p("k4", "d")),
			"k1=a k3=C k4=d", ""},
		{"move in main, edit of the moved block in the change request",
			mdoc(p("k3", "c"), p("k1", "a"), p("k2", "b"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "C"), p("k4", "d")),
			"k3=C k1=a k2=b k4=d", ""},
		{"moves of different blocks on each side",
			mdoc(p("k2", "b"), p("k3", "c"), p("k4", "d"), p("k1", "a")),
			mdoc(p("k4", "d"), p("k1", "a"), p("k2", "b"), p("k3", "c")),
			"k4=d k2=b k3=c k1=a", ""},
		{"same move on both sides",
			mdoc(p("k2", "b"), p("k1", "a"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k2", "b"), p("k1", "a"), p("k3", "c"), p("k4", "D")),
			"k2=b k1=a k3=c k4=D", ""},
		{"one block moved to different places",
			mdoc(p("k4", "d"), p("k1", "a"), p("k2", "b"), p("k3", "c")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k4", "d"), p("k3", "c")),
			"", "k4"},
		{"insertions at different places",
			mdoc(p("k1", "a"), p("x", "ours"), p("k2", "b"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("y", "theirs"), p("k4", "d")),
			"k1=a x=ours k2=b k3=c y=theirs k4=d", ""},
		{"insertions at the same place",
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "d"), p("x", "ours")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "d"), p("y", "theirs")),
			"", "y"},
		{"identical insertions at the same place",
			mdoc(p("k1", "a"), p("k2", "b"), p("x", "same"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("x", "same"), p("k3", "c"), p("k4", "D")),
			"k1=a k2=b x=same k3=c k4=D", ""},
		{"same key inserted with different content",
			mdoc(p("x", "ours"), p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k2", "b"), p("k3", "c"), p("k4", "d"), p("x", "theirs")),
			"", "x"},
		{"insertion next to a block the other side deleted",
			mdoc(p("k1", "a"), p("k2", "b"), p("new", "n"), p("k3", "c"), p("k4", "d")),
			mdoc(p("k1", "a"), p("k3", "c"), p("k4", "d")),
			"k1=a new=n k3=c k4=d", ""},
		{"everything replaced on one side",
			mdoc(p("z", "z")),
			base,
			"z=z", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			merged, conflicts, err := mergeDocuments(base, tc.ours, tc.theirs)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range conflicts {
				names = append(names, c.Block)
			}
			if got := strings.Join(names, " "); got != tc.conflicts {
				t.Fatalf("conflicts %q (%v), want %q", got, conflicts, tc.conflicts)
			}
			if tc.conflicts != "" {
				if merged != nil {
					t.Fatalf("conflicting merge returned a document: %s", merged)
				}
				return
			}
			if got := blockTexts(t, merged); got != tc.want {
				t.Fatalf("merged %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMergeDocumentsKeylessBlocks(t *testing.T) {
	base := mdoc(mpara("", "one"), mpara("", "two"), mpara("k", "three"))
	ours := mdoc(mpara("", "ONE"), mpara("", "two"), mpara("k", "three"))
	theirs := mdoc(mpara("", "one"), mpara("", "two"), mpara("k", "three"), mpara("k9", "four"))
	merged, conflicts, err := mergeDocuments(base, ours, theirs)
	if err != nil || len(conflicts) > 0 {
		t.Fatalf("merge: %v %v", conflicts, err)
	}
	if got, want := blockTexts(t, merged), "ONE two k=three k9=four"; got != want {
		t.Fatalf("merged %q, want %q", got, want)
	}
	// Both sides rewriting the same keyless block is an overlapping
	// insertion, named by the content hash of the change request's block.
	theirs = mdoc(mpara("", "One!"), mpara("", "two"), mpara("k", "three"))
	_, conflicts, err = mergeDocuments(base, ours, theirs)
	if err != nil || len(conflicts) != 1 || !strings.HasPrefix(conflicts[0].Block, "#") {
		t.Fatalf("conflicts %v %v, want one on a keyless block", conflicts, err)
	}
	// Equal keyless blocks are told apart by occurrence.
	base = mdoc(mpara("", "same"), mpara("", "same"))
	ours = mdoc(mpara("", "same"))
	merged, conflicts, err = mergeDocuments(base, ours, base)
	if err != nil || len(conflicts) > 0 || blockTexts(t, merged) != "same" {
		t.Fatalf("merge of repeated blocks: %s %v %v", merged, conflicts, err)
	}
}

func TestMergeDocumentsMembers(t *testing.T) {
	base := []byte(`{"object":"document","data":{"a":1},"nodes":[]}`)
	ours := []byte(`{"object":"document","data":{"a":2},"nodes":[]}`)
	theirs := []byte(`{"object":"document","data":{"a":1},"nodes":[` + mpara("k", "x") + `]}`)
	merged, conflicts, err := mergeDocuments(base, ours, theirs)
	if err != nil || len(conflicts) > 0 {
		t.Fatalf("merge: %v %v", conflicts, err)
	}
	want := `{"data":{"a":2},"nodes":[` + mpara("k", "x") + `],"object":"document"}`
	if !sameJSON(merged, []byte(want)) {
		t.Fatalf("merged %s, want %s", merged, want)
	}
	theirs = []byte(`{"object":"document","data":{"a":3},"nodes":[]}`)
	_, conflicts, err = mergeDocuments(base, ours, theirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) != 1 || conflicts[0].Block != "" {
		t.Fatalf("conflicts %v, want one on the document data", conflicts)
	}
	// No base document: both sides' additions meet at the same place.
	merged, conflicts, err = mergeDocuments(nil, mdoc(mpara("k", "x")), mdoc())
	if err != nil || len(conflicts) > 0 || blockTexts(t, merged) != "k=x" {
		t.Fatalf("merge without base: %s %v %v", merged, conflicts, err)
	}
	if _, _, err := mergeDocuments(base, []byte(`{"nodes":`), theirs); err == nil {
		t.Fatal("malformed document merged")
	}
}

// TestMergeDocumentsOneSided checks on random documents that a change on
// one side, or the same change on both, merges to that change.
func TestMergeDocumentsOneSided(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	randomDoc := func() ([]byte, []string) {
		n := rng.Intn(8)
		var blocks []string
		for i := 0; i < n; i++ {
			key := fmt.Sprintf("k%d", rng.Intn(12))
			if rng.Intn(4) == 0 {
				key = ""
			}
			blocks = append(blocks, mpara(key, fmt.Sprintf("t%d", rng.Intn(3))))
		}
		return mdoc(blocks...), blocks
	}
	for i := 0; i < 200; i++ {
		base, _ := randomDoc()
		x, _ := randomDoc()
		for _, c := range [][3][]byte{{base, x, base}, {base, base, x}, {base, x, x}} {
			merged, conflicts, err := mergeDocuments(c[0], c[1], c[2])
			if err != nil || len(conflicts) > 0 {
				t.Fatalf("round %d: %v %v\nbase %s\nx    %s", i, conflicts, err, base, x)
			}
			if got, want := blockTexts(t, merged), blockTexts(t, x); got != want {
				t.Fatalf("round %d: merged %q, want %q\nbase %s", i, got, want, base)
			}
		}
	}
}

func TestLongestIncreasing(t *testing.T) {
	for _, tc := range []struct {
		seq  []int
		want int
	}{{nil, 0}, {[]int{0, 1, 2}, 3}, {[]int{2, 1, 0}, 1}, {[]int{3, 0, 1, 4, 2, 5}, 4}} {
		got := longestIncreasing(tc.seq)
		if len(got) != tc.want {
			t.Fatalf("%v: length %d, want %d", tc.seq, len(got), tc.want)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] || tc.seq[got[i]] <= tc.seq[got[i-1]] {
				t.Fatalf("%v: %v is not increasing", tc.seq, got)
			}
		}
	}
}
