package quire

import (
	"bytes"
	"encoding/json"
)

// SiteCustomizationSettings is how a published site looks and behaves (the
// published SiteCustomizationSettings). updateSiteCustomizationById takes
// the whole of it and replaces what the site had; a site space's
// customization is the same shape. The struct tags give the API layer both
// the validation and the OpenAPI description of every member; the two
// members whose published schema is a choice of shapes (styling.font and
// styling.monospaceFont) are CustomizationFont and
// CustomizationMonospaceFont, described to the API layer as a oneOf of
// their fields.
type SiteCustomizationSettings struct {
	Title                 string                            `json:"title,omitempty" minLength:"2" maxLength:"128" doc:"Title of the published site; the content's title when omitted"`
	Styling               CustomizationStyling              `json:"styling"`
	Internationalization  CustomizationInternationalization `json:"internationalization" deprecated:"true"`
	Favicon               CustomizationFavicon              `json:"favicon"`
	Header                CustomizationHeader               `json:"header"`
	Footer                CustomizationFooter               `json:"footer"`
	Announcement          *CustomizationAnnouncement        `json:"announcement,omitempty"`
	Themes                CustomizationThemes               `json:"themes" doc:"Dark and light theme modes"`
	PDF                   CustomizationToggle               `json:"pdf" doc:"Whether PDF export is enabled for the published site"`
	Feedback              CustomizationToggle               `json:"feedback" doc:"Whether page feedback is gathered"`
	AI                    CustomizationAI                   `json:"ai"`
	AdvancedCustomization CustomizationToggle               `json:"advancedCustomization" doc:"Whether advanced customization is enabled"`
	Git                   CustomizationGit                  `json:"git"`
	PageActions           CustomizationPageActions          `json:"pageActions"`
	ExternalLinks         CustomizationExternalLinks        `json:"externalLinks"`
	Pagination            CustomizationToggle               `json:"pagination" doc:"Whether the pagination navigation is shown on pages"`
	Trademark             CustomizationToggle               `json:"trademark" doc:"Whether the platform trademark is shown"`
	PrivacyPolicy         CustomizationURL                  `json:"privacyPolicy"`
	SocialPreview         CustomizationURL                  `json:"socialPreview"`
	Insights              CustomizationInsights             `json:"insights"`
}

// CustomizationStyling is the look of a site: theme, colors, shapes, fonts.
type CustomizationStyling struct {
	Theme         string                     `json:"theme" enum:"clean,muted,bold,gradient"`
	PrimaryColor  CustomizationThemedColor   `json:"primaryColor"`
	Tint          *CustomizationTint         `json:"tint,omitempty"`
	InfoColor     CustomizationThemedColor   `json:"infoColor"`
	SuccessColor  CustomizationThemedColor   `json:"successColor"`
	WarningColor  CustomizationThemedColor   `json:"warningColor"`
	DangerColor   CustomizationThemedColor   `json:"dangerColor"`
	Corners       string                     `json:"corners" enum:"straight,rounded,circular"`
	Depth         string                     `json:"depth" enum:"subtle,flat" doc:"Visual depth (shadows, gradients, elevation) of elements"`
	Links         string                     `json:"links" enum:"default,accent" doc:"Style of regular links in the content, header and footer"`
	Font          CustomizationFont          `json:"font"`
	MonospaceFont CustomizationMonospaceFont `json:"monospaceFont"`
	Background    string                     `json:"background" enum:"plain,match" deprecated:"true" doc:"Deprecated: use tint"`
	Icons         string                     `json:"icons" enum:"regular,solid,duotone,light,thin"`
	Sidebar       CustomizationSidebar       `json:"sidebar"`
	Search        string                     `json:"search" enum:"prominent,subtle" doc:"Style of the search button"`
}

// CustomizationSidebar is the style of a site's sidebar.
type CustomizationSidebar struct {
	Background string `json:"background" enum:"default,filled"`
	List       string `json:"list" enum:"default,pill,line"`
}

