package app_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// customizeFixture is an unpublished site of two spaces, each with a
// page, built through the services.
type customizeFixture struct {
	h     *harness
	Sites *service.Sites
	Site  *quire.Site
	// Handbook and API are the site spaces of the spaces of the same
	// names; Handbook is the default.
	Handbook, API string
	// Page is the site's customization page, Preview its preview,
	// SpacePage the API site space's.
	Page, Preview, SpacePage string
	// Admin is a client of the organization's admin.
	Admin *http.Client
}

// newCustomizeFixture builds the fixture in the harness's organization.
func newCustomizeFixture(t *testing.T, h *harness) *customizeFixture {
	t.Helper()
	ctx := context.Background()
	sites := service.NewSites(h.Svc)
	f := &customizeFixture{h: h, Sites: sites}
	var spaces []string
	for _, title := range []string{"Handbook", "API"} {
		sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		h.writeAndMerge(t, sp.Space.ID, "First page", pageChange("intro", title+" intro", "intro", "Hello from "+title+".\n", nil))
		spaces = append(spaces, sp.Space.ID)
	}
	site, err := sites.CreateSite(ctx, h.Admin, h.Org, service.SiteCreate{Title: "Docs portal", Spaces: spaces})
	if err != nil {
		t.Fatal(err)
	}
	f.Site = site
	st, err := sites.SiteStructure(ctx, h.Admin, h.Org, site.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range st.AllSiteSpaces {
		switch v.Space.Space.Title {
		case "Handbook":
			f.Handbook = v.SiteSpace.ID
		case "API":
			f.API = v.SiteSpace.ID
		}
	}
	f.Page = "/app/o/" + h.Org + "/sites/" + site.ID + "/customize"
	f.Preview = f.Page + "/preview"
	f.SpacePage = "/app/o/" + h.Org + "/sites/" + site.ID + "/spaces/" + f.API + "/customize"
	f.Admin = h.client(t, h.signIn(t, h.Admin))
	return f
}

// customizeFormWith is the customization form as a browser sends it for
// a new site's settings, with one control set to value.
func customizeFormWith(name, value string) url.Values {
	form := url.Values{
		"styling.theme": {"clean"}, "styling.corners": {"rounded"}, "styling.depth": {"subtle"}, "styling.links": {"default"},
		"styling.font": {"Inter"}, "styling.monospaceFont": {"IBMPlexMono"}, "styling.background": {"plain"}, "styling.icons": {"regular"},
		"styling.sidebar.background": {"default"}, "styling.sidebar.list": {"default"}, "styling.search": {"prominent"},
		"internationalization.locale": {"en"}, "header.preset": {"default"}, "themes.default": {"light"}, "themes.toggeable": {"on"},
		"ai.mode": {"none"}, "externalLinks.target": {"self"}, "pdf.enabled": {"on"}, "pagination.enabled": {"on"},
		"trademark.enabled": {"on"}, "insights.trackingCookie": {"on"}, "pageActions.markdown": {"on"},
	}
	for _, c := range []string{"primaryColor", "infoColor", "successColor", "warningColor", "dangerColor"} {
		form.Set("styling."+c+".light", "#346DDB")
		form.Set("styling."+c+".dark", "#346DDB")
	}
	form.Set(name, value)
	return form
}

// siteCustomizationFacts describes a site's customization, for the
// route tables' check that refused requests change nothing.
func siteCustomizationFacts(t *testing.T, h *harness, siteID string) string {
	t.Helper()
	c, err := service.NewSites(h.Svc).SiteCustomization(context.Background(), h.Org, siteID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return "site customization " + string(b)
}

// stored returns the site's customization as the service reads it.
func (f *customizeFixture) stored(t *testing.T) *quire.SiteCustomizationSettings {
	t.Helper()
	c, err := f.Sites.SiteCustomization(context.Background(), f.h.Org, f.Site.ID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// storedJSON is the stored customization as JSON, to compare.
func (f *customizeFixture) storedJSON(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(f.stored(t))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// unchanged fails the test when the stored customization is no longer
// before; what names the requests that should have changed nothing.
func (f *customizeFixture) unchanged(t *testing.T, before, what string) {
	t.Helper()
	if after := f.storedJSON(t); after != before {
		t.Fatalf("%s changed the settings:\n%s\n%s", what, before, after)
	}
}

// Patterns of the customization form's controls, as its template
// writes them.
var (
	customizeInput  = regexp.MustCompile(`<input ([^>]*)>`)
	customizeSelect = regexp.MustCompile(`(?s)<select [^>]*name="([^"]*)"[^>]*>(.*?)</select>`)
	customizeOption = regexp.MustCompile(`<option value="([^"]*)"( selected)?>`)
	customizeAttr   = regexp.MustCompile(`([a-z-]+)(?:="([^"]*)")?`)
)

// customizeForm reads the customization form of a page into what a
// browser would send: every named input, checked boxes, and the chosen
// option of every select.
func customizeForm(t *testing.T, page string) url.Values {
	t.Helper()
	start := strings.Index(page, `<form id="customize-form"`)
	end := strings.Index(page[max(start, 0):], "</form>")
	if start < 0 || end < 0 {
		t.Fatalf("no customization form in the page:\n%s", problemText(page))
	}
	form := page[start : start+end]
	out := url.Values{}
	for _, m := range customizeInput.FindAllStringSubmatch(form, -1) {
		attrs := map[string]string{}
		for _, a := range customizeAttr.FindAllStringSubmatch(m[1], -1) {
			attrs[a[1]] = html.UnescapeString(a[2])
		}
		name, seen := attrs["name"]
		if _, checked := attrs["checked"]; !seen || (attrs["type"] == "checkbox" && !checked) {
			continue
		}
		if attrs["type"] == "checkbox" {
			out.Add(name, "on")
			continue
		}
		out.Add(name, attrs["value"])
	}
	for _, m := range customizeSelect.FindAllStringSubmatch(form, -1) {
		opts := customizeOption.FindAllStringSubmatch(m[2], -1)
		if len(opts) == 0 {
			continue
		}
		chosen := opts[0][1]
		for _, o := range opts {
			if o[2] != "" {
				chosen = o[1]
			}
		}
		out.Set(html.UnescapeString(m[1]), html.UnescapeString(chosen))
	}
	return out
}

// getForm opens a customization page as the client and reads its form.
func (f *customizeFixture) getForm(t *testing.T, c *http.Client, path string) url.Values {
	t.Helper()
	status, _, body := f.h.get(t, c, path)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, status, problemText(body))
	}
	return customizeForm(t, body)
}

// TestSiteCustomizeSave saves every kind of control of the form (text,
// colors typed and picked, selects, checkboxes, addresses, rows of
// links and menus, footer groups, the announcement, a font of the
// site's own, the older settings) and reads them back through the
// service; the form drawn again shows them, and empty rows are dropped.
func TestSiteCustomizeSave(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCustomizeFixture(t, h)
		admin := f.Admin
		form := f.getForm(t, admin, f.Page)
		if form.Get("styling.primaryColor.light") != "#346DDB" || form.Get("styling.theme") != "clean" || form.Get("pdf.enabled") != "on" {
			t.Fatalf("the form does not show the defaults: %v", form)
		}
		set := map[string]string{
			"title":                                                "Acme handbook",
			"styling.primaryColor.light":                           "#C0392B",
			"styling.tint.color.light":                             "#f5f5f5",
			"styling.tint.color.dark":                              "#111",
			"styling.theme":                                        "bold",
			"styling.corners":                                      "circular",
			"styling.sidebar.list":                                 "pill",
			"styling.font":                                         "Roboto",
			"styling.monospaceFont":                                "custom",
			"styling.monospaceFont.fontFamily":                     "Acme Mono",
			"styling.monospaceFont.id":                             "acme-mono",
			"styling.monospaceFont.custom":                         "on",
			"styling.monospaceFont.fontFaces[0].weight":            "400",
			"styling.monospaceFont.fontFaces[0].sources[0].url":    "https://fonts.example/acme-mono.woff2",
			"styling.monospaceFont.fontFaces[0].sources[0].format": "woff2",
			"favicon.emoji":                                        "📘",
			"header.logo.light":                                    "https://cdn.example/logo.png",
			"header.links[1].title":                                "Support",
			"header.links[1].to.kind":                              "url",
			"header.links[1].to":                                   "https://support.example/",
			"header.links[1].style":                                "button-primary",
			"header.links[1].condition":                            "true",
			"header.links[0].title":                                "Products",
			"header.links[0].to.kind":                              "",
			"header.links[0].links[1].title":                       "Widgets",
			"header.links[0].links[1].to.kind":                     "page",
			"header.links[0].links[1].to":                          "widgets#price",
			"footer.groups[0].title":                               "Company",
			"footer.groups[0].links[0].title":                      "About",
			"footer.groups[0].links[0].to":                         "https://acme.example/about",
			"footer.copyright":                                     "© Acme",
			"announcement.enabled":                                 "on",
			"announcement.message":                                 "Version 2 is out",
			"announcement.style":                                   "success",
			"announcement.link.title":                              "Read more",
			"announcement.link.to":                                 "https://acme.example/v2",
			"themes.default":                                       "dark",
			"ai.mode":                                              "assistant",
			"feedback.enabled":                                     "on",
			"pageActions.mcp":                                      "on",
			"externalLinks.target":                                 "blank",
			"privacyPolicy.url":                                    "https://acme.example/privacy",
			"internationalization.locale":                          "fr",
			"header.backgroundColor.light":                         "#000000",
			"header.backgroundColor.dark":                          "#ffffff",
		}
		for k, v := range set {
			form.Set(k, v)
		}
		// Only the picker changed: its color is taken.
		form.Set("styling.dangerColor.dark.pick", "#aa0000")
		for _, k := range []string{"pdf.enabled", "insights.trackingCookie", "themes.toggeable"} {
			form.Del(k)
		}
		status, loc, body := h.postForm(t, admin, f.Page, form)
		if status != http.StatusSeeOther || loc != f.Page+"?done=saved" {
			t.Fatalf("save: %d to %q\n%s", status, loc, problemText(body))
		}
		c := f.stored(t)
		st := c.Styling
		for _, chk := range []struct{ what, got, want string }{
			{"title", c.Title, "Acme handbook"},
			{"primary color", st.PrimaryColor.Light, "#C0392B"},
			{"primary color (dark), untouched", st.PrimaryColor.Dark, "#346DDB"},
			{"danger color (dark), picked", st.DangerColor.Dark, "#aa0000"},
			{"danger color (light), untouched", st.DangerColor.Light, "#DC2626"},
			{"theme", st.Theme, "bold"},
			{"corners", st.Corners, "circular"},
			{"sidebar list", st.Sidebar.List, "pill"},
			{"font", st.Font.Name, "Roboto"},
			{"favicon emoji", c.Favicon.Emoji, "📘"},
			{"footer copyright", c.Footer.Copyright, "© Acme"},
			{"default theme", c.Themes.Default, "dark"},
			{"AI mode", c.AI.Mode, "assistant"},
			{"external links", c.ExternalLinks.Target, "blank"},
			{"privacy policy", c.PrivacyPolicy.URL, "https://acme.example/privacy"},
			{"locale", c.Internationalization.Locale, "fr"},
		} {
			if chk.got != chk.want {
				t.Errorf("%s: %q, want %q", chk.what, chk.got, chk.want)
			}
		}
		if st.Tint == nil || st.Tint.Color.Light != "#f5f5f5" || st.Tint.Color.Dark != "#111" {
			t.Errorf("tint: %+v", st.Tint)
		}
		if c.Header.Logo == nil || c.Header.Logo.Light != "https://cdn.example/logo.png" || c.Header.Logo.Dark != "" {
			t.Errorf("header logo: %+v", c.Header.Logo)
		}
		if c.Footer.Logo != nil || c.Favicon.Icon != nil {
			t.Errorf("empty footer logo and favicon kept: %+v %+v", c.Footer.Logo, c.Favicon.Icon)
		}
		if b := c.Header.BackgroundColor; b == nil || b.Light != "#000000" || b.Dark != "#ffffff" || c.Header.LinkColor != nil {
			t.Errorf("header colors: %+v %+v", b, c.Header.LinkColor)
		}
		if c.PDF.Enabled || c.Insights.TrackingCookie || c.Themes.Toggeable || !c.Feedback.Enabled || !c.PageActions.MCP || !c.PageActions.Markdown {
			t.Errorf("checkboxes: pdf=%t cookie=%t toggle=%t feedback=%t mcp=%t markdown=%t", c.PDF.Enabled,
				c.Insights.TrackingCookie, c.Themes.Toggeable, c.Feedback.Enabled, c.PageActions.MCP, c.PageActions.Markdown)
		}
		links, _ := json.Marshal(c.Header.Links)
		if want := `[{"title":"Products","to":null,"links":[{"title":"Widgets","to":{"kind":"page","page":"widgets","anchor":"price"}}]},` +
			`{"title":"Support","style":"button-primary","to":{"kind":"url","url":"https://support.example/"},"links":[],"condition":"true"}]`; string(links) != want {
			t.Errorf("header links:\n%s\nwant\n%s", links, want)
		}
		groups, _ := json.Marshal(c.Footer.Groups)
		if want := `[{"title":"Company","links":[{"title":"About","to":{"kind":"url","url":"https://acme.example/about"}}]}]`; string(groups) != want {
			t.Errorf("footer groups: %s", groups)
		}
		ann, _ := json.Marshal(c.Announcement)
		if want := `{"enabled":true,"message":"Version 2 is out","link":{"title":"Read more","to":{"kind":"url","url":"https://acme.example/v2"}},"style":"success"}`; string(ann) != want {
			t.Errorf("announcement: %s", ann)
		}
		mono, _ := json.Marshal(st.MonospaceFont)
		if want := `{"id":"acme-mono","custom":true,"fontFamily":"Acme Mono","fontFaces":[{"weight":400,"sources":[{"url":"https://fonts.example/acme-mono.woff2","format":"woff2"}]}]}`; string(mono) != want {
			t.Errorf("monospace font: %s", mono)
		}

		// The page after saving says so, and its form shows what was
		// saved; sent again unchanged, it changes nothing.
		status, _, body = h.get(t, admin, loc)
		if status != http.StatusOK || !strings.Contains(body, "The site’s customization was saved.") {
			t.Fatalf("after saving: %d\n%s", status, problemText(body))
		}
		again := customizeForm(t, body)
		if again.Get("header.links[0].links[0].to") != "widgets#price" || again.Get("styling.monospaceFont") != "custom" ||
			again.Get("styling.dangerColor.dark") != "#aa0000" || again.Get("header.links[1].condition") != set["header.links[1].condition"] {
			t.Errorf("the form drawn again: %v", again)
		}
		before := f.storedJSON(t)
		if status, _, body := h.postForm(t, admin, f.Page, again); status != http.StatusSeeOther {
			t.Fatalf("save unchanged: %d\n%s", status, problemText(body))
		}
		if after := f.storedJSON(t); after != before {
			t.Errorf("saving the form unchanged changed the settings:\n%s\n%s", before, after)
		}

		// Cleared rows are removed.
		again.Set("header.links[0].title", "")
		again.Set("header.links[0].links[0].title", "")
		again.Set("header.links[0].links[0].to", "")
		if status, _, body := h.postForm(t, admin, f.Page, again); status != http.StatusSeeOther {
			t.Fatalf("save without a row: %d\n%s", status, problemText(body))
		}
		if c := f.stored(t); len(c.Header.Links) != 1 || c.Header.Links[0].Title != "Support" {
			t.Errorf("header links after clearing a row: %+v", c.Header.Links)
		}
	}, withSites())
}

// TestSiteCustomizeRefused sends the form wrong in each kind of control:
// each answers 422 with the form drawn again as typed, naming the
// control in the message and beside it, and nothing is stored.
func TestSiteCustomizeRefused(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCustomizeFixture(t, h)
		admin := f.Admin
		base := f.getForm(t, admin, f.Page)
		before := f.storedJSON(t)
		for _, c := range []struct {
			set   map[string]string
			field string
			says  string
		}{
			{map[string]string{"styling.primaryColor.light": "#12345"}, "styling.primaryColor.light", "Primary color (light) must be a hex color such as #346DDB."},
			{map[string]string{"styling.tint.color.light": "#fff"}, "styling.tint.color.dark", "Tint (dark) must be a hex color such as #346DDB."},
			{map[string]string{"styling.theme": "neon"}, "styling.theme", "Theme must be one of clean, muted, bold, gradient."},
			{map[string]string{"styling.font": "Comic Sans"}, "styling.font", "Text font must be one of ABCFavorit, Inter"},
			{map[string]string{"title": strings.Repeat("t", 129)}, "title", "Title must be at most 128 characters."},
			{map[string]string{"title": "x"}, "title", "Title must be at least 2 characters."},
			{map[string]string{"header.logo.light": "https://cdn.example/" + strings.Repeat("l", 2048)}, "header.logo.light", "Header logo (light) must be at most 2048 characters."},
			{map[string]string{"socialPreview.url": "https://cdn.example/a picture.png"}, "socialPreview.url", "Social preview image URL is not a URL."},
			{map[string]string{"announcement.enabled": "on", "announcement.message": "x"}, "announcement.message", "Message must be at least 2 characters."},
			{map[string]string{"header.links[0].title": "Help", "header.links[0].to.kind": "robot", "header.links[0].to": "x"}, "header.links[0].to.kind", "Header link 1 leads to must be one of the listed kinds."},
			{map[string]string{"footer.groups[0].links[0].title": "About", "footer.groups[0].links[0].to": "https://a b"}, "footer.groups[0].links[0].to", "Link 1 of footer group 1 target is not a URL."},
			{map[string]string{"header.links[0].title": "Beta", "header.links[0].condition": "visitor.claims.isBeta"}, "header.links[0].condition", "Header link 1 condition"},
			{map[string]string{"styling.font": "custom", "styling.font.fontFamily": "Acme", "styling.font.fontFaces[0].weight": "heavy"}, "styling.font.fontFaces[0].weight", "Face 1 of the text font of the site’s own weight must be a whole number."},
			{map[string]string{"styling.font": "custom", "styling.font.fontFamily": "Acme", "styling.font.fontFaces[0].weight": "2000",
				"styling.font.fontFaces[0].sources[0].url": "https://fonts.example/a.woff2"}, "styling.font.fontFaces[0].weight", "must be from 1 to 1000."},
			{map[string]string{"styling.font": "custom", "styling.font.fontFamily": "Acme"}, "styling.font", "Text font must have at least 1 face."},
			{map[string]string{"externalLinks.target": "parent"}, "externalLinks.target", "External links open in must be one of self, blank."},
		} {
			form := url.Values{}
			for k, v := range base {
				form[k] = v
			}
			for k, v := range c.set {
				form.Set(k, v)
			}
			status, _, body := h.postForm(t, admin, f.Page, form)
			if status != http.StatusUnprocessableEntity {
				t.Errorf("%v: %d, want 422\n%s", c.set, status, problemText(body))
				continue
			}
			if !strings.Contains(html.UnescapeString(body), c.says) {
				t.Errorf("%v: the page does not say %q\n%s", c.set, c.says, problemText(body))
			}
			id := "c-" + regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(c.field, "-")
			if !regexp.MustCompile(`id="` + id + `"[^>]*aria-invalid="true"`).MatchString(body) {
				t.Errorf("%v: the control %s is not marked invalid", c.set, c.field)
			}
			// What was typed is drawn again, but in a select, which can
			// only show its choices.
			again := customizeForm(t, body)
			for k, v := range c.set {
				if regexp.MustCompile(`<select id="c-` + regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(k, "-") + `"`).MatchString(body) {
					continue
				}
				if got := again.Get(k); got != v {
					t.Errorf("%v: %s drawn again as %q", c.set, k, got)
				}
			}
		}
		// The form's body is bounded.
		if status, _, body := h.postForm(t, admin, f.Page, url.Values{"title": {strings.Repeat("x", 2<<20)}}); status != http.StatusBadRequest ||
			!strings.Contains(body, "send at most 1 MB") {
			t.Errorf("an oversized form: %d\n%s", status, problemText(body))
		}
		f.unchanged(t, before, "refused forms")
	}, withSites())
}

