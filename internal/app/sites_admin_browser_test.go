package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/testutil"
)

// TestSiteAdminBrowser has the admin, in a real browser, create a site
// from a space on the list's form, add two sections, drag the last
// above the one before it (the order stored through the service),
// check a condition as it is typed, add a share link, publish and find
// the published address; with screenshots of the creation form, the
// site's page and a section's page at desktop and phone widths in both
// themes.
func TestSiteAdminBrowser(t *testing.T) {
	h := newHarness(t, "sqlite", withSites())
	s := &siteAdmin{h: h, sites: service.NewSites(h.Svc)}
	handbook, guides, api := s.space(t, "Handbook"), s.space(t, "Guides"), s.space(t, "API reference")
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	org := h.URL + "/app/o/" + h.Org

	b.Open(org+"/sites", http.StatusOK)
	b.H1("Sites")
	b.ShootViews("app-sites-new", "main h1")
	b.Fill("textbox", "Title", "Docs portal")
	b.Click("checkbox", "Handbook")
	b.Click("button", "Create site")
	waitSiteNotice(b, "Site created.")
	b.H1("Docs portal")
	l, err := s.sites.Sites(context.Background(), quire.SiteFilter{OrgID: h.Org, Title: "Docs portal"}, quire.Page{})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("sites: %v %v", l, err)
	}
	s.site, s.base = l.Items[0].ID, "/app/o/"+h.Org+"/sites/"+l.Items[0].ID
	if st := s.structure(t); len(st.SiteSpaces) != 1 || st.SiteSpaces[0].Space.Space.ID != handbook {
		t.Fatalf("new site's structure:\n%s", s.facts(t))
	}

	for i, sp := range []string{guides, api} {
		b.Fill("combobox", "Space it publishes", sp)
		b.Click("button", "Add section")
		// The first section wraps the root's site space in one.
		b.WaitFor(`document.querySelectorAll("li[data-holds=space]").length === ` + strconv.Itoa(i+2))
		waitSiteNotice(b, "Section added.")
	}
	if got := s.order(t); got != "Handbook,Guides,API reference" {
		t.Fatalf("sections: %s", got)
	}
	st := s.structure(t)
	dragSiteItem(t, b, st.Sections[2].Section.ID, st.Sections[1].Section.ID, "before")
	waitSiteNotice(b, "Moved.")
	if got := s.order(t); got != "Handbook,API reference,Guides" {
		t.Fatalf("after the drag: %s", got)
	}

	b.Fill("textbox", "Name", "Partners")
	b.Click("button", "Create share link")
	waitSiteNotice(b, "Share link created.")
	if !b.Has("textbox", "Link Partners") {
		t.Error("no share link address to copy")
	}
	b.Click("button", "Publish")
	waitSiteNotice(b, "Site published.")
	published := h.URL + "/sites/" + s.site + "/"
	if !b.Has("link", published) || !b.Has("button", "Unpublish") {
		t.Errorf("published site: no link to %s or no Unpublish", published)
	}
	if !b.Has("link", "Customize") || !b.Has("link", "Edit Guides") || !b.Has("button", "Move Guides up") {
		t.Error("site page: no Customize link, or no controls on a section")
	}
	b.ShootViews("app-site-admin", "main h1")

	b.Click("link", "Edit Guides")
	b.WaitFor(`document.querySelector("main h1") && document.querySelector("main h1").textContent === "Guides"`)
	b.Fill("combobox", "Condition", "visitor.claims.isBeta &&")
	b.WaitFor(`document.getElementById("section-condition-check").textContent.startsWith("Condition: line 1, column")`)
	if b.JS(`String(document.getElementById("section-condition").validity.valid)`) != "false" {
		t.Error("a refused condition leaves the field valid")
	}
	b.ShootViews("app-site-section", "main h1")
}

// waitSiteNotice waits for the page's notice to begin with text.
func waitSiteNotice(b *testutil.BrowserPage, text string) {
	b.T.Helper()
	q, _ := json.Marshal(text)
	b.WaitFor(`document.querySelector("main [role=status]") && document.querySelector("main [role=status]").textContent.trim().startsWith(` + string(q) + `)`)
}

// dragSiteItem drops the site's item from onto the item to, at place
// (before, after or inside), with the events a mouse's drag and drop
// fires.
func dragSiteItem(t *testing.T, b *testutil.BrowserPage, from, to, place string) {
	t.Helper()
	q := func(s string) string { v, _ := json.Marshal(s); return string(v) }
	got := b.JS(`(function(){
		function row(id){return document.querySelector('li[data-page="'+CSS.escape(id)+'"] > .tree-row')}
		var src=row(` + q(from) + `), dst=row(` + q(to) + `);
		if(!src||!dst) return "missing";
		var box=dst.getBoundingClientRect(), y=box.top+box.height/2;
		if(` + q(place) + `==="before") y=box.top+2;
		if(` + q(place) + `==="after") y=box.bottom-2;
		var dt=new DataTransfer();
		function fire(el,type){el.dispatchEvent(new DragEvent(type,{bubbles:true,cancelable:true,dataTransfer:dt,clientX:box.left+10,clientY:y}))}
		fire(src,"dragstart"); fire(dst,"dragenter"); fire(dst,"dragover"); fire(dst,"drop"); fire(src,"dragend");
		return "ok"})()`)
	if got != "ok" {
		t.Fatalf("drag %s onto %s: %s", from, to, strings.TrimSpace(got))
	}
}
