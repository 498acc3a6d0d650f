package reader

import (
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// Cards, as GitBook writes them, draw their cover and the icons a
// character can draw; no icon is an empty box.
func TestCardsDrawIconsAndCovers(t *testing.T) {
	src := `<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-cover data-type="files"></th>` +
		`<th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody>` +
		`<tr><td><i class="fa-rocket">:rocket:</i></td><td><strong>Quickstart</strong></td>` +
		`<td><a href=".gitbook/assets/cover.png">cover.png</a></td><td><a href="https://example.com/q">https://example.com/q</a></td></tr>` +
		`<tr><td><i class="fa-circle-check">:circle-check:</i></td><td><strong>Checks</strong></td><td></td><td></td></tr>` +
		"</tbody></table>\n"
	doc, err := document.FromMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	root, out := bodyOf(t, doc, importedResolvers())
	cards := findAll(root, byClass("card"))
	if len(cards) != 2 {
		t.Fatalf("%d cards: %s", len(cards), out)
	}
	covers := findAll(cards[0], byClass("card-cover"))
	if src, _ := attr(covers[0], "src"); len(covers) != 1 || src != "/files/cover.png" {
		t.Errorf("the first card's cover: %s", out)
	}
	if len(findAll(cards[1], byTag(atom.Img))) != 0 {
		t.Error("a card without a cover draws an image")
	}
	for _, ic := range findAll(root, byClass("icon")) {
		if strings.TrimSpace(textOf(ic)) == "" {
			t.Errorf("an icon is an empty box: %s", out)
		}
	}
	if got := textOf(cards[1]); !strings.Contains(got, "✓") {
		t.Errorf("the check icon is not drawn: %q", got)
	}
}
