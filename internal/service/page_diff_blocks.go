package service

import (
	"sort"
	"strconv"

	"quire/internal/document"
)

// DiffBlocks compares the top-level blocks of two documents (either may
// be nil, an absent side). Blocks are matched by key (a block without a
// key by its content hash; a repeated key by its occurrence); a matched
// block is changed when its document.BlockHash differs. The result holds
// every block of both sides once, in the order of both documents: the
// blocks each side kept in the same order anchor the list, and between
// two anchors come the old side's removed blocks, then the new side's
// added and moved ones.
func DiffBlocks(old, cur *document.Document) []BlockDiff {
	var on, nn []document.Node
	if old != nil {
		on = old.Nodes
	}
	if cur != nil {
		nn = cur.Nodes
	}
	oldIDs, newIDs := blockIDs(on), blockIDs(nn)
	oldAt := make(map[string]int, len(oldIDs))
	for i, id := range oldIDs {
		oldAt[id] = i
	}
	// match[j] is the index in old of new block j, -1 for none.
	match := make([]int, len(newIDs))
	inNew := make(map[int]bool, len(newIDs))
	for j, id := range newIDs {
		match[j] = -1
		if i, ok := oldAt[id]; ok {
			match[j] = i
			inNew[i] = true
		}
	}
	anchor := increasingRun(match)
	out := make([]BlockDiff, 0, max(len(on), len(nn)))
	i := 0
	emitRemoved := func(upto int) {
		for ; i < upto; i++ {
			if !inNew[i] {
				out = append(out, BlockDiff{Key: on[i].Key, Change: BlockRemoved, Old: &on[i]})
			}
		}
	}
	for j := range nn {
		n := &nn[j]
		m := match[j]
		if m < 0 {
			out = append(out, BlockDiff{Key: n.Key, Change: BlockAdded, New: n})
			continue
		}
		if anchor[j] {
			emitRemoved(m)
			i = m + 1
		}
		b := BlockDiff{Key: n.Key, Change: BlockUnchanged, Old: &on[m], New: n, Moved: !anchor[j]}
		if document.BlockHash(on[m]) != document.BlockHash(*n) {
			b.Change = BlockChanged
		}
		out = append(out, b)
	}
	emitRemoved(len(on))
	return out
}

// blockIDs names each block for matching: its key, or its content hash
// without one, with a repeated name told apart by its occurrence.
func blockIDs(nodes []document.Node) []string {
	ids := make([]string, len(nodes))
	seen := map[string]int{}
	for i, n := range nodes {
		id := "k:" + n.Key
		if n.Key == "" {
			id = "h:" + document.BlockHash(n)
		}
		if c := seen[id]; c > 0 {
			seen[id] = c + 1
			id += "#" + strconv.Itoa(c)
		} else {
			seen[id] = 1
		}
		ids[i] = id
	}
	return ids
}

// increasingRun marks the entries of a longest strictly increasing
// subsequence of the non-negative values of match (the blocks that keep
// their relative order), in O(n log n).
func increasingRun(match []int) []bool {
	var tails []int // index into match of the smallest tail of each length
	prev := make([]int, len(match))
	for j, v := range match {
		prev[j] = -1
		if v < 0 {
			continue
		}
		k := sort.Search(len(tails), func(k int) bool { return match[tails[k]] >= v })
		if k > 0 {
			prev[j] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, j)
		} else {
			tails[k] = j
		}
	}
	out := make([]bool, len(match))
	if len(tails) > 0 {
		for j := tails[len(tails)-1]; j >= 0; j = prev[j] {
			out[j] = true
		}
	}
	return out
}
