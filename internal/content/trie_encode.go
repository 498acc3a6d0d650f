package content

import (
	"encoding/json"
	"strconv"
)

// encodeNode returns the bytes json.Marshal gives for n, written without
// reflection when every string is plain printable ASCII that JSON keeps
// as is (ids, hashes, positions): a node is encoded on every change along
// its path, so this is the edit's hottest encoding. Any other string
// falls back to json.Marshal, so the bytes, and so the node's key, are the
// same either way.
func encodeNode(n *trieNode) []byte {
	size := 16
	for _, e := range n.Entries {
		if !plainJSON(e.K) || !plainJSON(e.V) || (e.C != "" && !plainJSON(e.C)) {
			b, _ := json.Marshal(n) // strings and numbers only: cannot fail
			return b
		}
		size += len(e.K) + len(e.V) + len(e.C) + 24
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	if n.Bitmap != 0 {
		b = append(b, `"b":`...)
		b = strconv.AppendUint(b, uint64(n.Bitmap), 10)
		b = append(b, ',')
	}
	b = append(b, `"e":`...)
	if n.Entries == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, e := range n.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		first := true
		for _, f := range [3]struct{ name, v string }{{"k", e.K}, {"v", e.V}, {"c", e.C}} {
			if f.v == "" {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = append(b, f.name...)
			b = append(b, `":"`...)
			b = append(b, f.v...)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// plainJSON reports whether json.Marshal writes s between quotes as is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
