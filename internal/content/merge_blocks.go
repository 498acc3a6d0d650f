package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A document is a JSON object whose "nodes" member lists its top-level
// blocks. Merging two edits of one document works on those blocks: a
// block's identity is its "key" (or, for a block without one, the hash of
// its content), and a diff3 over the three sequences of identities decides
// which blocks the result holds, in which order, with which content.
//
// Order is merged around anchors: the blocks that neither side moved, which
// appear in the same relative order in base, main and the change request.
// A side moved a block when the block is not in the longest subsequence of
// that side's blocks that keeps the base order. Between two consecutive
// anchors each side places the blocks it inserted or moved there; when
// only one side placed blocks in a gap, or both placed the same ones, they
// apply, otherwise the gap is a conflict.

// blockConflict is one conflict inside a document: Block names the block
// (its key, or "#" and the start of its content hash when it has none),
// "" for the document's own members.
type blockConflict struct {
	Block  string
	Reason string
}

// docBlock is one top-level block of a document.
type docBlock struct {
	id   string // identity within the document
	name string // how conflicts name it
	raw  json.RawMessage
	hash string // hash of its canonical JSON
}

// parsedDoc is a document split into its blocks and its other members.
type parsedDoc struct {
	top      map[string]json.RawMessage // every member but "nodes"
	hasNodes bool
	blocks   []docBlock
	index    map[string]int // block identity → index in blocks
}

// parseDocument splits a document's JSON; empty input is an empty
// document.
func parseDocument(b []byte) (*parsedDoc, error) {
	d := &parsedDoc{top: map[string]json.RawMessage{}, index: map[string]int{}}
	if len(bytes.TrimSpace(b)) == 0 {
		return d, nil
	}
	if err := json.Unmarshal(b, &d.top); err != nil {
		return nil, fmt.Errorf("content: decode document: %w", err)
	}
	if d.top == nil {
		d.top = map[string]json.RawMessage{}
	}
	nodes, ok := d.top["nodes"]
	delete(d.top, "nodes")
	d.hasNodes = ok
	var raws []json.RawMessage
	if ok && string(nodes) != "null" {
		if err := json.Unmarshal(nodes, &raws); err != nil {
			return nil, fmt.Errorf("content: decode document nodes: %w", err)
		}
	}
	seen := map[string]int{}
	for _, r := range raws {
		c, err := canonicalJSON(r)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(c)
		h := hex.EncodeToString(sum[:])
		var keyed struct {
			Key string `json:"key"`
		}
		_ = json.Unmarshal(r, &keyed) // a block without a string key is identified by its content
		id, name := "k:"+keyed.Key, keyed.Key
		if keyed.Key == "" {
			id, name = "h:"+h, "#"+h[:12]
		}
		// A repeated identity (a copied block, two equal keyless blocks)
		// is told apart by its occurrence.
		if n := seen[id]; n > 0 {
			seen[id] = n + 1
			id += "\x00" + strconv.Itoa(n)
		} else {
			seen[id] = 1
		}
		d.index[id] = len(d.blocks)
		d.blocks = append(d.blocks, docBlock{id: id, name: name, raw: r, hash: h})
	}
	return d, nil
}

// block returns the block with an identity, if the document has it.
func (d *parsedDoc) block(id string) (docBlock, bool) {
	i, ok := d.index[id]
	if !ok {
		return docBlock{}, false
	}
	return d.blocks[i], true
}

// canonicalJSON re-encodes JSON with sorted object members, no
// insignificant space and numbers kept as written, so equal values have
// equal bytes.
func canonicalJSON(b []byte) ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("content: decode JSON: %w", err)
	}
	return encodeJSON(v)
}

// encodeJSON marshals without escaping HTML characters.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	ca, err := canonicalJSON(a)
	if err != nil {
		return false
	}
	cb, err := canonicalJSON(b)
	return err == nil && bytes.Equal(ca, cb)
}

// mergeDocuments merges the edits of base made by ours and by theirs. It
// returns the merged document, or the conflicts that prevent it. An error
// means a document is not valid JSON.
func mergeDocuments(base, ours, theirs []byte) ([]byte, []blockConflict, error) {
	return mergeDocumentsResolved(base, ours, theirs, nil)
}

// mergeDocumentsResolved is mergeDocuments with the block conflicts named
// in res (by block name) settled as they say.
func mergeDocumentsResolved(base, ours, theirs []byte, res map[string]Resolution) ([]byte, []blockConflict, error) {
	b, err := parseDocument(base)
	if err != nil {
		return nil, nil, err
	}
	o, err := parseDocument(ours)
	if err != nil {
		return nil, nil, err
	}
	t, err := parseDocument(theirs)
	if err != nil {
		return nil, nil, err
	}
	m := &docMerge{b: b, o: o, t: t, kept: map[string]json.RawMessage{}, reported: map[string]bool{},
		res: res, extra: map[string][]json.RawMessage{}}
	top := m.mergeMembers()
	m.mergeContent()
	nodes := m.mergeOrder()
	if len(m.conflicts) > 0 {
		return nil, m.conflicts, nil
	}
	if nodes == nil {
		nodes = []json.RawMessage{}
	}
	if len(nodes) > 0 || b.hasNodes || o.hasNodes || t.hasNodes {
		nb, err := encodeJSON(nodes)
		if err != nil {
			return nil, nil, err
		}
		top["nodes"] = nb
	}
	out, err := encodeJSON(top)
	return out, nil, err
}

