package reader

import "strconv"

// treeNode is an entry of the sidebar's tree as the template draws it:
// a page with pages below it is a branch with a toggle, open when the
// page being read is in it.
type treeNode struct {
	Title  string
	URL    string
	Group  bool
	Active bool
	// Open marks a branch shown expanded: the page being read is the
	// branch's page or below it. Groups are always open.
	Open bool
	// ID names the list of the branch's pages, for its toggle.
	ID       string
	Children []treeNode
}

// treeNodes turns the visible items of a page tree into the nodes the
// sidebar draws; it reports whether the page being read is among them.
func treeNodes(items []TreeItem, seq *int) ([]treeNode, bool) {
	var out []treeNode
	found := false
	for _, it := range items {
		if it.Hidden {
			continue
		}
		kids, below := treeNodes(it.Children, seq)
		n := treeNode{Title: it.Title, URL: it.URL, Group: it.Group, Active: it.Active, Children: kids,
			Open: it.Group || it.Active || below}
		if len(kids) > 0 {
			*seq++
			n.ID = "tree-" + strconv.Itoa(*seq)
		}
		found = found || it.Active || below
		out = append(out, n)
	}
	return out, found
}