// CustomizationThemedColor is a color for each of the light and dark modes.
type CustomizationThemedColor struct {
	Light string `json:"light" pattern:"^#(?:[0-9a-fA-F]{3}){1,2}$" patternDescription:"a hex color such as #346DDB"`
	Dark  string `json:"dark" pattern:"^#(?:[0-9a-fA-F]{3}){1,2}$" patternDescription:"a hex color such as #346DDB"`
}

// CustomizationTint tints the site's background with a color.
type CustomizationTint struct {
	Color CustomizationThemedColor `json:"color"`
}

// CustomizationThemedURL is an image for each of the light and dark modes.
type CustomizationThemedURL struct {
	Light string `json:"light" format:"uri" maxLength:"2048"`
	Dark  string `json:"dark" format:"uri" maxLength:"2048"`
}

// CustomizationFont is the font of a site's text: one the platform
// provides, by Name, or a font of the site's own (Custom). Exactly one is
// set; it is written in JSON as the name alone or as the font definition.
type CustomizationFont struct {
	Name   string `enum:"ABCFavorit,Inter,Roboto,RobotoSlab,OpenSans,SourceSansPro,Lato,Ubuntu,Raleway,Merriweather,Overpass,NotoSans,IBMPlexSerif,Poppins,FiraSans"`
	Custom *CustomizationFontDefinitionInput
}

// MarshalJSON writes the font as its name, or as its definition.
func (f CustomizationFont) MarshalJSON() ([]byte, error) { return marshalFont(f.Name, f.Custom) }

// UnmarshalJSON reads a font name (a JSON string) or a font definition.
func (f *CustomizationFont) UnmarshalJSON(b []byte) error {
	*f = CustomizationFont{}
	return unmarshalFont(b, &f.Name, &f.Custom)
}

// CustomizationMonospaceFont is the font of a site's code, like
// CustomizationFont with the platform's monospace fonts.
type CustomizationMonospaceFont struct {
	Name   string `enum:"FiraCode,IBMPlexMono,JetBrainsMono,SourceCodePro,RobotoMono,SpaceMono,DMMono,Inconsolata"`
	Custom *CustomizationFontDefinitionInput
}

// MarshalJSON writes the font as its name, or as its definition.
func (f CustomizationMonospaceFont) MarshalJSON() ([]byte, error) {
	return marshalFont(f.Name, f.Custom)
}

// UnmarshalJSON reads a font name (a JSON string) or a font definition.
func (f *CustomizationMonospaceFont) UnmarshalJSON(b []byte) error {
	*f = CustomizationMonospaceFont{}
	return unmarshalFont(b, &f.Name, &f.Custom)
}

// marshalFont writes a font choice.
func marshalFont(name string, custom *CustomizationFontDefinitionInput) ([]byte, error) {
	if custom != nil {
		return json.Marshal(custom)
	}
	return json.Marshal(name)
}

// unmarshalFont reads a font choice: a string is a name, anything else a
// definition.
func unmarshalFont(b []byte, name *string, custom **CustomizationFontDefinitionInput) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		return json.Unmarshal(t, name)
	}
	*custom = new(CustomizationFontDefinitionInput)
	return json.Unmarshal(b, *custom)
}

// CustomizationFontDefinitionInput is a font family of the site's own with
// its @font-face declarations.
type CustomizationFontDefinitionInput struct {
	ID         string                  `json:"id" doc:"Globally unique identifier of the font definition"`
	Custom     bool                    `json:"custom" doc:"Whether the font is a custom font rather than a provided one"`
	FontFamily string                  `json:"fontFamily" minLength:"1" maxLength:"50" doc:"CSS font-family name"`
	FontFaces  []CustomizationFontFace `json:"fontFaces" minItems:"1" nullable:"false"`
}

// CustomizationFontFace is one weight of a font with its source files.
type CustomizationFontFace struct {
	Weight  int                       `json:"weight" minimum:"1" maximum:"1000" doc:"Font weight (400 regular, 700 bold)"`
	Sources []CustomizationFontSource `json:"sources" minItems:"1" nullable:"false"`
}

// CustomizationFontSource is one file of a font face.
type CustomizationFontSource struct {
	URL    string `json:"url" format:"uri" maxLength:"2048"`
	Format string `json:"format,omitempty" enum:"woff2,woff"`
}

