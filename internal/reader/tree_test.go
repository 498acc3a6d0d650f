package reader

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// The sidebar opens only the branch of the page being read; other
// branches are closed behind toggles that say what they control.
func TestTreeOpensTheCurrentBranch(t *testing.T) {
	p := fixturePage(t)
	p.Tree = []TreeItem{
		{Title: "Overview", URL: "/docs"},
		{Title: "Guides", URL: "/docs/guides", Children: []TreeItem{
			{Title: "Setup", URL: "/docs/guides/setup", Children: []TreeItem{
				{Title: "Linux", URL: "/docs/guides/setup/linux", Active: true, Children: []TreeItem{{Title: "Debian", URL: "/docs/debian"}}},
			}},
			{Title: "Usage", URL: "/docs/guides/usage", Children: []TreeItem{{Title: "Daily", URL: "/docs/daily"}}},
		}},
		{Title: "Reference", Group: true, Children: []TreeItem{{Title: "API", URL: "/docs/api", Children: []TreeItem{{Title: "Errors", URL: "/docs/errors"}}}}},
	}
	doc, _ := renderFixture(t, p)
	toggles := findAll(doc, byClass("tree-toggle"))
	state := map[string]string{}
	for _, b := range toggles {
		name, _ := attr(b, "aria-label")
		expanded, _ := attr(b, "aria-expanded")
		id, _ := attr(b, "aria-controls")
		list := findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
		if len(list) != 1 {
			t.Fatalf("the toggle %q controls %q, which is not one element", name, id)
		}
		_, hidden := attr(list[0], "hidden")
		if hidden == (expanded == "true") {
			t.Errorf("the toggle %q says expanded=%s and its list hidden=%v", name, expanded, hidden)
		}
		state[strings.TrimPrefix(name, "Pages under ")] = expanded
	}
	want := map[string]string{"Guides": "true", "Setup": "true", "Linux": "true", "Usage": "false", "API": "false"}
	for k, v := range want {
		if state[k] != v {
			t.Errorf("%s: aria-expanded=%q, want %s (all: %v)", k, state[k], v, state)
		}
	}
	if len(state) != len(want) {
		t.Errorf("toggles %v, want %v", state, want)
	}
}
