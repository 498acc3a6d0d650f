package app

import (
	"net/url"
	"reflect"
	"strings"

	"quire/internal/quire"
)

// Empty rows the customization form offers after the rows a list
// already has, so that links are added without script.
const (
	newHeaderLinks  = 2
	newMenuLinks    = 2
	newFooterGroups = 1
	newFooterLinks  = 2
	newFontFaces    = 1
	newFontSources  = 1
)

// customFontChoice is the font select's value for a font of the site's
// own, described by the fields below it.
const customFontChoice = "custom"

// settings is the customization being drawn or read.
type settings = quire.SiteCustomizationSettings

// customizeField is one control of the customization form.
type customizeField struct {
	// Name is the control's name: the JSON path of the member it sets,
	// as the API and the refusals name it ("styling.primaryColor.light").
	Name string
	// Label names the control, Help says more under it; Where names it
	// in a refusal, with the row it sits in.
	Label, Help, Where string
	// Kind is text, url, number, color, select or check.
	Kind  string
	Value string
	On    bool
	// Options are a select's choices.
	Options []customizeOption
	// Max is the most characters a text takes, 0 for no limit.
	Max int
	// Error is the refusal of the control's value, "" when none.
	Error string
}

// ID is the control's element id, made from its name.
func (f customizeField) ID() string {
	return "c-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, f.Name)
}

// Pick is a color control's value as the color picker takes it.
func (f customizeField) Pick() string { return pickerColor(f.Value) }

// customizeOption is a choice of a select.
type customizeOption struct {
	Value, Label string
}

// customizeGroup is a fieldset of the form: its controls, then its rows
// or parts.
type customizeGroup struct {
	// Name is the JSON path of the group's member, for a refusal naming
	// the whole of it (a list too short, say); "" for none.
	Name         string
	Legend, Help string
	Fields       []customizeField
	Groups       []customizeGroup
	// Fold draws the group folded, unless Open: it holds the refusal.
	// Summary, when set, is what the folded group says instead of its
	// legend (a new row: "Add a header link").
	Fold, Open bool
	Summary    string
	// Error is the refusal of the group as a whole.
	Error string
}

// customizeSpec binds a control of the form's fixed part to one member of
// the settings, for drawing and reading alike.
type customizeSpec struct {
	name, label, kind, help string
	options                 []customizeOption
	max                     int
	// text points at a string member; flag at a boolean one.
	text func(c *settings) *string
	flag func(c *settings) *bool
}

// customizeSection is a fieldset of fixed controls; rows names the
// lists drawn after them ("header", "footer", "fonts", "announcement").
type customizeSection struct {
	legend, help string
	fold         bool
	specs        []customizeSpec
	rows         string
}

