package reader

import "quire/internal/quire"

// SiteOptions are what SiteFromCustomization needs besides the settings.
type SiteOptions struct {
	// Title is the site's name when the settings give none (the title of
	// the site or its content).
	Title string
	// HomeURL is the site's root.
	HomeURL string
	// Link resolves the content references of header, footer and
	// announcement links to addresses; nil keeps URL references only.
	Link func(ref quire.ContentRef) string
	// Show decides a header item's adaptive condition for the visitor;
	// nil shows every item.
	Show func(condition string) bool
}

// SiteFromCustomization builds the shared part of a site's pages from its
// customization settings: title, logo, colors, header and footer links,
// announcement and themes.
func SiteFromCustomization(c quire.SiteCustomizationSettings, o SiteOptions) Site {
	link := func(ref quire.ContentRef) string {
		if o.Link != nil {
			return o.Link(ref)
		}
		if ref.Kind == "url" {
			return ref.URL
		}
		return ""
	}
	s := Site{
		Title:            firstNonEmpty(c.Title, o.Title),
		HomeURL:          o.HomeURL,
		PrimaryColor:     c.Styling.PrimaryColor.Light,
		PrimaryColorDark: c.Styling.PrimaryColor.Dark,
		DefaultTheme:     c.Themes.Default,
		ThemeToggle:      c.Themes.Toggeable,
		FooterCopyright:  c.Footer.Copyright,
	}
	if l := c.Header.Logo; l != nil {
		s.LogoURL, s.LogoDarkURL = firstNonEmpty(l.Light, l.Dark), l.Dark
	}
	if l := c.Footer.Logo; l != nil {
		s.FooterLogoURL = firstNonEmpty(l.Light, l.Dark)
	}
	for _, it := range c.Header.Links {
		if it.Condition != "" && o.Show != nil && !o.Show(it.Condition) {
			continue
		}
		m := MenuItem{Link: Link{Title: it.Title}, Style: it.Style}
		if it.To != nil {
			m.URL = link(it.To.ContentRef)
		}
		for _, l := range it.Links {
			m.Children = append(m.Children, Link{Title: l.Title, URL: link(l.To)})
		}
		s.HeaderLinks = append(s.HeaderLinks, m)
	}
	for _, g := range c.Footer.Groups {
		fg := FooterGroup{Title: g.Title}
		for _, l := range g.Links {
			fg.Links = append(fg.Links, Link{Title: l.Title, URL: link(l.To)})
		}
		s.FooterGroups = append(s.FooterGroups, fg)
	}
	if a := c.Announcement; a != nil && a.Enabled && a.Message != "" {
		s.Announcement = &Announcement{Message: a.Message, Style: a.Style}
		if a.Link != nil {
			s.Announcement.Link = &Link{Title: a.Link.Title, URL: link(a.Link.To)}
		}
	}
	return s
}
