package app

import (
	"strings"
	"testing"
)

// TestTreeHTMLMarkup checks the sidebar tree of collections and spaces:
// nested collections, the current space marked, emoji, titles and ids
// escaped, and drag and drop offered only as the viewer's level allows.
func TestTreeHTMLMarkup(t *testing.T) {
	t.Parallel()
	sh := &Shell{SpaceID: "sp2", Tree: []*TreeNode{
		{ID: "c1", Title: `Guides & "how-tos" <b>`, Level: admin, Children: []*TreeNode{
			{ID: "c2", Title: "Inner", Level: create, Children: []*TreeNode{{ID: "sp1", Title: "Deep + 'quoted'", Space: true, Level: read}}},
			{ID: "sp2", Title: "Install", Emoji: "🚀", Space: true, Level: admin},
		}},
		{ID: "c3", Title: "Empty", Level: read},
		{ID: `sp"3`, Title: "Changelog", Space: true, Level: read},
	}}
	got := string(treeHTML(sh))
	want := `<li><a href="/app/c/c1" class="app-tree-collection" draggable="true" data-move="/app/c/c1/move" data-drop="c1">Guides &amp; &#34;how-tos&#34; &lt;b&gt;</a><ul>` +
		`<li><a href="/app/c/c2" class="app-tree-collection" data-drop="c2">Inner</a><ul><li><a href="/app/s/sp1">Deep + &#39;quoted&#39;</a></li></ul></li>` +
		`<li><a href="/app/s/sp2" aria-current="page" draggable="true" data-move="/app/s/sp2/~/move"><span aria-hidden="true">🚀</span> Install</a></li></ul></li>` +
		`<li><a href="/app/c/c3" class="app-tree-collection">Empty</a></li>` +
		`<li><a href="/app/s/sp%223">Changelog</a></li>`
	if got != want {
		t.Fatalf("tree:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, "<b>") {
		t.Fatalf("a title was not escaped: %s", got)
	}
}