// docMerge is the state of one document merge.
type docMerge struct {
	b, o, t   *parsedDoc
	kept      map[string]json.RawMessage // identity → content of every block the result keeps
	conflicts []blockConflict
	reported  map[string]bool // blocks already in conflict
	// res settles block conflicts, by block name; extra holds the blocks
	// an edited resolution puts after a block, by its identity.
	res   map[string]Resolution
	extra map[string][]json.RawMessage
}

// conflict records a conflict, once per block.
func (m *docMerge) conflict(name, format string, args ...any) {
	if name != "" {
		if m.reported[name] {
			return
		}
		m.reported[name] = true
	}
	m.conflicts = append(m.conflicts, blockConflict{Block: name, Reason: fmt.Sprintf(format, args...)})
}

// mergeMembers merges the document's members other than its blocks.
func (m *docMerge) mergeMembers() map[string]json.RawMessage {
	keys := map[string]bool{}
	for _, d := range []*parsedDoc{m.b, m.o, m.t} {
		for k := range d.top {
			keys[k] = true
		}
	}
	out := map[string]json.RawMessage{}
	for _, k := range sortedKeys(keys) {
		v, ok := merge3(m.b.top[k], m.o.top[k], m.t.top[k], sameJSON)
		if !ok {
			m.conflict("", "the document's %q was changed differently in main and in the change request", k)
			continue
		}
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// merge3 merges one value three ways; nil is an absent value. It fails
// when both sides changed it differently.
func merge3(base, ours, theirs json.RawMessage, same func(a, b []byte) bool) (json.RawMessage, bool) {
	eq := func(a, b json.RawMessage) bool {
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		return same(a, b)
	}
	switch {
	case eq(ours, theirs), eq(base, theirs):
		return ours, true
	case eq(base, ours):
		return theirs, true
	}
	return nil, false
}

// mergeContent decides which blocks the result keeps and their content.
func (m *docMerge) mergeContent() {
	for _, x := range m.b.blocks {
		ob, inO := m.o.block(x.id)
		tb, inT := m.t.block(x.id)
		switch {
		case inO && inT:
			switch {
			case ob.hash == tb.hash || tb.hash == x.hash:
				m.kept[x.id] = ob.raw
			case ob.hash == x.hash:
				m.kept[x.id] = tb.raw
			default:
				m.kept[x.id] = ob.raw
				if r, ok := m.resolved(x.name); ok {
					m.keepResolved(x.id, r, ob.raw, tb.raw)
				} else {
					m.conflict(x.name, "changed differently in main and in the change request")
				}
			}
		case inO && ob.hash != x.hash:
			if r, ok := m.resolved(x.name); ok {
				m.keepResolved(x.id, r, ob.raw, nil)
			} else {
				m.conflict(x.name, "deleted in the change request, edited in main")
			}
		case inT && tb.hash != x.hash:
			if r, ok := m.resolved(x.name); ok {
				m.keepResolved(x.id, r, nil, tb.raw)
			} else {
				m.conflict(x.name, "deleted in main, edited in the change request")
			}
		}
	}
	for _, x := range m.o.blocks {
		if _, inB := m.b.index[x.id]; inB {
			continue
		}
		m.kept[x.id] = x.raw
		if tb, inT := m.t.block(x.id); inT && tb.hash != x.hash {
			if r, ok := m.resolved(x.name); ok {
				m.keepResolved(x.id, r, x.raw, tb.raw)
			} else {
				m.conflict(x.name, "inserted with different content in main and in the change request")
			}
		}
	}
	for _, x := range m.t.blocks {
		_, inB := m.b.index[x.id]
		_, inO := m.o.index[x.id]
		if !inB && !inO {
			m.kept[x.id] = x.raw
		}
	}
}

// mergeOrder orders the kept blocks; see the comment at the top of this
// file.
func (m *docMerge) mergeOrder() []json.RawMessage {
	basePos := map[string]int{}
	for _, x := range m.b.blocks {
		if _, ok := m.kept[x.id]; ok {
			basePos[x.id] = len(basePos)
		}
	}
	stableO := m.unmoved(m.o, basePos)
	stableT := m.unmoved(m.t, basePos)
	anchor := map[string]int{}
	var anchors []string
	for _, x := range m.b.blocks {
		if stableO[x.id] && stableT[x.id] {
			anchor[x.id] = len(anchors)
			anchors = append(anchors, x.id)
		}
	}
	// A side places the blocks it inserted or moved, and the kept blocks
	// the other side does not have (deleted there, kept by a resolution).
	placedBy := func(stable map[string]bool, other *parsedDoc) func(string) bool {
		return func(id string) bool {
			_, inBase := basePos[id]
			_, inOther := other.index[id]
			return !inBase || !stable[id] || !inOther
		}
	}
	gapsO, atO := m.placements(m.o, anchor, placedBy(stableO, m.t))
	gapsT, atT := m.placements(m.t, anchor, placedBy(stableT, m.o))
	for _, x := range m.t.blocks {
		if gapO, ok := atO[x.id]; ok {
			if gapT, ok := atT[x.id]; ok && gapT != gapO {
				r, resolved := m.resolved(x.name)
				switch {
				case !resolved:
					m.conflict(x.name, "moved or inserted at different places in main and in the change request")
				case r.Take == TakeTheirs:
					gapsO[gapO] = slices.DeleteFunc(gapsO[gapO], func(id string) bool { return id == x.id })
				default:
					gapsT[gapT] = slices.DeleteFunc(gapsT[gapT], func(id string) bool { return id == x.id })
				}
			}
		}
	}
	var out []json.RawMessage
	for g := 0; g <= len(anchors); g++ {
		po, pt := gapsO[g], gapsT[g]
		seq := po
		switch {
		case len(pt) == 0 || slices.Equal(po, pt):
		case len(po) == 0:
			seq = pt
		case m.gapResolved(pt) != "":
			// Both sides' blocks, the chosen side's first.
			first, second := po, pt
			if m.gapResolved(pt) == TakeTheirs {
				first, second = pt, po
			}
			seq = append(slices.Clone(first), slices.DeleteFunc(slices.Clone(second), func(id string) bool { return slices.Contains(first, id) })...)
		default:
			ours := make([]string, len(po))
			for i, id := range po {
				ours[i] = m.name(id)
			}
			for _, id := range pt {
				m.conflict(m.name(id), "inserted or moved at the same place as main's %s", strings.Join(ours, ", "))
			}
			seq = nil
		}
		for _, id := range seq {
			out = append(append(out, m.kept[id]), m.extra[id]...)
		}
		if g < len(anchors) {
			out = append(append(out, m.kept[anchors[g]]), m.extra[anchors[g]]...)
		}
	}
	return out
}

// gapResolved returns the side chosen for blocks both sides placed at the
// same place: the choice of the first of the change request's blocks
// there, when every one of them has a resolution; "" otherwise.
func (m *docMerge) gapResolved(pt []string) string {
	take := ""
	for i, id := range pt {
		r, ok := m.resolved(m.name(id))
		if !ok {
			return ""
		}
		if i == 0 {
			take = r.Take
		}
	}
	if take == TakeEdited {
		return TakeOurs
	}
	return take
}

// name returns how conflicts name a block.
func (m *docMerge) name(id string) string {
	for _, d := range []*parsedDoc{m.t, m.o, m.b} {
		if x, ok := d.block(id); ok {
			return x.name
		}
	}
	return id
}

// unmoved returns the kept base blocks a side left in place: the longest
// subsequence of its blocks in base order.
func (m *docMerge) unmoved(d *parsedDoc, basePos map[string]int) map[string]bool {
	var seq []int
	var ids []string
	for _, x := range d.blocks {
		if p, ok := basePos[x.id]; ok {
			seq = append(seq, p)
			ids = append(ids, x.id)
		}
	}
	out := map[string]bool{}
	for _, i := range longestIncreasing(seq) {
		out[ids[i]] = true
	}
	return out
}

// placements lists, for each gap between anchors (gap g is before anchor
// g), the kept blocks a side placed there, and the gap of each.
func (m *docMerge) placements(d *parsedDoc, anchor map[string]int, placed func(string) bool) (map[int][]string, map[string]int) {
	gaps, at := map[int][]string{}, map[string]int{}
	g := 0
	for _, x := range d.blocks {
		if a, ok := anchor[x.id]; ok {
			g = a + 1
			continue
		}
		if _, ok := m.kept[x.id]; !ok || !placed(x.id) {
			continue
		}
		gaps[g] = append(gaps[g], x.id)
		at[x.id] = g
	}
	return gaps, at
}

// longestIncreasing returns the indices of a longest strictly increasing
// subsequence of seq, in order.
func longestIncreasing(seq []int) []int {
	var tails []int // tails[l]: index of the smallest tail of a run of length l+1
	prev := make([]int, len(seq))
	for i, v := range seq {
		l := sort.Search(len(tails), func(j int) bool { return seq[tails[j]] >= v })
		if l > 0 {
			prev[i] = tails[l-1]
		} else {
			prev[i] = -1
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	out := make([]int, len(tails))
	if len(tails) == 0 {
		return out
	}
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = k
	}
	return out
}

// sortedKeys returns a set's members in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