// customizeSections lay out the form: every member the API takes, in
// fieldsets. siteTitle is what an empty title falls back to.
func customizeSections(siteTitle string) []customizeSection {
	str := func(name, label, kind string, max int, help string, p func(c *settings) *string) customizeSpec {
		return customizeSpec{name: name, label: label, kind: kind, max: max, help: help, text: p}
	}
	pick := func(name, label string, options []customizeOption, help string, p func(c *settings) *string) customizeSpec {
		return customizeSpec{name: name, label: label, kind: "select", options: options, help: help, text: p}
	}
	check := func(name, label, help string, p func(c *settings) *bool) customizeSpec {
		return customizeSpec{name: name, label: label, kind: "check", help: help, flag: p}
	}
	themed := func(name, label, kind, help string, p func(c *settings) *quire.CustomizationThemedColor) []customizeSpec {
		return []customizeSpec{
			str(name+".light", label+" (light)", kind, 0, help, func(c *settings) *string { return &p(c).Light }),
			str(name+".dark", label+" (dark)", kind, 0, "", func(c *settings) *string { return &p(c).Dark }),
		}
	}
	images := func(name, label, help string, p func(c *settings) *quire.CustomizationThemedURL) []customizeSpec {
		return []customizeSpec{
			str(name+".light", label+" (light)", "url", maxCustomURL, help, func(c *settings) *string { return &p(c).Light }),
			str(name+".dark", label+" (dark)", "url", maxCustomURL, "", func(c *settings) *string { return &p(c).Dark }),
		}
	}
	styling := reflect.TypeFor[quire.CustomizationStyling]()
	sidebar := reflect.TypeFor[quire.CustomizationSidebar]()
	var colors []customizeSpec
	colors = append(colors, themed("styling.primaryColor", "Primary color", "color", "Links, buttons and accents.", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.PrimaryColor })...)
	colors = append(colors, themed("styling.tint.color", "Tint", "color", "Tints the background. Empty: no tint.", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.Tint.Color })...)
	for _, sc := range []struct {
		name, label string
		p           func(c *settings) *quire.CustomizationThemedColor
	}{
		{"infoColor", "Info color", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.InfoColor }},
		{"successColor", "Success color", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.SuccessColor }},
		{"warningColor", "Warning color", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.WarningColor }},
		{"dangerColor", "Danger color", func(c *settings) *quire.CustomizationThemedColor { return &c.Styling.DangerColor }},
	} {
		colors = append(colors, themed("styling."+sc.name, sc.label, "color", "", sc.p)...)
	}
	var older []customizeSpec
	older = append(older,
		pick("internationalization.locale", "Interface language", enumOptions(reflect.TypeFor[quire.CustomizationInternationalization](), "Locale"), "", func(c *settings) *string { return &c.Internationalization.Locale }),
		pick("styling.background", "Background", enumOptions(styling, "Background"), "The tint above replaces it.", func(c *settings) *string { return &c.Styling.Background }),
		pick("header.preset", "Header preset", enumOptions(reflect.TypeFor[quire.CustomizationHeader](), "Preset"), "The theme replaces it.", func(c *settings) *string { return &c.Header.Preset }),
	)
	older = append(older, themed("header.backgroundColor", "Header background color", "color", "Empty: none.", func(c *settings) *quire.CustomizationThemedColor { return c.Header.BackgroundColor })...)
	older = append(older, themed("header.linkColor", "Header link color", "color", "Empty: none.", func(c *settings) *quire.CustomizationThemedColor { return c.Header.LinkColor })...)
	return []customizeSection{
		{legend: "Site", specs: []customizeSpec{
			str("title", "Title", "text", 128, "Shown in the header and the browser’s tab. Empty: the site’s title, “"+siteTitle+"”.", func(c *settings) *string { return &c.Title }),
		}},
		{legend: "Look", specs: []customizeSpec{
			pick("styling.theme", "Theme", enumOptions(styling, "Theme"), "", func(c *settings) *string { return &c.Styling.Theme }),
			pick("styling.corners", "Corners", enumOptions(styling, "Corners"), "", func(c *settings) *string { return &c.Styling.Corners }),
			pick("styling.depth", "Depth", enumOptions(styling, "Depth"), "Shadows and elevation of elements.", func(c *settings) *string { return &c.Styling.Depth }),
			pick("styling.links", "Link style", enumOptions(styling, "Links"), "", func(c *settings) *string { return &c.Styling.Links }),
			pick("styling.icons", "Icons", enumOptions(styling, "Icons"), "", func(c *settings) *string { return &c.Styling.Icons }),
			pick("styling.search", "Search button", enumOptions(styling, "Search"), "", func(c *settings) *string { return &c.Styling.Search }),
			pick("styling.sidebar.background", "Sidebar background", enumOptions(sidebar, "Background"), "", func(c *settings) *string { return &c.Styling.Sidebar.Background }),
			pick("styling.sidebar.list", "Sidebar list", enumOptions(sidebar, "List"), "", func(c *settings) *string { return &c.Styling.Sidebar.List }),
		}},
		{legend: "Colors", help: "Hex colors such as #346DDB, for the light and the dark theme.", specs: colors},
		{legend: "Fonts", rows: "fonts"},
		{legend: "Favicon", specs: append(images("favicon.icon", "Favicon", "Images for the browser’s tab. Empty: the default icon.", func(c *settings) *quire.CustomizationThemedURL { return c.Favicon.Icon }),
			str("favicon.emoji", "Favicon emoji", "text", 50, "Used when there is no favicon image.", func(c *settings) *string { return &c.Favicon.Emoji }))},
		{legend: "Header", help: "Clear a row to remove it.", rows: "header",
			specs: images("header.logo", "Header logo", "Shown instead of the title. Empty: the title.", func(c *settings) *quire.CustomizationThemedURL { return c.Header.Logo })},
		{legend: "Footer", help: "Clear a row to remove it.", rows: "footer",
			specs: append(images("footer.logo", "Footer logo", "", func(c *settings) *quire.CustomizationThemedURL { return c.Footer.Logo }),
				str("footer.copyright", "Copyright", "text", 300, "Empty: the site’s title.", func(c *settings) *string { return &c.Footer.Copyright }))},
		{legend: "Announcement", rows: "announcement", specs: []customizeSpec{
			check("announcement.enabled", "Show the announcement", "A banner above every page.", func(c *settings) *bool { return &c.Announcement.Enabled }),
			str("announcement.message", "Message", "text", 128, "", func(c *settings) *string { return &c.Announcement.Message }),
			pick("announcement.style", "Style", enumOptions(reflect.TypeFor[quire.CustomizationAnnouncement](), "Style"), "", func(c *settings) *string { return &c.Announcement.Style }),
		}},
		{legend: "Themes", specs: []customizeSpec{
			pick("themes.default", "Default theme", enumOptions(reflect.TypeFor[quire.CustomizationThemes](), "Default"), "", func(c *settings) *string { return &c.Themes.Default }),
			check("themes.toggeable", "Readers may switch themes", "", func(c *settings) *bool { return &c.Themes.Toggeable }),
		}},
		{legend: "Features", specs: []customizeSpec{
			check("pdf.enabled", "PDF export", "", func(c *settings) *bool { return &c.PDF.Enabled }),
			check("feedback.enabled", "Page feedback", "", func(c *settings) *bool { return &c.Feedback.Enabled }),
			pick("ai.mode", "AI", enumOptions(reflect.TypeFor[quire.CustomizationAI](), "Mode"), "", func(c *settings) *string { return &c.AI.Mode }),
			check("advancedCustomization.enabled", "Advanced customization", "", func(c *settings) *bool { return &c.AdvancedCustomization.Enabled }),
			check("git.showEditLink", "“Edit on Git” links on pages", "", func(c *settings) *bool { return &c.Git.ShowEditLink }),
			check("pagination.enabled", "Previous and next links", "", func(c *settings) *bool { return &c.Pagination.Enabled }),
			check("trademark.enabled", "The platform’s trademark", "", func(c *settings) *bool { return &c.Trademark.Enabled }),
			pick("externalLinks.target", "External links open in", enumOptions(reflect.TypeFor[quire.CustomizationExternalLinks](), "Target"), "", func(c *settings) *string { return &c.ExternalLinks.Target }),
			check("insights.trackingCookie", "Identify visitors with a cookie", "", func(c *settings) *bool { return &c.Insights.TrackingCookie }),
		}},
		{legend: "Page actions", help: "What the menu of a page offers.", specs: []customizeSpec{
			check("pageActions.externalAI", "Open in AI assistants", "", func(c *settings) *bool { return &c.PageActions.ExternalAI }),
			check("pageActions.markdown", "Copy and open the Markdown", "", func(c *settings) *bool { return &c.PageActions.Markdown }),
			check("pageActions.mcp", "Connect to the MCP server", "", func(c *settings) *bool { return &c.PageActions.MCP }),
		}},
		{legend: "Addresses", specs: []customizeSpec{
			str("privacyPolicy.url", "Privacy policy URL", "url", maxCustomURL, "", func(c *settings) *string { return &c.PrivacyPolicy.URL }),
			str("socialPreview.url", "Social preview image URL", "url", maxCustomURL, "Shown when a page is shared.", func(c *settings) *string { return &c.SocialPreview.URL }),
		}},
		{legend: "Older settings", help: "Kept for older clients of the API; the settings above replace them.", fold: true, specs: older},
	}
}

