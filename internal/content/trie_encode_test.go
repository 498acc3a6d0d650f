package content

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestEncodeNodeMatchesJSON checks that the node encoder writes the very
// bytes json.Marshal does, plain strings or not, so node keys do not
// depend on which encoder ran.
func TestEncodeNodeMatchesJSON(t *testing.T) {
	nodes := []*trieNode{
		{Bitmap: 5, Entries: []trieEntry{{K: "page-1", V: "abc123"}, {C: "f00d"}}},
		{Entries: []trieEntry{{K: "a", V: "b"}, {K: "c", V: "d"}}},
		{Bitmap: 1 << 31, Entries: []trieEntry{{}}},
		{Entries: nil},
		{Bitmap: 3, Entries: []trieEntry{{K: "tom & jerry", V: "<b>"}, {K: "é", V: "x\ny"}}},
		{Entries: []trieEntry{{K: `quote " back \ slash`, V: "\u2028"}}},
		{Entries: []trieEntry{{K: "a0.5~z", V: "v", C: ""}}},
	}
	for _, n := range nodes {
		want, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeNode(n); !bytes.Equal(got, want) {
			t.Errorf("encodeNode(%+v) = %s, want %s", n, got, want)
		}
	}
}