// CustomizationInternationalization is the language of the site's
// interface (deprecated in the published API, still required there).
type CustomizationInternationalization struct {
	Locale string `json:"locale" enum:"en,fr,es,zh,ja,de,nl,no,pt-br,ru" deprecated:"true"`
}

// CustomizationFavicon is the site's favicon: an image per mode, an emoji,
// or neither (the platform's default). The published schema allows one of
// the two at a time.
type CustomizationFavicon struct {
	Icon  *CustomizationThemedURL `json:"icon,omitempty"`
	Emoji string                  `json:"emoji,omitempty" maxLength:"50" format:"emoji"`
}

// CustomizationHeader is the site's header: logo and links.
type CustomizationHeader struct {
	Preset          string                    `json:"preset" enum:"default,bold,contrast,custom,none" deprecated:"true" doc:"Legacy header preset; the styling theme supersedes it"`
	Logo            *CustomizationThemedURL   `json:"logo,omitempty"`
	BackgroundColor *CustomizationThemedColor `json:"backgroundColor,omitempty" deprecated:"true"`
	LinkColor       *CustomizationThemedColor `json:"linkColor,omitempty" deprecated:"true"`
	Links           []CustomizationHeaderItem `json:"links" nullable:"false"`
}

// CustomizationHeaderItem is one item of the header: a link, or a menu of
// links when To is nil. Condition, when set, is an adaptive content
// condition deciding whether a visitor sees the item.
type CustomizationHeaderItem struct {
	Title     string                     `json:"title"`
	Style     string                     `json:"style,omitempty" enum:"link,button-primary,button-secondary"`
	To        *CustomizationHeaderTarget `json:"to"`
	Links     []CustomizationContentLink `json:"links" nullable:"false"`
	Condition string                     `json:"condition,omitempty" maxLength:"1024" doc:"Condition deciding whether the item is shown to the site's visitor"`
}

// CustomizationHeaderTarget is where a header item leads; the item's "to"
// is null (a nil *CustomizationHeaderTarget) for a menu.
type CustomizationHeaderTarget struct {
	_ struct{} `nullable:"true"`
	ContentRef
}

// CustomizationContentLink is a titled link to content or a URL.
type CustomizationContentLink struct {
	Title string     `json:"title" maxLength:"64"`
	To    ContentRef `json:"to"`
}

// CustomizationFooter is the site's footer.
type CustomizationFooter struct {
	Logo      *CustomizationThemedURL    `json:"logo,omitempty"`
	Groups    []CustomizationFooterGroup `json:"groups" nullable:"false"`
	Copyright string                     `json:"copyright,omitempty" maxLength:"300"`
}

// CustomizationFooterGroup is a titled column of footer links.
type CustomizationFooterGroup struct {
	Title string                     `json:"title"`
	Links []CustomizationContentLink `json:"links" nullable:"false"`
}

// CustomizationAnnouncement is a banner shown at the top of the site.
type CustomizationAnnouncement struct {
	Enabled bool                      `json:"enabled"`
	Message string                    `json:"message" minLength:"2" maxLength:"128"`
	Link    *CustomizationContentLink `json:"link,omitempty"`
	Style   string                    `json:"style" enum:"info,warning,danger,success"`
}

// CustomizationThemes is the default color mode and whether a reader may
// switch it.
type CustomizationThemes struct {
	Default   string `json:"default" enum:"light,dark"`
	Toggeable bool   `json:"toggeable" doc:"Whether the reader may switch between dark and light mode"`
}

// CustomizationToggle is a feature of the site that is on or off.
type CustomizationToggle struct {
	Enabled bool `json:"enabled"`
}

// CustomizationAI is which AI feature the site offers.
type CustomizationAI struct {
	Mode string `json:"mode" enum:"none,search,assistant"`
}

// CustomizationGit is the site's use of Git Sync.
type CustomizationGit struct {
	ShowEditLink bool `json:"showEditLink" doc:"Whether pages link to editing their source on the Git provider"`
}

