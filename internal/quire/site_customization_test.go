package quire

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// fullSiteCustomization sets every optional member of the settings, for
// checks of the whole shape.
func fullSiteCustomization() SiteCustomizationSettings {
	c := DefaultSiteCustomization()
	c.Title = "Acme docs"
	c.Styling.Tint = &CustomizationTint{Color: CustomizationThemedColor{Light: "#fff", Dark: "#000000"}}
	c.Styling.Font = CustomizationFont{Custom: &CustomizationFontDefinitionInput{
		ID: "font_1", Custom: true, FontFamily: "Acme Sans",
		FontFaces: []CustomizationFontFace{{Weight: 400, Sources: []CustomizationFontSource{
			{URL: "https://cdn.example.com/acme-400.woff2", Format: "woff2"},
			{URL: "https://cdn.example.com/acme-400.woff"},
		}}},
	}}
	c.Styling.MonospaceFont = CustomizationMonospaceFont{Name: "JetBrainsMono"}
	c.Favicon = CustomizationFavicon{Icon: &CustomizationThemedURL{Light: "https://example.com/l.png", Dark: "https://example.com/d.png"}}
	c.Header.Logo = &CustomizationThemedURL{Light: "https://example.com/logo.png", Dark: "https://example.com/logo-dark.png"}
	c.Header.BackgroundColor = &CustomizationThemedColor{Light: "#eee", Dark: "#111"}
	c.Header.LinkColor = &CustomizationThemedColor{Light: "#123456", Dark: "#654321"}
	c.Header.Links = []CustomizationHeaderItem{
		{Title: "Home", Style: "button-primary", To: &CustomizationHeaderTarget{ContentRef: ContentRef{Kind: "url", URL: "https://example.com"}},
			Links: []CustomizationContentLink{}, Condition: "visitor.claims.isBeta"},
		{Title: "Guides", To: nil, Links: []CustomizationContentLink{
			{Title: "Start", To: ContentRef{Kind: "page", Page: "p1", Space: "s1"}},
		}},
	}
	c.Footer = CustomizationFooter{
		Logo:      &CustomizationThemedURL{Light: "https://example.com/f.png", Dark: "https://example.com/fd.png"},
		Groups:    []CustomizationFooterGroup{{Title: "Company", Links: []CustomizationContentLink{{Title: "About", To: ContentRef{Kind: "space", Space: "s2"}}}}},
		Copyright: "© Acme",
	}
	c.Announcement = &CustomizationAnnouncement{Enabled: true, Message: "New release", Style: "info",
		Link: &CustomizationContentLink{Title: "Read", To: ContentRef{Kind: "anchor", Anchor: "news"}}}
	c.PrivacyPolicy = CustomizationURL{URL: "https://example.com/privacy"}
	c.SocialPreview = CustomizationURL{URL: "https://example.com/preview.png"}
	return c
}

// TestSiteCustomizationGolden writes the defaults and the full example as
// the API answers them. The conformance suite validates the same files
// against the published SiteCustomizationSettings schema
// (conformance/test/site_customization.test.js).
func TestSiteCustomizationGolden(t *testing.T) {
	for name, c := range map[string]SiteCustomizationSettings{
		"site_customization_default.json": DefaultSiteCustomization(),
		"site_customization_full.json":    fullSiteCustomization(),
	} {
		got, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", name)
		if *updateGolden {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the settings marshal to (run go test -update):\n%s", path, got)
		}
		var back SiteCustomizationSettings
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%s does not read back as the same settings:\n%+v\n%+v", name, back, c)
		}
	}
}

func TestDefaultSiteCustomizationRequiredMembers(t *testing.T) {
	raw, _ := json.Marshal(DefaultSiteCustomization())
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"styling", "internationalization", "favicon", "header", "footer", "themes", "pdf", "feedback",
		"ai", "advancedCustomization", "trademark", "externalLinks", "pagination", "pageActions", "git", "privacyPolicy",
		"socialPreview", "insights"} {
		if _, ok := m[k]; !ok {
			t.Errorf("defaults lack %q", k)
		}
	}
	if _, ok := m["title"]; ok {
		t.Error("defaults set a title; the content's title should be used")
	}
	if string(mustJSON(t, m["favicon"])) != "{}" {
		t.Errorf("favicon = %s, want {}", mustJSON(t, m["favicon"]))
	}
}

func TestCustomizationFontJSON(t *testing.T) {
	var f CustomizationFont
	if err := json.Unmarshal([]byte(` "Roboto"`), &f); err != nil || f.Name != "Roboto" || f.Custom != nil {
		t.Fatalf("name: %+v, %v", f, err)
	}
	if err := json.Unmarshal([]byte(`{"id":"x","custom":true,"fontFamily":"X","fontFaces":[]}`), &f); err != nil ||
		f.Name != "" || f.Custom == nil || f.Custom.FontFamily != "X" {
		t.Fatalf("definition: %+v, %v", f, err)
	}
	if err := json.Unmarshal([]byte(`12`), &f); err == nil {
		t.Fatal("a number read as a font")
	}
	var m CustomizationMonospaceFont
	if err := json.Unmarshal([]byte(`"FiraCode"`), &m); err != nil || string(mustJSON(t, m)) != `"FiraCode"` {
		t.Fatalf("monospace: %+v, %v", m, err)
	}
}

func TestCustomizationHeaderTargetNull(t *testing.T) {
	var h CustomizationHeaderItem
	if err := json.Unmarshal([]byte(`{"title":"Menu","to":null,"links":[]}`), &h); err != nil || h.To != nil {
		t.Fatalf("%+v, %v", h, err)
	}
	if got := string(mustJSON(t, h)); got != `{"title":"Menu","to":null,"links":[]}` {
		t.Fatalf("marshals as %s", got)
	}
	if err := json.Unmarshal([]byte(`{"title":"x","to":{"kind":"page","page":"p"},"links":[]}`), &h); err != nil || h.To == nil || h.To.Page != "p" {
		t.Fatalf("%+v, %v", h, err)
	}
}

func TestSiteCustomizationNormalize(t *testing.T) {
	var c SiteCustomizationSettings
	if err := json.Unmarshal([]byte(`{"header":{"preset":"none","links":[{"title":"a","to":null,"links":null}]},
		"footer":{"groups":[{"title":"g","links":null}]},"favicon":{"icon":{"light":"https://a/b","dark":"https://a/c"},"emoji":"x"}}`), &c); err != nil {
		t.Fatal(err)
	}
	c.Normalize()
	if c.Header.Links[0].Links == nil || c.Footer.Groups[0].Links == nil || c.Favicon.Emoji != "" {
		t.Fatalf("not normalized: %+v", c)
	}
	var empty SiteCustomizationSettings
	empty.Normalize()
	if got := string(mustJSON(t, empty.Header)); got != `{"preset":"","links":[]}` {
		t.Fatalf("header = %s", got)
	}
	if got := string(mustJSON(t, empty.Footer)); got != `{"groups":[]}` {
		t.Fatalf("footer = %s", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
