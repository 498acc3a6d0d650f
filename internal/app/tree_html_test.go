package app

import (
	"bytes"
	"html"
	"testing"
)

// TestTreeHTMLMatchesTemplate checks that the sidebar tree written
// directly says what the "tree-nodes" template says: same elements, same
// links, same current space, same text once unescaped, for nested
// collections, emoji and titles that need escaping.
func TestTreeHTMLMatchesTemplate(t *testing.T) {
	a := &App{assets: &assets{}}
	v, err := parseViews(a)
	if err != nil {
		t.Fatal(err)
	}
	sh := &Shell{SpaceID: "sp2", Tree: []*TreeNode{
		{ID: "c1", Title: `Guides & "how-tos" <b>`, Children: []*TreeNode{
			{ID: "c2", Title: "Inner", Children: []*TreeNode{{ID: "sp1", Title: "Deep + 'quoted'", Space: true}}},
			{ID: "sp2", Title: "Install", Emoji: "🚀", Space: true},
		}},
		{ID: "c3", Title: "Empty"},
		{ID: "sp3", Title: "Changelog", Space: true},
	}}
	var want bytes.Buffer
	if err := v.byName["organization"].ExecuteTemplate(&want, "tree-nodes", treeArgs{Shell: sh, Nodes: sh.Tree}); err != nil {
		t.Fatal(err)
	}
	got := string(treeHTML(sh))
	if html.UnescapeString(got) != html.UnescapeString(want.String()) {
		t.Fatalf("tree differs from the template's:\n got %s\nwant %s", got, want.String())
	}
	if bytes.Contains([]byte(got), []byte("<b>")) {
		t.Fatalf("a title was not escaped: %s", got)
	}
}
