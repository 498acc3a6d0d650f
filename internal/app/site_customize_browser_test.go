package app_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
)

// previewLooks is a script reading what the preview's frame shows: the
// background of its header's button (the primary color, computed), and
// the site's title in its header.
const previewLooks = `(() => {
  const d = document.querySelector('iframe[title="Preview"]').contentDocument;
  const button = d && d.querySelector(".header-links .button"), brand = d && d.querySelector(".brand");
  if (!button || !brand) return "";
  return getComputedStyle(button).backgroundColor + " " + brand.textContent.trim();
})()`

// TestSiteCustomizeBrowser has an admin change a site's primary color
// and title in a real browser and watch the preview beside the form
// draw them before anything is saved, then save; screenshots of the
// page with its preview.
func TestSiteCustomizeBrowser(t *testing.T) {
	h := newHarness(t, "sqlite", withSites())
	f := newCustomizeFixture(t, h)
	// A button in the header, drawn in the primary color.
	c := quire.DefaultSiteCustomization()
	c.Header.Links = []quire.CustomizationHeaderItem{{Title: "Support", Style: "button-primary",
		To: &quire.CustomizationHeaderTarget{ContentRef: quire.ContentRef{Kind: quire.RefURL, URL: "https://support.example/"}}}}
	if _, err := f.Sites.PutSiteCustomization(context.Background(), h.Org, f.Site.ID, c); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	b.Open(h.URL+f.Page, http.StatusOK)
	b.H1("Customize Docs portal")
	b.WaitFor(previewLooks + ` === "rgb(52, 109, 219) Docs portal"`)
	// Beside the form, the preview draws the site at a desktop's width,
	// header links showing, half its size.
	if w, _ := strconv.Atoi(b.JS(`String(document.querySelector('iframe[title="Preview"]').contentWindow.innerWidth)`)); w <= 800 {
		t.Errorf("the preview is drawn %d pixels wide", w)
	}

	b.Fill("textbox", "Primary color (light)", "#c0392b")
	b.Fill("textbox", "Title", "Acme handbook")
	b.WaitFor(previewLooks + ` === "rgb(192, 57, 43) Acme handbook"`)
	if got := f.stored(t); got.Title != "" || got.Styling.PrimaryColor.Light != "#346DDB" {
		t.Fatalf("saved before saving: %+v", got)
	}

	b.Click("button", "Save customization")
	b.WaitFor(`document.querySelector('[role="status"]') && document.querySelector('[role="status"]').textContent.includes("customization was saved")`)
	if got := f.stored(t); got.Title != "Acme handbook" || got.Styling.PrimaryColor.Light != "#c0392b" {
		t.Fatalf("after saving: %+v", got)
	}
	b.WaitFor(previewLooks + ` === "rgb(192, 57, 43) Acme handbook"`)
	if got := b.JS(`document.querySelector('[role="status"]').textContent`); !strings.Contains(got, "The site’s customization was saved.") {
		t.Errorf("notice: %q", got)
	}
	b.ShootViews("app-site-customize", `iframe[title="Preview"]`)
}