// TestSiteCustomizeAccess: the pages and the preview are for those who
// may change the site's customization through the API (create and
// admin); an editor and a reader are refused, an outsider finds
// nothing, and nothing changes.
func TestSiteCustomizeAccess(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCustomizeFixture(t, h)
		before := f.storedJSON(t)
		form := f.getForm(t, f.Admin, f.Page)
		form.Set("title", "Taken over")
		space := f.SpacePage
		for _, who := range []struct {
			name   string
			client *http.Client
			want   int
		}{
			{"editor", h.client(t, h.signIn(t, h.newUser(t, "eve@acme.test", "Eve Edit", quire.RoleEdit))), http.StatusForbidden},
			{"reader", h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead))), http.StatusForbidden},
			{"outsider", h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", ""))), http.StatusNotFound},
		} {
			for _, path := range []string{f.Page, space, f.Preview + "/"} {
				if status, _, body := h.get(t, who.client, path); status != who.want {
					t.Errorf("%s: GET %s: %d, want %d\n%s", who.name, path, status, who.want, problemText(body))
				}
			}
			for _, path := range []string{f.Page, space, f.Preview} {
				if status, _, body := h.postForm(t, who.client, path, form); status != who.want {
					t.Errorf("%s: POST %s: %d, want %d\n%s", who.name, path, status, who.want, problemText(body))
				}
			}
		}
		// A member with the create role may, as through the API.
		creator := h.client(t, h.signIn(t, h.newUser(t, "carl@acme.test", "Carl Create", quire.RoleCreate)))
		if status, _, body := h.get(t, creator, f.Page); status != http.StatusOK {
			t.Errorf("creator: %d\n%s", status, problemText(body))
		}
		f.unchanged(t, before, "refused requests")
	}, withSites())
}