// maxCustomURL is the longest address the settings take.
const maxCustomURL = 2048

// enumOptions are the choices of a select: the values the API takes for
// a member, read from its declaration.
func enumOptions(t reflect.Type, field string) []customizeOption {
	f, ok := t.FieldByName(field)
	if !ok {
		panic("app: no member " + field + " in " + t.Name())
	}
	var out []customizeOption
	for _, v := range strings.Split(f.Tag.Get("enum"), ",") {
		out = append(out, customizeOption{Value: v, Label: optionLabel(v)})
	}
	return out
}

// optionLabel names an enumerated value for a select: the value itself,
// capitalized, unless its spelling would not read well.
func optionLabel(v string) string {
	switch v {
	case "":
		return ""
	case "button-primary":
		return "Primary button"
	case "button-secondary":
		return "Secondary button"
	case "self":
		return "The same tab"
	case "blank":
		return "A new tab"
	case "woff2", "woff":
		return strings.ToUpper(v)
	case "pt-br":
		return "Portuguese (Brazil)"
	}
	if name, ok := localeNames()[v]; ok {
		return name
	}
	return strings.ToUpper(v[:1]) + strings.ReplaceAll(v[1:], "-", " ")
}

// localeNames name the interface languages of a site.
func localeNames() map[string]string {
	return map[string]string{"en": "English", "fr": "French", "es": "Spanish", "zh": "Chinese", "ja": "Japanese",
		"de": "German", "nl": "Dutch", "no": "Norwegian", "ru": "Russian"}
}

// targetKinds are the kinds of content a link leads to, as content
// references name them.
func targetKinds() []customizeOption {
	return []customizeOption{
		{quire.RefURL, "URL"},
		{quire.RefPage, "Page"},
		{quire.RefAnchor, "Anchor"},
		{quire.RefSpace, "Space"},
		{quire.RefFile, "File"},
		{quire.RefCollection, "Collection"},
		{quire.RefUser, "User"},
		{quire.RefReusableContent, "Reusable content"},
		{quire.RefOpenAPI, "OpenAPI specification"},
	}
}

