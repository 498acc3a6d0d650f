package document

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"slices"
	"strings"
)

// BlockHash returns a stable hash of a block's content that ignores keys,
// meta, how text is split into text nodes and leaves, and the ids a table
// uses for its columns, records and cell fragments, so that equal content
// hashes equal across conversions.
func BlockHash(n Node) string {
	h := sha256.New()
	hashNode(h, n)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func hashNode(h hash.Hash, n Node) {
	if n.Object == ObjectBlock && n.Type == TypeTable {
		n = canonicalTable(n)
	}
	h.Write([]byte{'{'})
	h.Write([]byte(n.Object))
	h.Write([]byte{0})
	h.Write([]byte(n.Type))
	h.Write([]byte{0})
	h.Write([]byte(n.Fragment))
	h.Write([]byte{0})
	if len(n.Data) > 0 {
		b, _ := json.Marshal(n.Data)
		h.Write(b)
	}
	hashChildren(h, n.Nodes)
	h.Write([]byte{'|'})
	hashChildren(h, n.Fragments)
	h.Write([]byte{'}'})
}

// hashChildren hashes child nodes, merging adjacent text nodes and leaves
// with equal marks and dropping empty text.
func hashChildren(h hash.Hash, nodes []Node) {
	var leaves []Leaf
	flush := func() {
		for _, l := range leaves {
			h.Write([]byte("\x01"))
			h.Write([]byte(l.Text))
			h.Write([]byte{0})
			for _, m := range sortedMarks(l.Marks) {
				h.Write([]byte(m.Type))
				if m.hasData() {
					b, _ := json.Marshal(m.Data)
					h.Write(b)
				}
				h.Write([]byte{','})
			}
		}
		leaves = leaves[:0]
	}
	for _, c := range nodes {
		if c.Object != ObjectText {
			flush()
			hashNode(h, c)
			continue
		}
		for _, l := range c.Leaves {
			if l.Text == "" {
				continue
			}
			if k := len(leaves); k > 0 && sameMarks(leaves[k-1].Marks, l.Marks) {
				leaves[k-1].Text += l.Text
				continue
			}
			leaves = append(leaves, l)
		}
	}
	flush()
}

// sortedMarks returns the marks ordered by type.
func sortedMarks(marks []Mark) []Mark {
	if len(marks) < 2 {
		return marks
	}
	out := slices.Clone(marks)
	slices.SortFunc(out, func(a, b Mark) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// sameMarks reports whether two mark sets are equal, ignoring order.
func sameMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for _, m := range a {
		if !hasMark(b, m) {
			return false
		}
	}
	return true
}

func hasMark(marks []Mark, m Mark) bool {
	for _, x := range marks {
		if x.Type == m.Type && equalData(x.Data, m.Data) {
			return true
		}
	}
	return false
}

func equalData(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