// CustomizationPageActions are the actions of a page's menu.
type CustomizationPageActions struct {
	ExternalAI bool `json:"externalAI" doc:"Whether the page can be opened in external AI assistants"`
	Markdown   bool `json:"markdown" doc:"Whether the page's Markdown can be copied and opened"`
	MCP        bool `json:"mcp" doc:"Whether the menu offers connecting to the docs' MCP server"`
}

// CustomizationExternalLinks is how links leaving the site open.
type CustomizationExternalLinks struct {
	Target string `json:"target" enum:"self,blank" doc:"self: the current tab; blank: a new tab"`
}

// CustomizationURL is an optional address (privacy policy, social preview
// image).
type CustomizationURL struct {
	URL string `json:"url,omitempty" format:"uri" maxLength:"2048"`
}

// CustomizationInsights is how visits are measured.
type CustomizationInsights struct {
	TrackingCookie bool `json:"trackingCookie" default:"true" doc:"Whether visitors are identified with a cookie"`
}

// DefaultSiteCustomization returns the customization of a new site: the
// clean theme in the platform's blue with rounded corners, Inter and IBM
// Plex Mono, light mode that readers may switch, no header links, footer
// groups, logo, favicon or announcement, PDF export, pagination and the
// trademark on, feedback, AI, advanced customization and Git edit links
// off, links opening in the same tab, and the tracking cookie on (the
// published default). The title is left out, so the content's title is
// used. Every member the published schema requires is set.
func DefaultSiteCustomization() SiteCustomizationSettings {
	color := func(light, dark string) CustomizationThemedColor {
		return CustomizationThemedColor{Light: light, Dark: dark}
	}
	return SiteCustomizationSettings{
		Styling: CustomizationStyling{
			Theme:         "clean",
			PrimaryColor:  color("#346DDB", "#346DDB"),
			InfoColor:     color("#787878", "#787878"),
			SuccessColor:  color("#02A55A", "#02A55A"),
			WarningColor:  color("#F59E0B", "#F59E0B"),
			DangerColor:   color("#DC2626", "#EF4444"),
			Corners:       "rounded",
			Depth:         "subtle",
			Links:         "default",
			Font:          CustomizationFont{Name: "Inter"},
			MonospaceFont: CustomizationMonospaceFont{Name: "IBMPlexMono"},
			Background:    "plain",
			Icons:         "regular",
			Sidebar:       CustomizationSidebar{Background: "default", List: "default"},
			Search:        "prominent",
		},
		Internationalization: CustomizationInternationalization{Locale: "en"},
		Header:               CustomizationHeader{Preset: "default", Links: []CustomizationHeaderItem{}},
		Footer:               CustomizationFooter{Groups: []CustomizationFooterGroup{}},
		Themes:               CustomizationThemes{Default: "light", Toggeable: true},
		PDF:                  CustomizationToggle{Enabled: true},
		AI:                   CustomizationAI{Mode: "none"},
		PageActions:          CustomizationPageActions{Markdown: true},
		ExternalLinks:        CustomizationExternalLinks{Target: "self"},
		Pagination:           CustomizationToggle{Enabled: true},
		Trademark:            CustomizationToggle{Enabled: true},
		Insights:             CustomizationInsights{TrackingCookie: true},
	}
}

// Normalize makes settings read from a request answer in the published
// shape: lists that came as null or were left nil become empty lists, and
// a favicon given both an icon and an emoji keeps the icon. A PUT replaces
// the whole settings, so nothing is merged with what the site had.
func (c *SiteCustomizationSettings) Normalize() {
	if c.Header.Links == nil {
		c.Header.Links = []CustomizationHeaderItem{}
	}
	for i := range c.Header.Links {
		if c.Header.Links[i].Links == nil {
			c.Header.Links[i].Links = []CustomizationContentLink{}
		}
	}
	if c.Footer.Groups == nil {
		c.Footer.Groups = []CustomizationFooterGroup{}
	}
	for i := range c.Footer.Groups {
		if c.Footer.Groups[i].Links == nil {
			c.Footer.Groups[i].Links = []CustomizationContentLink{}
		}
	}
	if c.Favicon.Icon != nil {
		c.Favicon.Emoji = ""
	}
}
