package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/quire"
	"quire/internal/service"
)

// withSites gives the app the server's sites service.
func withSites() harnessOption {
	return func(_ *harness, cfg *httpapi.Config, acfg *app.Config) { acfg.Sites = cfg.SiteService }
}

// siteAdmin is a test's view of one site: the sites service over the
// harness's database, the site, and its pages' address in the app.
type siteAdmin struct {
	h     *harness
	sites *service.Sites
	site  string
	base  string
}

// newSiteAdmin creates a site publishing a new space titled spaceTitle.
func newSiteAdmin(t *testing.T, h *harness, title, spaceTitle string) *siteAdmin {
	t.Helper()
	s := &siteAdmin{h: h, sites: service.NewSites(h.Svc)}
	sp := s.space(t, spaceTitle)
	site, err := s.sites.CreateSite(context.Background(), h.Admin, h.Org, service.SiteCreate{Title: title, Spaces: []string{sp}})
	if err != nil {
		t.Fatal(err)
	}
	s.site, s.base = site.ID, "/app/o/"+h.Org+"/sites/"+site.ID
	return s
}

// space creates a space of the organization and returns its id.
func (s *siteAdmin) space(t *testing.T, title string) string {
	t.Helper()
	sp, err := s.h.Svc.CreateSpace(context.Background(), s.h.Admin, s.h.Org, service.SpaceInput{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return sp.Space.ID
}

// structure reads the site's structure as the admin.
func (s *siteAdmin) structure(t *testing.T) *service.SiteStructure {
	t.Helper()
	st, err := s.sites.SiteStructure(context.Background(), s.h.Admin, s.h.Org, s.site, "")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// facts describes what is stored of the site: its settings, its
// structure in order, its share links and its visitor authentication.
func (s *siteAdmin) facts(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	site, err := s.sites.Site(ctx, s.h.Org, s.site)
	if quire.IsNotFound(err) {
		return "no site"
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "site %q %s published=%t section=%s space=%s\n", site.Title, site.Visibility, site.Published, site.DefaultSection, site.DefaultSiteSpace)
	st := s.structure(t)
	for _, g := range st.Groups {
		fmt.Fprintf(&b, "group %s %q icon=%q parent=%s\n", g.Group.ID, g.Group.Title, g.Group.Icon, g.Group.Parent)
	}
	for _, sec := range st.Sections {
		x := sec.Section
		fmt.Fprintf(&b, "section %s %q icon=%q path=%s desc=%q cond=%q group=%s default=%t\n", x.ID, x.Title, x.Icon, x.Path, x.Description, x.Condition, x.Group, sec.Default)
	}
	for _, v := range st.AllSiteSpaces {
		x := v.SiteSpace
		fmt.Fprintf(&b, "site space %s path=%s cond=%q section=%s default=%t\n", x.ID, x.Path, x.Condition, x.Section, v.Default)
	}
	_, links, err := s.sites.SiteShareLinks(ctx, s.h.Admin, s.h.Org, s.site, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links.Items {
		fmt.Fprintf(&b, "share link %s %q active=%t\n", l.ID, l.Name, l.Active)
	}
	auth, err := s.sites.SitePublishingAuth(ctx, s.h.Org, s.site)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "auth key=%s fallback=%q\n", auth.PrivateKey, auth.FallbackURL)
	return b.String()
}

// order lists the titles of the site's sections in reading order.
func (s *siteAdmin) order(t *testing.T) string {
	t.Helper()
	var out []string
	for _, sec := range s.structure(t).Sections {
		out = append(out, sec.Section.Title)
	}
	return strings.Join(out, ",")
}

// sitePost sends a form and checks the status and, for a redirect, where
// it goes or, for a page, what it says.
func sitePost(t *testing.T, h *harness, c *http.Client, path string, form url.Values, status int, says string) string {
	t.Helper()
	st, loc, body := h.postForm(t, c, path, form)
	if st != status {
		t.Fatalf("POST %s %v: %d (to %q), want %d\n%s", path, form, st, loc, status, problemText(body))
	}
	if st == http.StatusSeeOther && !strings.Contains(loc, says) {
		t.Fatalf("POST %s %v: redirected to %q, want %q in it", path, form, loc, says)
	}
	if st != http.StatusSeeOther && !strings.Contains(body, says) {
		t.Fatalf("POST %s %v: the %d page does not say %q\n%s", path, form, st, says, problemText(body))
	}
	return loc
}

// refused sends a form that must be refused with the site unchanged.
func (s *siteAdmin) refused(t *testing.T, c *http.Client, path string, form url.Values, status int, says string) {
	t.Helper()
	before := s.facts(t)
	sitePost(t, s.h, c, path, form, status, says)
	if after := s.facts(t); after != before {
		t.Fatalf("refused POST %s %v changed the site:\nbefore:\n%s\nafter:\n%s", path, form, before, after)
	}
}

// TestSiteAdminCreate creates a site from the list's form with the
// spaces chosen, and refuses a form without a title or with a space
// that is not the organization's, creating nothing; a reader sees no
// form and is refused.
func TestSiteAdminCreate(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		s := &siteAdmin{h: h, sites: service.NewSites(h.Svc)}
		guides, api := s.space(t, "Guides"), s.space(t, "API reference")
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		list := "/app/o/" + h.Org + "/sites"
		count := func() int {
			l, err := s.sites.Sites(ctx, quire.SiteFilter{OrgID: h.Org}, quire.Page{Limit: quire.MaxLimit})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}

		_, _, body := h.get(t, admin, list)
		for _, want := range []string{"New site", `name="spaces" value="` + guides + `"`, "API reference", "Create site"} {
			if !strings.Contains(body, want) {
				t.Errorf("sites list: no %q", want)
			}
		}
		sitePost(t, h, admin, list, url.Values{"title": {" "}, "spaces": {guides}}, http.StatusUnprocessableEntity, "Title: must not be empty.")
		sitePost(t, h, admin, list, url.Values{"title": {strings.Repeat("x", 129)}}, http.StatusUnprocessableEntity, "Title: must be at most 128 characters.")
		_, _, body = h.postForm(t, admin, list, url.Values{"title": {"Docs"}, "spaces": {guides, "nosuchspace"}})
		if !strings.Contains(body, "Space: space &#34;nosuchspace&#34; does not exist in this organization.") || !strings.Contains(body, `value="`+guides+`" checked`) {
			t.Errorf("unknown space: %s", problemText(body))
		}
		if n := count(); n != 0 {
			t.Fatalf("refused forms created %d sites", n)
		}
		st, _, body := h.postForm(t, reader, list, url.Values{"title": {"Docs"}})
		if st != http.StatusForbidden || count() != 0 {
			t.Fatalf("reader: %d\n%s", st, problemText(body))
		}
		if _, _, body := h.get(t, reader, list); strings.Contains(body, "New site") {
			t.Error("a reader is offered the new site form")
		}

		loc := sitePost(t, h, admin, list, url.Values{"title": {"Docs portal"}, "spaces": {api, guides}}, http.StatusSeeOther, "?done=site-created")
		l, err := s.sites.Sites(ctx, quire.SiteFilter{OrgID: h.Org}, quire.Page{Limit: quire.MaxLimit})
		if err != nil || len(l.Items) != 1 {
			t.Fatalf("sites: %v %v", l, err)
		}
		s.site = l.Items[0].ID
		if want := list + "/" + s.site + "?done=site-created"; loc != want {
			t.Errorf("created: to %q, want %q", loc, want)
		}
		var titles []string
		for _, v := range s.structure(t).SiteSpaces {
			titles = append(titles, v.Space.Space.Title)
		}
		if l.Items[0].Title != "Docs portal" || strings.Join(titles, ",") != "API reference,Guides" {
			t.Errorf("created %q with %v", l.Items[0].Title, titles)
		}
		_, _, body = h.get(t, admin, loc)
		for _, want := range []string{"<h1>Docs portal</h1>", "Site created.", "API reference", "Guides", "Publish"} {
			if !strings.Contains(body, want) {
				t.Errorf("new site's page: no %q", want)
			}
		}
	}, withSites())
}

// TestSiteAdminStructure adds sections, a group and site spaces from the
// site's forms, edits, moves and deletes them, and refuses bad input
// naming the field with the structure unchanged; a reader is refused.
func TestSiteAdminStructure(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		s := newSiteAdmin(t, h, "Docs portal", "Handbook")
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		guides, api := s.space(t, "Guides"), s.space(t, "API reference")

		// Sections: the first wraps the root's site spaces in a section.
		s.refused(t, admin, s.base+"/sections", url.Values{"space": {""}}, http.StatusUnprocessableEntity, "Space: choose a space.")
		s.refused(t, admin, s.base+"/sections", url.Values{"space": {guides}, "title": {"G"}}, http.StatusUnprocessableEntity, "Title: a section title has 2 to 128 characters.")
		s.refused(t, admin, s.base+"/sections", url.Values{"space": {guides}, "icon": {strings.Repeat("i", 51)}}, http.StatusUnprocessableEntity, "Icon: must be at most 50 characters.")
		s.refused(t, admin, s.base+"/sections", url.Values{"space": {"nosuchspace"}}, http.StatusUnprocessableEntity, "Space: space &#34;nosuchspace&#34; does not exist")
		s.refused(t, reader, s.base+"/sections", url.Values{"space": {guides}}, http.StatusForbidden, "your role here does not allow this")
		sitePost(t, h, admin, s.base+"/sections", url.Values{"space": {guides}, "title": {"User guides"}, "icon": {"📘"}}, http.StatusSeeOther, "done=section-added")
		sitePost(t, h, admin, s.base+"/sections", url.Values{"space": {api}}, http.StatusSeeOther, "done=section-added")
		if got := s.order(t); got != "Handbook,User guides,API reference" {
			t.Fatalf("sections: %s", got)
		}
		st := s.structure(t)
		hb, ug, ar := st.Sections[0].Section.ID, st.Sections[1].Section.ID, st.Sections[2].Section.ID
		if st.Sections[1].Section.Icon != "📘" {
			t.Errorf("icon %q", st.Sections[1].Section.Icon)
		}
		_, _, body := h.get(t, admin, s.base)
		for _, want := range []string{`data-edit="` + s.base + `/items"`, `data-page="` + ar + `" data-kind="section" data-holds="space"`,
			`aria-label="Move API reference up"`, `aria-label="Edit User guides"`, `href="` + s.base + `/customize"`, "Add a section group"} {
			if !strings.Contains(body, want) {
				t.Errorf("site page: no %q", want)
			}
		}
		if _, _, body := h.get(t, reader, s.base); strings.Contains(body, "data-edit") || strings.Contains(body, "Add a section") || !strings.Contains(body, "User guides") {
			t.Error("a reader is offered the structure's forms, or does not see the structure")
		}

		// Moves: the up button's form, and a drop's.
		move := func(id string) string { return s.base + "/items/" + id + "/move" }
		sitePost(t, h, admin, move(ar), url.Values{"target": {ug}, "place": {"before"}}, http.StatusSeeOther, "done=moved")
		sitePost(t, h, admin, move(hb), url.Values{"target": {ug}, "place": {"after"}}, http.StatusSeeOther, "done=moved")
		if got := s.order(t); got != "API reference,User guides,Handbook" {
			t.Fatalf("after the moves: %s", got)
		}
		s.refused(t, admin, move(ar), url.Values{"target": {ug}, "place": {"above"}}, http.StatusBadRequest, "place: must be before, after or inside")
		s.refused(t, admin, move(ar), url.Values{"target": {"nosuchitem"}, "place": {"before"}}, http.StatusBadRequest, "target: choose an item of this site")
		s.refused(t, admin, move(ar), url.Values{"target": {ug}, "place": {"inside"}}, http.StatusBadRequest, "place: a section cannot go inside a section")
		ss := st.Sections[1].SiteSpaces[0].SiteSpace.ID
		s.refused(t, admin, move(ss), url.Values{"target": {ar}, "place": {"before"}}, http.StatusBadRequest, "place: invalid position: a site-space moves among site spaces")
		s.refused(t, admin, move("nosuchitem"), url.Values{"target": {ug}, "place": {"before"}}, http.StatusNotFound, "There is nothing here")
		s.refused(t, reader, move(ar), url.Values{"target": {hb}, "place": {"after"}}, http.StatusForbidden, "your role here does not allow this")

		// A section's form: a condition is checked against the visitor
		// schema, and the JSON check says the same.
		secPath := s.base + "/sections/" + ug
		if st, _, body := h.get(t, admin, secPath); st != http.StatusOK || !strings.Contains(body, `data-check="`+s.base+`/condition.json?condition="`) {
			t.Fatalf("section page: %d\n%s", st, problemText(body))
		}
		if st, _, _ := h.get(t, reader, secPath); st != http.StatusForbidden {
			t.Errorf("reader's section page: %d", st)
		}
		sec := func(title, path, cond string) url.Values {
			return url.Values{"title": {title}, "icon": {""}, "path": {path}, "description": {"For people"}, "condition": {cond}}
		}
		s.refused(t, admin, secPath, sec("User guides", "guides", "visitor.claims.isBeta"), http.StatusUnprocessableEntity, "Condition: line 1, column")
		s.refused(t, admin, secPath, sec("User guides", "a/b", ""), http.StatusUnprocessableEntity, "Path: a path is one segment of an address")
		s.refused(t, admin, secPath, sec("", "guides", ""), http.StatusUnprocessableEntity, "Title: must not be empty.")
		s.refused(t, admin, secPath, sec("User guides", "guides", strings.Repeat("x", 1025)), http.StatusUnprocessableEntity, "Condition: must be at most 1024 characters.")
		if _, err := s.sites.PutSiteAdaptiveSchema(ctx, h.Org, s.site, []byte(visitorSchemaJSON)); err != nil {
			t.Fatal(err)
		}
		check := func(cond string) string {
			st, _, body := h.get(t, admin, s.base+"/condition.json?condition="+url.QueryEscape(cond))
			var out struct{ Message string }
			if st != http.StatusOK || json.Unmarshal([]byte(body), &out) != nil {
				t.Fatalf("condition check: %d %s", st, body)
			}
			return out.Message
		}
		if m := check("visitor.claims.isBeta"); m != "" {
			t.Errorf("a good condition: %q", m)
		}
		if m := check("visitor.claims.isBeta &&"); !strings.HasPrefix(m, "Condition: line 1, column") {
			t.Errorf("a bad condition: %q", m)
		}
		if st, _, _ := h.get(t, reader, s.base+"/condition.json?condition=x"); st != http.StatusForbidden {
			t.Errorf("reader's condition check: %d", st)
		}
		if _, _, body := h.get(t, admin, secPath); !strings.Contains(body, `<option value="visitor.claims.isBeta">`) {
			t.Error("the condition field offers no claim of the schema")
		}
		f := sec("Guides for users", "guides", "visitor.claims.isBeta")
		f.Set("default", "on")
		sitePost(t, h, admin, secPath, f, http.StatusSeeOther, "done=section-saved")
		got := s.structure(t).SectionByID(ug)
		if x := got.Section; x.Title != "Guides for users" || x.Path != "guides" || x.Condition != "visitor.claims.isBeta" || x.Description != "For people" || x.Icon != "" || !got.Default {
			t.Errorf("section saved as %+v default=%t", x, got.Default)
		}

		// A group: made with a section, renamed, emptied, filled, deleted.
		s.refused(t, admin, s.base+"/groups", url.Values{"title": {" "}}, http.StatusUnprocessableEntity, "Title: must not be empty.")
		s.refused(t, admin, s.base+"/groups", url.Values{"title": {"Reference"}, "sections": {"nosuchsection"}}, http.StatusUnprocessableEntity, "Section: section &#34;nosuchsection&#34; is not in this site.")
		sitePost(t, h, admin, s.base+"/groups", url.Values{"title": {"Reference"}, "sections": {ar}}, http.StatusSeeOther, "done=group-added")
		g := s.structure(t).Groups[0].Group.ID
		gPath := s.base + "/groups/" + g
		if sec := s.structure(t).SectionByID(ar); sec.Section.Group != g {
			t.Fatalf("section %s not in the group", ar)
		}
		s.refused(t, admin, gPath, url.Values{"title": {""}}, http.StatusUnprocessableEntity, "Title: must not be empty.")
		sitePost(t, h, admin, gPath, url.Values{"title": {"Reference docs"}, "icon": {"book"}}, http.StatusSeeOther, "done=group-saved")
		sitePost(t, h, admin, gPath+"/sections/"+ar+"/remove", nil, http.StatusSeeOther, "done=group-saved")
		if sec := s.structure(t).SectionByID(ar); sec.Section.Group != "" {
			t.Fatal("the section is still in the group")
		}
		s.refused(t, admin, gPath+"/sections", url.Values{"section": {""}}, http.StatusUnprocessableEntity, "Section: choose a section.")
		sitePost(t, h, admin, gPath+"/sections", url.Values{"section": {hb}}, http.StatusSeeOther, "done=group-saved")
		sitePost(t, h, admin, move(ar), url.Values{"target": {g}, "place": {"inside"}}, http.StatusSeeOther, "done=moved")
		if got := s.structure(t); got.GroupByID(g).Group.Title != "Reference docs" || got.SectionByID(hb).Section.Group != g || got.SectionByID(ar).Section.Group != g {
			t.Fatalf("group:\n%s", s.facts(t))
		}
		if _, _, body := h.get(t, admin, gPath); !strings.Contains(body, `aria-label="Take Handbook out of the group"`) {
			t.Error("group page: no way to take a section out")
		}
		sitePost(t, h, admin, gPath+"/delete", nil, http.StatusSeeOther, "done=group-deleted")
		if got := s.structure(t); len(got.Groups) != 0 || len(got.Sections) != 3 {
			t.Fatalf("group deleted:\n%s", s.facts(t))
		}

		// Site spaces: one added to a section, edited, made default,
		// moved inside another section, removed.
		s.refused(t, admin, s.base+"/site-spaces", url.Values{"space": {""}}, http.StatusUnprocessableEntity, "Space: choose a space.")
		s.refused(t, admin, s.base+"/site-spaces", url.Values{"space": {api}, "section": {"nosuchsection"}}, http.StatusUnprocessableEntity, "Section: section &#34;nosuchsection&#34; is not in this site.")
		sitePost(t, h, admin, s.base+"/site-spaces", url.Values{"space": {api}, "section": {ug}}, http.StatusSeeOther, "done=space-added")
		spaces := s.structure(t).SectionByID(ug).SiteSpaces
		if len(spaces) != 2 {
			t.Fatalf("site spaces of the section: %d", len(spaces))
		}
		added := spaces[1].SiteSpace.ID
		ssPath := s.base + "/site-spaces/" + added
		if _, _, body := h.get(t, admin, ssPath); !strings.Contains(body, `href="`+s.base+`/spaces/`+added+`/customize"`) {
			t.Error("site space page: no link to customize it")
		}
		s.refused(t, admin, ssPath, url.Values{"path": {"a?b"}}, http.StatusUnprocessableEntity, "Path: a path is one segment of an address")
		s.refused(t, admin, ssPath, url.Values{"path": {spaces[0].SiteSpace.Path}}, http.StatusUnprocessableEntity, "Path: another site space next to it already uses the path")
		s.refused(t, admin, ssPath, url.Values{"path": {"api"}, "condition": {"visitor.claims.nope"}}, http.StatusUnprocessableEntity, "Condition: line 1, column")
		sitePost(t, h, admin, ssPath, url.Values{"path": {"api"}, "condition": {`visitor.claims.unsigned.lang == "fr"`}, "default": {"on"}}, http.StatusSeeOther, "done=space-saved")
		v := s.structure(t).SiteSpaceByID(added)
		if v.SiteSpace.Path != "api" || v.SiteSpace.Condition != `visitor.claims.unsigned.lang == "fr"` || !v.Default {
			t.Errorf("site space saved as %+v default=%t", v.SiteSpace, v.Default)
		}
		sitePost(t, h, admin, move(added), url.Values{"target": {ar}, "place": {"inside"}}, http.StatusSeeOther, "done=moved")
		if v := s.structure(t).SiteSpaceByID(added); v.SiteSpace.Section != ar {
			t.Fatalf("site space moved to %s, want %s", v.SiteSpace.Section, ar)
		}
		sitePost(t, h, admin, ssPath+"/delete", nil, http.StatusSeeOther, "done=space-removed")
		if s.structure(t).SiteSpaceByID(added) != nil {
			t.Fatal("site space not removed")
		}

		// Deleting a section asks first.
		sitePost(t, h, admin, s.base+"/sections/"+ar+"/delete", nil, http.StatusOK, "Delete the section “API reference”?")
		if s.structure(t).SectionByID(ar) == nil {
			t.Fatal("the section went without confirming")
		}
		s.refused(t, reader, s.base+"/sections/"+ar+"/delete", url.Values{"confirm": {"yes"}}, http.StatusForbidden, "your role here does not allow this")
		sitePost(t, h, admin, s.base+"/sections/"+ar+"/delete", url.Values{"confirm": {"yes"}}, http.StatusSeeOther, "done=section-deleted")
		if got := s.order(t); got != "Guides for users,Handbook" {
			t.Fatalf("after deleting a section: %s", got)
		}
	}, withSites())
}

