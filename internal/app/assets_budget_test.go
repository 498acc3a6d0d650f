package app

import (
	"os"
	"path/filepath"
	"testing"
)

// assetBudget is the most the stylesheets and scripts a page of the app
// can load may weigh together, uncompressed.
const assetBudget = 100 * 1024

// TestAssetBudget keeps the app's embedded stylesheets and scripts, with
// the reader's it reuses, under the budget.
func TestAssetBudget(t *testing.T) {
	files, err := assetFS.ReadDir("assets")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		body, err := assetFS.ReadFile("assets/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-28s %7d", "app/assets/"+f.Name(), len(body))
		total += len(body)
	}
	// The reader's files the app's pages load too.
	for _, name := range []string{"reader.css", "reader.js", "theme.js"} {
		body, err := os.ReadFile(filepath.Join("..", "reader", "assets", name))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-28s %7d", "reader/assets/"+name, len(body))
		total += len(body)
	}
	t.Logf("%-28s %7d (budget %d)", "total", total, assetBudget)
	if total > assetBudget {
		t.Errorf("the app's CSS and JavaScript weigh %d bytes, over the budget of %d", total, assetBudget)
	}
}