// TestSiteSpaceCustomize: a site space's page edits the site's
// customization, which the site space takes, with the preview opening
// on that site space; saving returns to it.
func TestSiteSpaceCustomize(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCustomizeFixture(t, h)
		admin := f.Admin
		page := f.SpacePage
		status, _, body := h.get(t, admin, page)
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", page, status, problemText(body))
		}
		for _, want := range []string{"<h1>Customize API on Docs portal</h1>", "saving here changes it for the whole site",
			`<iframe name="site-preview" title="Preview" src="` + f.Preview + `/api/"`, `<input type="hidden" name="path" value="api/">`} {
			if !strings.Contains(body, want) {
				t.Errorf("the site space's page does not hold %q\n%s", want, problemText(body))
			}
		}
		form := customizeForm(t, body)
		form.Set("title", "API portal")
		status, loc, body := h.postForm(t, admin, page, form)
		if status != http.StatusSeeOther || loc != page+"?done=saved" {
			t.Fatalf("save: %d to %q\n%s", status, loc, problemText(body))
		}
		if c := f.stored(t); c.Title != "API portal" {
			t.Errorf("title saved from the site space's page: %q", c.Title)
		}
		// The published profile gives the site space the same settings.
		pub, err := f.Sites.PublishedSite(context.Background(), h.Admin, h.Org, f.Site.ID, "")
		if err != nil || pub.Customization.Title != "API portal" {
			t.Errorf("published profile: %v %+v", err, pub)
		}
		form.Set("styling.theme", "neon")
		if status, _, body := h.postForm(t, admin, page, form); status != http.StatusUnprocessableEntity || !strings.Contains(body, "Theme must be one of") {
			t.Errorf("refused on the site space's page: %d\n%s", status, problemText(body))
		}
		if status, _, _ := h.get(t, admin, "/app/o/"+h.Org+"/sites/"+f.Site.ID+"/spaces/nosuchsitespace/customize"); status != http.StatusNotFound {
			t.Errorf("an unknown site space: %d, want 404", status)
		}
	}, withSites())
}

