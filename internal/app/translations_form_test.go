package app

import (
	"strings"
	"testing"

	"quire/internal/document"
)

// TestInstructionsDocument turns typed instructions into the document the
// API takes and back: paragraphs between blank lines, line breaks within
// one kept, blank text as none, and too long refused naming the field.
func TestInstructionsDocument(t *testing.T) {
	raw, err := instructionsDocument("  \r\nKeep names.\r\nNo slang.  \r\n \r\n\r\nBe brief.\n")
	if err != nil {
		t.Fatal(err)
	}
	d, err := document.Parse(raw)
	if err != nil {
		t.Fatalf("not a document: %v\n%s", err, raw)
	}
	if len(d.Nodes) != 2 || d.Nodes[0].Type != document.TypeParagraph || d.Nodes[0].Nodes[0].Leaves[0].Text != "Keep names.\nNo slang." {
		t.Fatalf("document %s", raw)
	}
	if text, rich := instructionsText(raw); text != "Keep names.\nNo slang.\n\nBe brief." || rich {
		t.Errorf("read back as %q (rich %t)", text, rich)
	}
	for _, blank := range []string{"", " \r\n\t\n"} {
		if raw, err := instructionsDocument(blank); raw != nil || err != nil {
			t.Errorf("%q: %s, %v", blank, raw, err)
		}
	}
	if _, err := instructionsDocument(strings.Repeat("ü", maxInstructions)); err != nil {
		t.Errorf("instructions of the longest length: %v", err)
	}
	for _, bad := range []string{strings.Repeat("ü", maxInstructions+1), "bad \xff byte", "nul \x00"} {
		if field, _, ok := formError(func() error { _, err := instructionsDocument(bad); return err }()); !ok || field != "instructions" {
			t.Errorf("%.20q: field %q", bad, field)
		}
	}
}

// TestDurationText words run times as the API rounds them.
func TestDurationText(t *testing.T) {
	for ms, want := range map[int64]string{0: "under a second", 499: "under a second", 500: "1 second", 59_400: "59 seconds",
		60_000: "1 minute", 125_000: "2 minutes 5 seconds"} {
		if got := durationText(ms); got != want {
			t.Errorf("%d ms: %q, want %q", ms, got, want)
		}
	}
}
