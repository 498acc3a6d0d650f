package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"quire/internal/document"
)

// TestBlockTemplatesParse checks that every template of the insert menu
// reads, in the dialect, as one block of the type it names, and is
// written back unchanged: what the menu inserts is what a save keeps.
func TestBlockTemplatesParse(t *testing.T) {
	seen := map[string]bool{}
	for _, bt := range blockTemplates() {
		if seen[bt.Name] {
			t.Errorf("%s: listed twice", bt.Name)
		}
		seen[bt.Name] = true
		doc, err := document.FromMarkdown(bt.Markdown)
		if err != nil {
			t.Errorf("%s: %v", bt.Name, err)
			continue
		}
		if len(doc.Nodes) != 1 {
			t.Errorf("%s: %d top-level blocks, want 1", bt.Name, len(doc.Nodes))
			continue
		}
		if got := doc.Nodes[0].Type; got != bt.Type {
			t.Errorf("%s: reads as %q, want %q", bt.Name, got, bt.Type)
		}
		out, err := document.ToMarkdown(doc)
		if err != nil {
			t.Errorf("%s: %v", bt.Name, err)
			continue
		}
		if out != bt.Markdown {
			t.Errorf("%s: written back as\n%s\nwant\n%s", bt.Name, out, bt.Markdown)
		}
	}
	// The dialect's block kinds the menu must offer.
	types := map[string]bool{}
	for _, bt := range blockTemplates() {
		types[bt.Type] = true
	}
	for _, want := range []string{document.TypeParagraph, document.TypeHeading1, document.TypeHeading2, document.TypeHeading3,
		document.TypeListUnordered, document.TypeListOrdered, document.TypeListTasks, document.TypeBlockquote, document.TypeHint,
		document.TypeTabs, document.TypeCode, document.TypeExpandable, document.TypeTable, document.TypeContentRef,
		document.TypeEmbed, document.TypeFile, document.TypeImages, document.TypeMath, document.TypeStepper,
		document.TypeColumns, document.TypeSwagger, document.TypeDivider} {
		if !types[want] {
			t.Errorf("no template of %s", want)
		}
	}
	for _, style := range []string{"info", "success", "warning", "danger"} {
		found := false
		for _, bt := range blockTemplates() {
			if bt.Type == document.TypeHint && bt.Markdown[:len(`{% hint style="`)+len(style)] == `{% hint style="`+style {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s hint", style)
		}
	}
}

// TestServeBlocks checks the insert menu's JSON: the templates, cacheable,
// and 304 for a client holding them.
func TestServeBlocks(t *testing.T) {
	bj, err := newBlocksJSON()
	if err != nil {
		t.Fatal(err)
	}
	a := &App{blocks: bj}
	rec := httptest.NewRecorder()
	if err := a.serveBlocks(rec, httptest.NewRequest(http.MethodGet, "/app/~/blocks.json", nil)); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "public, max-age=3600" || rec.Header().Get("ETag") == "" {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
	var got []blockTemplate
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got) != len(blockTemplates()) || got[8].Name != "Info hint" {
		t.Fatalf("%v %d", err, len(got))
	}
	req := httptest.NewRequest(http.MethodGet, "/app/~/blocks.json", nil)
	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	if err := a.serveBlocks(rec, req); err != nil || rec.Code != http.StatusNotModified {
		t.Fatalf("%v %d", err, rec.Code)
	}
}
