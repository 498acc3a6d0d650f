package app

import (
	"strings"
	"testing"
)

// TestPageTreeHTMLEscapesAndMarks checks the page tree's markup: titles
// and addresses escaped, a link page's unsafe address dropped, the page
// read marked, hidden pages tagged, an open branch drawn and a closed one
// left empty with the address of its pages.
func TestPageTreeHTMLEscapesAndMarks(t *testing.T) {
	t.Parallel()
	got := string(pageTreeHTML([]pageNode{
		{Title: `Guides & "how-tos" <b>`, Group: true, Open: true, Hidden: true, Children: []pageNode{
			{Title: "Install", URL: "/app/s/x/install", ID: "tree-p1", Open: true, Children: []pageNode{
				{Title: "Linux", URL: "/app/s/x/install/linux", Active: true, Emoji: "🐧"},
			}},
			{Title: "Closed", URL: "/app/s/x/closed", ID: "tree-p2", Branch: "/app/s/x/~/tree?change=3&page=p2"},
		}},
		{Title: "Evil", URL: "javascript:alert(1)"},
	}))
	for _, want := range []string{
		`<li class="tree-group"><h3 class="tree-group-title">Guides &amp; &#34;how-tos&#34; &lt;b&gt;<span class="visually-hidden">,</span> <span class="page-tag">Hidden</span></h3><ul>`,
		`<button type="button" class="tree-toggle" aria-controls="tree-p1" aria-expanded="true" aria-label="Pages under Install">`,
		`<ul id="tree-p1"><li><div class="tree-row"><a href="/app/s/x/install/linux" aria-current="page"><span aria-hidden="true">🐧</span> Linux</a></div></li></ul>`,
		`aria-expanded="false" data-branch="/app/s/x/~/tree?change=3&amp;page=p2" aria-label="Pages under Closed">`,
		`<ul id="tree-p2" hidden></ul>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "javascript:") {
		t.Errorf("a link page's script address was drawn: %s", got)
	}
	if n := strings.Count(got, "<li"); n != 5 || n != strings.Count(got, "</li>") {
		t.Errorf("%d items opened, %d closed; want 5", n, strings.Count(got, "</li>"))
	}
}
