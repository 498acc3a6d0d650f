package document

// maxLCSCells bounds the dynamic-programming table of ReuseKeys; larger
// differing regions are matched greedily instead.
const maxLCSCells = 4 << 20

// ReuseKeys gives the blocks of updated the keys of equal blocks of old, so
// that re-importing an edited Markdown keeps the keys of untouched blocks.
// Top-level blocks are matched by BlockHash along a longest common
// subsequence; a matched block takes the keys of its whole subtree. Between
// matches, unmatched blocks of the same type are paired in order: they take
// the old block's key and their children are matched the same way.
func ReuseKeys(old, updated *Document) {
	if old == nil || updated == nil {
		return
	}
	reuseSeq(old.Nodes, updated.Nodes)
}

func reuseSeq(old, upd []Node) {
	if len(old) == 0 || len(upd) == 0 {
		return
	}
	ho := make([]string, len(old))
	for i, n := range old {
		ho[i] = BlockHash(n)
	}
	hu := make([]string, len(upd))
	for i, n := range upd {
		hu[i] = BlockHash(n)
	}
	pi, pj := 0, 0
	for _, m := range matchSequences(ho, hu) {
		pairGap(old[pi:m[0]], upd[pj:m[1]])
		copyKeys(old[m[0]], &upd[m[1]])
		pi, pj = m[0]+1, m[1]+1
	}
	pairGap(old[pi:], upd[pj:])
}

// pairGap pairs unmatched blocks of the same type in order and recurses.
func pairGap(old, upd []Node) {
	i := 0
	for j := range upd {
		for k := i; k < len(old); k++ {
			if old[k].Object == upd[j].Object && old[k].Type == upd[j].Type {
				upd[j].Key = old[k].Key
				reuseSeq(old[k].Nodes, upd[j].Nodes)
				reuseFragments(old[k].Fragments, upd[j].Fragments)
				i = k + 1
				break
			}
		}
	}
}

func reuseFragments(old, upd []Node) {
	for j := range upd {
		for _, o := range old {
			if o.Fragment == upd[j].Fragment {
				upd[j].Key = o.Key
				reuseSeq(o.Nodes, upd[j].Nodes)
				break
			}
		}
	}
}

// copyKeys copies the keys of a subtree onto an equal subtree.
func copyKeys(old Node, upd *Node) {
	upd.Key = old.Key
	if len(old.Nodes) == len(upd.Nodes) {
		for i := range upd.Nodes {
			if old.Nodes[i].Object == upd.Nodes[i].Object && old.Nodes[i].Type == upd.Nodes[i].Type {
				copyKeys(old.Nodes[i], &upd.Nodes[i])
			}
		}
	} else {
		reuseSeq(old.Nodes, upd.Nodes)
	}
	if len(old.Fragments) == len(upd.Fragments) {
		for i := range upd.Fragments {
			if old.Fragments[i].Fragment == upd.Fragments[i].Fragment {
				copyKeys(old.Fragments[i], &upd.Fragments[i])
			}
		}
	}
}

// matchSequences returns index pairs of a common subsequence of a and b:
// common prefix and suffix, and a longest common subsequence in between
// (or a greedy one when the region is too large).
func matchSequences(a, b []string) [][2]int {
	var pairs [][2]int
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo] == b[lo] {
		pairs = append(pairs, [2]int{lo, lo})
		lo++
	}
	ea, eb := len(a), len(b)
	var suffix [][2]int
	for ea > lo && eb > lo && a[ea-1] == b[eb-1] {
		ea--
		eb--
		suffix = append(suffix, [2]int{ea, eb})
	}
	ma, mb := a[lo:ea], b[lo:eb]
	var mid [][2]int
	if len(ma)*len(mb) <= maxLCSCells {
		mid = lcs(ma, mb)
	} else {
		mid = greedyMatch(ma, mb)
	}
	for _, m := range mid {
		pairs = append(pairs, [2]int{m[0] + lo, m[1] + lo})
	}
	for i := len(suffix) - 1; i >= 0; i-- {
		pairs = append(pairs, suffix[i])
	}
	return pairs
}

func lcs(a, b []string) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	w := m + 1
	t := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out = append(out, [2]int{i, j})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// greedyMatch matches each element of b to the next equal element of a.
func greedyMatch(a, b []string) [][2]int {
	pos := map[string][]int{}
	for i, h := range a {
		pos[h] = append(pos[h], i)
	}
	var out [][2]int
	last := -1
	for j, h := range b {
		for len(pos[h]) > 0 && pos[h][0] <= last {
			pos[h] = pos[h][1:]
		}
		if len(pos[h]) > 0 {
			last = pos[h][0]
			pos[h] = pos[h][1:]
			out = append(out, [2]int{last, j})
		}
	}
	return out
}
