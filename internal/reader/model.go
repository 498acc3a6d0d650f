package reader

import "quire/internal/document"

// Link is a titled address in the site's navigation.
type Link struct {
	// Title is the text shown.
	Title string
	// URL is where the link leads; SafeURL is applied when rendered.
	URL string
	// Active marks the link to what the reader is looking at.
	Active bool
}

// MenuItem is an item of the header: a link, or a menu of links when
// Children is not empty.
type MenuItem struct {
	Link
	// Style is "link", "button-primary" or "button-secondary".
	Style string
	// Children are the links of a menu.
	Children []Link
}

// FooterGroup is a titled column of footer links.
type FooterGroup struct {
	Title string
	Links []Link
}

// Announcement is a banner at the top of every page.
type Announcement struct {
	Message string
	// Link is an optional link after the message.
	Link *Link
	// Style is info, warning, danger or success.
	Style string
}

// Site is what every page of a site shares: its name, logo, colors,
// header and footer.
type Site struct {
	// Title is the site's name, shown in the header and the page title.
	Title string
	// HomeURL is where the logo leads.
	HomeURL string
	// LogoURL and LogoDarkURL are the logo for the light and dark themes;
	// without a logo the title is shown.
	LogoURL, LogoDarkURL string
	// PrimaryColor and PrimaryColorDark are hex colors (#346DDB) for
	// links and accents; other values are ignored.
	PrimaryColor, PrimaryColorDark string
	// HeaderLinks are the header's links and menus.
	HeaderLinks []MenuItem
	// FooterGroups are the footer's columns of links.
	FooterGroups []FooterGroup
	// FooterLogoURL is an optional logo in the footer.
	FooterLogoURL string
	// FooterCopyright is the footer's copyright line; the site's title
	// when empty.
	FooterCopyright string
	// Announcement is an optional banner.
	Announcement *Announcement
	// DefaultTheme is "light" or "dark"; empty follows the reader's
	// system preference.
	DefaultTheme string
	// ThemeToggle shows the light/dark switch.
	ThemeToggle bool
}

// Section is a tab of the site's sections; a section group has Children
// and is shown as a menu.
type Section struct {
	Link
	// Children are the sections of a section group.
	Children []Link
}

// TreeItem is an entry of the sidebar's page tree: a page (with URL) or
// a group heading (Group, no URL), with nested pages.
type TreeItem struct {
	Title string
	URL   string
	// Group marks a group of pages, shown as a heading.
	Group bool
	// Hidden pages are left out of the tree.
	Hidden bool
	// Active marks the page being read.
	Active   bool
	Children []TreeItem
}

// Heading is an entry of the page outline.
type Heading struct {
	// ID is the anchor of the heading.
	ID string
	// Title is its plain text.
	Title string
	// Level is 1 to 3: the heading's level below the page title, as
	// rendered (h2 is 1).
	Level int
}

// Search configures the search box.
type Search struct {
	// Action is the form's action (GET, parameter "q"); empty hides the
	// search box.
	Action string
	// JSONURL is an optional endpoint answering GET ?q= with a JSON array
	// of {"title","url"} for search-as-you-type.
	JSONURL string
	// Query is the current query, shown in the box.
	Query string
}

// Layout says what a page shows of its parts; the zero value shows them
// all, at the default width, with the cover over the content.
type Layout struct {
	// HideTitle keeps the title for assistive technology only;
	// HideDescription leaves the description out.
	HideTitle, HideDescription bool
	// HideTree leaves the sidebar's page tree out.
	HideTree bool
	// HideOutline leaves the "On this page" outline out.
	HideOutline bool
	// HidePagination leaves the previous and next links out.
	HidePagination bool
	// HideCover leaves the cover out.
	HideCover bool
	// FullCover draws the cover across the page, above the columns.
	FullCover bool
	// Wide gives the content the page's whole width.
	Wide bool
}

// Page is the view model of one documentation page.
type Page struct {
	// Lang is the page's language (BCP 47); "en" when empty.
	Lang string
	Site Site
	// Sections are the site's section tabs; none hides the bar.
	Sections []Section
	// Variants are the site spaces (versions, languages) to switch
	// between; fewer than two hides the switcher.
	Variants []Link
	// VariantsLabel names the switcher ("Version" when empty).
	VariantsLabel string
	// Tree is the sidebar's page tree.
	Tree []TreeItem
	// Title, Description and CoverURL describe the page.
	Title       string
	Description string
	CoverURL    string
	// Layout is what the page shows of its parts, and its width.
	Layout Layout
	// Document is the page's content.
	Document *document.Document
	// Empty marks the page shown where a site space has no page yet: the
	// site's title and navigation, and a line saying nothing is
	// published there yet.
	Empty bool
	// Previous and Next are the neighbouring pages.
	Previous, Next *Link
	// Search configures the search box.
	Search Search
	// NoIndex asks search engines not to index the page.
	NoIndex bool
	// MarkdownURL is the page as Markdown (<path>.md); optional.
	MarkdownURL string
	// Resolvers turn the document's references into addresses.
	Resolvers Resolvers
	// BlockKeys wraps each top-level block in an element carrying its key
	// (<div class="block" data-block="KEY">), for the app's views that
	// edit, comment on or compare blocks; published pages leave it off.
	BlockKeys bool
}
