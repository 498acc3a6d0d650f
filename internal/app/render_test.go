package app

import (
	"testing"

	"quire/internal/service"
)

// TestPageTemplatesParse makes every page's template set, as each page's
// first drawing does: a page that does not parse with the layouts fails
// here rather than on its first request.
func TestPageTemplatesParse(t *testing.T) {
	a, err := New(service.New(nil), Config{BaseURL: "http://127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.views.pages) == 0 {
		t.Fatal("no page templates found")
	}
	for name := range a.views.pages {
		if _, err := a.views.page(name); err != nil {
			t.Errorf("page %s: %v", name, err)
		}
	}
}