// visitorSchemaJSON is a visitor schema with a boolean claim and an
// unsigned string claim of two values.
const visitorSchemaJSON = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
"properties":{"isBeta":{"type":"boolean","description":"In the beta program"},
"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","additionalProperties":false,
"properties":{"lang":{"type":"string","enum":["en","fr"],"description":"Language"}}}}}`

// TestSiteAdminPublishing saves the site's settings, publishes and
// unpublishes it, makes, turns off and deletes share links, changes the
// visitor authentication (an admin's alone) and deletes the site after
// confirming, refusing bad input naming the field.
func TestSiteAdminPublishing(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		s := newSiteAdmin(t, h, "Docs portal", "Handbook")
		admin := h.client(t, h.signIn(t, h.Admin))
		creator := h.client(t, h.signIn(t, h.newUser(t, "carl@acme.test", "Carl Create", quire.RoleCreate)))
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))

		// Settings.
		s.refused(t, admin, s.base, url.Values{"title": {"Docs"}, "visibility": {"private"}}, http.StatusUnprocessableEntity, "Visibility: choose one of the listed visibilities.")
		s.refused(t, admin, s.base, url.Values{"title": {"D"}, "visibility": {"public"}}, http.StatusUnprocessableEntity, "Title: a site title has 2 to 128 characters.")
		s.refused(t, reader, s.base, url.Values{"title": {"Docs"}, "visibility": {"unlisted"}}, http.StatusForbidden, "your role here does not allow this")
		sitePost(t, h, creator, s.base, url.Values{"title": {"Docs"}, "visibility": {"share-link"}}, http.StatusSeeOther, "done=site-saved")
		site, err := s.sites.Site(context.Background(), h.Org, s.site)
		if err != nil || site.Title != "Docs" || site.Visibility != quire.VisibilityShareLink {
			t.Fatalf("saved: %+v %v", site, err)
		}

		// Publishing.
		s.refused(t, reader, s.base+"/publish", nil, http.StatusForbidden, "your role here does not allow this")
		sitePost(t, h, admin, s.base+"/publish", nil, http.StatusSeeOther, "done=published")
		published := h.URL + "/sites/" + s.site + "/"
		_, _, body := h.get(t, admin, s.base+"?done=published")
		for _, want := range []string{"Site published.", `<a href="` + published + `">` + published + `</a>`, "Unpublish"} {
			if !strings.Contains(body, want) {
				t.Errorf("published site's page: no %q", want)
			}
		}

		// Share links.
		s.refused(t, admin, s.base+"/share-links", url.Values{"name": {" "}}, http.StatusUnprocessableEntity, "Name: must not be empty.")
		s.refused(t, admin, s.base+"/share-links", url.Values{"name": {strings.Repeat("n", 51)}}, http.StatusUnprocessableEntity, "Name: must be at most 50 characters.")
		s.refused(t, reader, s.base+"/share-links", url.Values{"name": {"Partners"}}, http.StatusForbidden, "your role here does not allow this")
		sitePost(t, h, admin, s.base+"/share-links", url.Values{"name": {"Partners"}}, http.StatusSeeOther, "done=link-created")
		_, links, err := s.sites.SiteShareLinks(context.Background(), h.Admin, h.Org, s.site, quire.Page{})
		if err != nil || len(links.Items) != 1 {
			t.Fatalf("links: %v %v", links, err)
		}
		link := links.Items[0]
		_, _, body = h.get(t, admin, s.base)
		if want := `value="` + published + `~share/` + link.Key + `/"`; !strings.Contains(body, want) {
			t.Errorf("site page: no share link address %q", want)
		}
		if _, _, body := h.get(t, reader, s.base); !strings.Contains(body, "Partners") || strings.Contains(body, link.Key) {
			t.Error("a reader sees the share link's key, or not the link")
		}
		linkPath := s.base + "/share-links/" + link.ID
		s.refused(t, admin, linkPath, url.Values{"active": {"maybe"}}, http.StatusBadRequest, "active: must be on or off")
		sitePost(t, h, admin, linkPath, url.Values{"active": {"off"}}, http.StatusSeeOther, "done=link-off")
		if !strings.Contains(s.facts(t), `"Partners" active=false`) {
			t.Error("the link is still on")
		}
		s.refused(t, admin, s.base+"/share-links/nosuchlink/delete", nil, http.StatusNotFound, "There is nothing here")
		sitePost(t, h, admin, linkPath+"/delete", nil, http.StatusSeeOther, "done=link-deleted")
		if strings.Contains(s.facts(t), "Partners") {
			t.Error("the link is still there")
		}
		sitePost(t, h, admin, s.base+"/unpublish", nil, http.StatusSeeOther, "done=unpublished")

		// Visitor authentication: the key is shown to admins alone.
		auth, err := s.sites.SitePublishingAuth(context.Background(), h.Org, s.site)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, body := h.get(t, admin, s.base); !strings.Contains(body, auth.PrivateKey) || !strings.Contains(body, `id="site-auth"`) {
			t.Error("an admin does not see the signing key")
		}
		if _, _, body := h.get(t, creator, s.base); strings.Contains(body, auth.PrivateKey) || strings.Contains(body, `id="site-auth"`) {
			t.Error("a creator sees the signing key")
		}
		s.refused(t, creator, s.base+"/visitor-auth", url.Values{"fallback_url": {"https://id.example/login"}}, http.StatusForbidden, "your role here does not allow this")
		s.refused(t, creator, s.base+"/visitor-auth/regenerate", url.Values{"confirm": {"yes"}}, http.StatusForbidden, "your role here does not allow this")
		s.refused(t, admin, s.base+"/visitor-auth", url.Values{"fallback_url": {"id.example/login"}}, http.StatusUnprocessableEntity, "Fallback URL: must be an absolute http or https URL.")
		sitePost(t, h, admin, s.base+"/visitor-auth", url.Values{"fallback_url": {"https://id.example/login"}}, http.StatusSeeOther, "done=auth-saved")
		if !strings.Contains(s.facts(t), `fallback="https://id.example/login"`) {
			t.Error("fallback URL not saved")
		}
		s.refused(t, admin, s.base+"/visitor-auth/regenerate", nil, http.StatusOK, "Make a new signing key for “Docs”?")
		sitePost(t, h, admin, s.base+"/visitor-auth/regenerate", url.Values{"confirm": {"yes"}}, http.StatusSeeOther, "done=key-regenerated")
		if again, err := s.sites.SitePublishingAuth(context.Background(), h.Org, s.site); err != nil || again.PrivateKey == auth.PrivateKey {
			t.Errorf("key not regenerated: %v", err)
		}

		// Deleting the site asks first, then goes back to the list.
		s.refused(t, admin, s.base+"/delete", nil, http.StatusOK, "Delete the site “Docs”?")
		s.refused(t, reader, s.base+"/delete", url.Values{"confirm": {"yes"}}, http.StatusForbidden, "your role here does not allow this")
		loc := sitePost(t, h, admin, s.base+"/delete", url.Values{"confirm": {"yes"}}, http.StatusSeeOther, "/sites?done=site-deleted")
		if got := s.facts(t); got != "no site" {
			t.Fatalf("deleted site still there:\n%s", got)
		}
		if _, _, body := h.get(t, admin, loc); !strings.Contains(body, "Site deleted. The spaces it published stay.") {
			t.Error("the list does not say the site was deleted")
		}
	}, withSites())
}
