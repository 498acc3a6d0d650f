package reader

import (
	"os"
	"testing"
)

func TestDumpFixture(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create("/tmp/reader-fixture.html")
	defer f.Close()
	if err := r.RenderPage(f, fixturePage(t)); err != nil {
		t.Fatal(err)
	}
}
