package document

// Block returns the block with the given key, searched at any depth:
// nested blocks and the fragments of blocks (table cells, captions,
// expandable bodies) included.
func (d *Document) Block(key string) (Node, bool) {
	if d == nil || key == "" {
		return Node{}, false
	}
	return findBlock(d.Nodes, key)
}

// findBlock searches nodes and their children and fragments for a block
// with key.
func findBlock(nodes []Node, key string) (Node, bool) {
	for _, n := range nodes {
		if n.Object == ObjectBlock && n.Key == key {
			return n, true
		}
		if n.Object == ObjectText {
			continue
		}
		if b, ok := findBlock(n.Nodes, key); ok {
			return b, true
		}
		if b, ok := findBlock(n.Fragments, key); ok {
			return b, true
		}
	}
	return Node{}, false
}

// HasTableCell reports whether n is a table with a record and a column
// definition of the given ids.
func HasTableCell(n Node, record, definition string) bool {
	if n.Object != ObjectBlock || n.Type != TypeTable {
		return false
	}
	recs, _ := n.Data["records"].(map[string]any)
	defs, _ := n.Data["definition"].(map[string]any)
	_, okRecord := recs[record]
	_, okDefinition := defs[definition]
	return okRecord && okDefinition
}