// TestSiteCustomizePreview: the preview draws the unpublished site
// through the reader with the form's values, before anything is saved,
// on the page its frame showed last; it may be framed by the app only
// and is never cached; a form that would be refused says why inside the
// frame.
func TestSiteCustomizePreview(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newCustomizeFixture(t, h)
		admin := f.Admin
		form := f.getForm(t, admin, f.Page)
		before := f.storedJSON(t)

		req := func(method, path string, form url.Values) (*http.Response, string) {
			t.Helper()
			var rd *strings.Reader
			if form != nil {
				rd = strings.NewReader(form.Encode())
			} else {
				rd = strings.NewReader("")
			}
			r, err := http.NewRequest(method, h.URL+path, rd)
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", h.URL)
			r.Header.Set("Accept", "text/html")
			res, err := admin.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var b strings.Builder
			if _, err := io.Copy(&b, res.Body); err != nil {
				t.Fatal(err)
			}
			return res, b.String()
		}
		framed := func(res *http.Response) {
			t.Helper()
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") {
				t.Errorf("preview's policy %q does not let the app frame it", csp)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("preview's Cache-Control %q", cc)
			}
		}

		// The saved look, at the site's first page.
		res, body := req(http.MethodGet, f.Preview+"/", nil)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Hello from Handbook.") || !strings.Contains(body, "Docs portal") ||
			!strings.Contains(body, ":root{--primary:#346DDB}") {
			t.Fatalf("preview as saved: %d\n%s", res.StatusCode, body)
		}
		framed(res)

		// The form's values, unsaved.
		form.Set("title", "Acme handbook")
		form.Set("styling.primaryColor.light", "#c0392b")
		form.Set("announcement.enabled", "on")
		form.Set("announcement.message", "Version 2 is out")
		res, body = req(http.MethodPost, f.Preview, form)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("preview: %d\n%s", res.StatusCode, body)
		}
		framed(res)
		for _, want := range []string{"Acme handbook", ":root{--primary:#c0392b}", "Version 2 is out", "Hello from Handbook."} {
			if !strings.Contains(body, want) {
				t.Errorf("the preview does not show %q\n%s", want, body)
			}
		}
		// The links of the preview stay in the preview.
		if !strings.Contains(body, `href="`+f.Preview+`/api/"`) {
			t.Errorf("the preview's links do not lead to the preview\n%s", body)
		}

		// After the frame went to another page, the preview stays there.
		res, body = req(http.MethodGet, f.Preview+"/api/", nil)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Hello from API.") {
			t.Fatalf("preview of the API site space: %d\n%s", res.StatusCode, body)
		}
		res, body = req(http.MethodPost, f.Preview, form)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "Hello from API.") || !strings.Contains(body, "Acme handbook") {
			t.Errorf("preview after going to the API site space: %d\n%s", res.StatusCode, body)
		}

		// A form that would be refused says why, inside the frame.
		form.Set("styling.primaryColor.light", "#zzz")
		res, body = req(http.MethodPost, f.Preview, form)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Primary color (light) must be a hex color such as #346DDB.") {
			t.Errorf("refused preview: %d\n%s", res.StatusCode, body)
		}
		framed(res)
		if res, body := req(http.MethodGet, f.Preview+"/nosuchpage", nil); res.StatusCode != http.StatusNotFound || !strings.Contains(body, "Page not found") {
			t.Errorf("a missing page of the preview: %d\n%s", res.StatusCode, body)
		}
		f.unchanged(t, before, "previews")
		if f.Site.Published {
			t.Fatal("the fixture's site is published")
		}
	}, withSites())
}
