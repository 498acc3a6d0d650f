package reader

import (
	"testing"

	"quire/internal/quire"
)

func TestSiteFromCustomization(t *testing.T) {
	c := quire.DefaultSiteCustomization()
	c.Title = "Handbook"
	c.Styling.PrimaryColor = quire.CustomizationThemedColor{Light: "#112233", Dark: "#445566"}
	c.Header.Logo = &quire.CustomizationThemedURL{Light: "https://example.com/l.png", Dark: "https://example.com/d.png"}
	c.Header.Links = []quire.CustomizationHeaderItem{
		{Title: "Home", To: &quire.CustomizationHeaderTarget{ContentRef: quire.ContentRef{Kind: "url", URL: "https://example.com"}}},
		{Title: "Guides", Links: []quire.CustomizationContentLink{{Title: "Setup", To: quire.ContentRef{Kind: "page", Page: "p1"}}}},
		{Title: "Beta", Condition: "visitor.claims.beta", To: &quire.CustomizationHeaderTarget{ContentRef: quire.ContentRef{Kind: "url", URL: "/beta"}}},
	}
	c.Footer.Copyright = "© Example"
	c.Announcement = &quire.CustomizationAnnouncement{Enabled: true, Message: "New!", Style: "warning",
		Link: &quire.CustomizationContentLink{Title: "See", To: quire.ContentRef{Kind: "url", URL: "/news"}}}
	c.Themes = quire.CustomizationThemes{Default: "dark", Toggeable: true}
	s := SiteFromCustomization(c, SiteOptions{
		Link: func(ref quire.ContentRef) string {
			if ref.Kind == "page" {
				return "/handbook/" + ref.Page
			}
			return ref.URL
		},
		Show: func(cond string) bool { return false },
	})
	if s.Title != "Handbook" || s.PrimaryColor != "#112233" || s.PrimaryColorDark != "#445566" || s.LogoDarkURL != "https://example.com/d.png" {
		t.Errorf("site = %+v", s)
	}
	if len(s.HeaderLinks) != 2 || s.HeaderLinks[0].URL != "https://example.com" || s.HeaderLinks[1].Children[0].URL != "/handbook/p1" {
		t.Errorf("header links = %+v", s.HeaderLinks)
	}
	if s.Announcement == nil || s.Announcement.Link.URL != "/news" || s.DefaultTheme != "dark" || !s.ThemeToggle || s.FooterCopyright != "© Example" {
		t.Errorf("announcement, theme or footer = %+v", s)
	}
	c.Announcement.Enabled = false
	if SiteFromCustomization(c, SiteOptions{}).Announcement != nil {
		t.Error("a disabled announcement is shown")
	}
}
