package document

// RevertBlock restores the block (or inline) with the given key in cur to
// its state in then: replaced by then's version when both hold it,
// removed when only cur holds it, and put back when only then holds it,
// in the same parent after the nearest preceding sibling that cur still
// has. It reports false when neither document holds the key.
func RevertBlock(cur, then *Document, key string) bool {
	if cur == nil || then == nil || key == "" {
		return false
	}
	curPath := findKey(cur.Nodes, key, nil)
	thenPath := findKey(then.Nodes, key, nil)
	switch {
	case curPath != nil && thenPath != nil:
		*nodeAt(&cur.Nodes, curPath) = cloneNode(*nodeAt(&then.Nodes, thenPath))
	case curPath != nil:
		list := childList(&cur.Nodes, curPath[:len(curPath)-1])
		i := curPath[len(curPath)-1]
		*list = append((*list)[:i], (*list)[i+1:]...)
	case thenPath != nil:
		return restoreBlock(cur, then, thenPath)
	default:
		return false
	}
	return true
}

// restoreBlock inserts then's node at thenPath into the matching parent of
// cur.
func restoreBlock(cur, then *Document, thenPath []int) bool {
	parentPath := thenPath[:len(thenPath)-1]
	thenSiblings := *childList(&then.Nodes, parentPath)
	target := &cur.Nodes
	if len(parentPath) > 0 {
		parentKey := nodeAt(&then.Nodes, parentPath).Key
		p := findKey(cur.Nodes, parentKey, nil)
		if parentKey == "" || p == nil {
			return false
		}
		target = &nodeAt(&cur.Nodes, p).Nodes
	}
	idx := thenPath[len(thenPath)-1]
	insert := 0
	for i := idx - 1; i >= 0; i-- {
		if pos := indexOfKey(*target, thenSiblings[i].Key); pos >= 0 {
			insert = pos + 1
			break
		}
	}
	n := cloneNode(thenSiblings[idx])
	*target = append((*target)[:insert], append([]Node{n}, (*target)[insert:]...)...)
	return true
}

// findKey returns the path of child indexes to the node with key.
func findKey(nodes []Node, key string, prefix []int) []int {
	for i, n := range nodes {
		if n.Key == key && n.Object != ObjectText {
			return append(append([]int(nil), prefix...), i)
		}
		if p := findKey(n.Nodes, key, append(prefix, i)); p != nil {
			return p
		}
	}
	return nil
}

func indexOfKey(nodes []Node, key string) int {
	for i, n := range nodes {
		if key != "" && n.Key == key {
			return i
		}
	}
	return -1
}

// childList returns the child slice of the node at path (the top level
// for an empty path).
func childList(root *[]Node, path []int) *[]Node {
	list := root
	for _, i := range path {
		list = &(*list)[i].Nodes
	}
	return list
}

func nodeAt(root *[]Node, path []int) *Node {
	list := childList(root, path[:len(path)-1])
	return &(*list)[path[len(path)-1]]
}

// cloneNode copies a node deeply enough that edits to either copy's
// children do not affect the other.
func cloneNode(n Node) Node {
	if n.Nodes != nil {
		nodes := make([]Node, len(n.Nodes))
		for i, c := range n.Nodes {
			nodes[i] = cloneNode(c)
		}
		n.Nodes = nodes
	}
	if n.Fragments != nil {
		frags := make([]Node, len(n.Fragments))
		for i, c := range n.Fragments {
			frags[i] = cloneNode(c)
		}
		n.Fragments = frags
	}
	return n
}