// expandSettings returns a copy of c with every optional part present,
// so that the form draws and reads them as any other: empty, where c
// has none.
func expandSettings(c settings) settings {
	if c.Styling.Tint == nil {
		c.Styling.Tint = &quire.CustomizationTint{}
	}
	if c.Favicon.Icon == nil {
		c.Favicon.Icon = &quire.CustomizationThemedURL{}
	}
	if c.Header.Logo == nil {
		c.Header.Logo = &quire.CustomizationThemedURL{}
	}
	if c.Header.BackgroundColor == nil {
		c.Header.BackgroundColor = &quire.CustomizationThemedColor{}
	}
	if c.Header.LinkColor == nil {
		c.Header.LinkColor = &quire.CustomizationThemedColor{}
	}
	if c.Footer.Logo == nil {
		c.Footer.Logo = &quire.CustomizationThemedURL{}
	}
	if c.Announcement == nil {
		c.Announcement = &quire.CustomizationAnnouncement{Style: "info"}
	} else {
		a := *c.Announcement
		c.Announcement = &a
	}
	if c.Announcement.Link == nil {
		c.Announcement.Link = &quire.CustomizationContentLink{To: quire.ContentRef{Kind: quire.RefURL}}
	}
	return c
}

// collapseSettings leaves out the optional parts the form left empty, as
// a client of the API would.
func collapseSettings(c *settings) {
	if t := c.Styling.Tint; t != nil && t.Color == (quire.CustomizationThemedColor{}) {
		c.Styling.Tint = nil
	}
	if i := c.Favicon.Icon; i != nil && *i == (quire.CustomizationThemedURL{}) {
		c.Favicon.Icon = nil
	}
	if l := c.Header.Logo; l != nil && *l == (quire.CustomizationThemedURL{}) {
		c.Header.Logo = nil
	}
	if l := c.Footer.Logo; l != nil && *l == (quire.CustomizationThemedURL{}) {
		c.Footer.Logo = nil
	}
	if b := c.Header.BackgroundColor; b != nil && *b == (quire.CustomizationThemedColor{}) {
		c.Header.BackgroundColor = nil
	}
	if l := c.Header.LinkColor; l != nil && *l == (quire.CustomizationThemedColor{}) {
		c.Header.LinkColor = nil
	}
	if a := c.Announcement; a != nil {
		if l := a.Link; l != nil && l.Title == "" && targetText(l.To) == "" {
			a.Link = nil
		}
		if !a.Enabled && a.Message == "" && a.Link == nil {
			c.Announcement = nil
		}
	}
}

// targetText is a content reference as the form's target field shows
// it: a URL, or the id of what its kind names; a page's anchor after #.
func targetText(ref quire.ContentRef) string {
	switch ref.Kind {
	case quire.RefURL:
		return ref.URL
	case quire.RefPage:
		if ref.Anchor != "" {
			return ref.Page + "#" + ref.Anchor
		}
		return ref.Page
	case quire.RefAnchor:
		return ref.Page + "#" + ref.Anchor
	case quire.RefFile:
		return ref.File
	case quire.RefSpace:
		return ref.Space
	case quire.RefUser:
		return ref.User
	case quire.RefCollection:
		return ref.Collection
	case quire.RefReusableContent:
		return ref.ReusableContent
	case quire.RefOpenAPI:
		return ref.Spec
	}
	return ""
}

// targetRef reads a target field back into a content reference of kind.
func targetRef(kind, text string) quire.ContentRef {
	ref := quire.ContentRef{Kind: kind}
	switch kind {
	case quire.RefURL:
		ref.URL = text
	case quire.RefPage, quire.RefAnchor:
		ref.Page, ref.Anchor, _ = strings.Cut(text, "#")
	default:
		ref.SetField(quire.ContentRefField(kind), text)
	}
	return ref
}

// pickerColor is a color as the color picker takes it: #rrggbb in lower
// case, black for a text that is no hex color.
func pickerColor(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if !isHexColor(s) {
		return "#000000"
	}
	if len(s) == 4 {
		return "#" + s[1:2] + s[1:2] + s[2:3] + s[2:3] + s[3:4] + s[3:4]
	}
	return s
}

// formColor reads a color control: the text as typed, unless only the
// picker changed (the text still says what the form was drawn with,
// kept in "<name>.was"), then the color picked.
func formColor(f url.Values, name string) string {
	text := strings.TrimSpace(f.Get(name))
	pick := f.Get(name + ".pick")
	was, drawn := f[name+".was"]
	if !drawn || text != strings.TrimSpace(was[0]) || pick == "" || strings.EqualFold(pick, pickerColor(was[0])) {
		return text
	}
	return strings.ToLower(pick)
}

// isHexColor reports whether s is a color as the settings take it:
// # and three or six hex digits.
func isHexColor(s string) bool {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, r := range s[1:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}
