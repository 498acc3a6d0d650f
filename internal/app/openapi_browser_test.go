package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"quire/internal/service"
	"quire/internal/testutil"
)

// openOperationPicker opens the insert menu of the page's Markdown from
// its toolbar, with the cursor at the end, and chooses "API operation":
// the operations of the organization's specifications are listed.
func openOperationPicker(b *testutil.BrowserPage) {
	b.T.Helper()
	b.WaitFor(`document.querySelector("textarea[data-markdown][data-md-ready]")`)
	focusEnd(b)
	b.Click("button", "Insert block")
	b.WaitFor(`!document.getElementById("md-insert-menu").hidden`)
	b.Click("option", "API operation")
	b.WaitFor(`document.getElementById("md-insert-menu").getAttribute("aria-label") === "Insert API operation" && !document.getElementById("md-insert-menu").hidden`)
}

// TestOpenAPIBrowser adds a specification from a file as the admin in a
// real browser, sees its page reload itself until it is processed, then
// in the Markdown editor of a page inserts one of its operations from
// the insert menu and sees the operation's card in the preview and on
// the saved page. Screenshots show the list, the specification and the
// open picker.
func TestOpenAPIBrowser(t *testing.T) {
	var oas openAPIOf
	h := newHarness(t, "sqlite", oas.option())
	specs := oas.of(h)
	f := newSpaceFixture(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	org := h.URL + "/app/o/" + h.Org

	b.Open(org+"/openapi", http.StatusOK)
	b.H1("OpenAPI specifications")
	b.Fill("textbox", "Slug", "petstore")
	text, _ := json.Marshal(petstoreV2)
	b.JS(`(function(){var l=Array.from(document.querySelectorAll("label")).find(l=>l.textContent==="Or a file");` +
		`var dt=new DataTransfer();dt.items.add(new File([` + string(text) + `],"petstore.yaml",{type:"application/yaml"}));` +
		`l.control.files=dt.files;return ""})()`)
	b.Click("button", "Add specification")
	b.WaitFor(`location.pathname.endsWith("/openapi/petstore") && document.querySelector("main").textContent.includes("pending Waiting to be processed")`)
	if b.JS(`document.querySelector("main [role=status]").textContent`) != "The specification was added. It is processed in the background: this page shows how it goes." {
		t.Error("no notice of the addition")
	}
	// The queue's worker would run now; the page, reloading itself,
	// shows the outcome.
	openAPIProcess(t, h, specs, "petstore")
	b.WaitFor(`document.querySelector("main").textContent.includes("complete Processed")`)
	for _, c := range [][2]string{{"table", "Versions"}, {"button", "Save visibility"}, {"button", "Delete specification"}, {"combobox", "Who may read its files"}} {
		if !b.Has(c[0], c[1]) {
			t.Errorf("the specification's page has no %s named %q", c[0], c[1])
		}
	}
	b.ShootViews("app-openapi-spec", "main h1")
	b.Open(org+"/openapi", http.StatusOK)
	if !b.Has("link", "petstore") || !b.Has("table", "OpenAPI specifications") {
		t.Error("the list does not show the specification")
	}
	// A specification given by URL whose second file breaks: the
	// problem with its file and line, and Refresh now.
	var files specFiles
	files.set("/zoo/openapi.yaml", brokenRefMain)
	files.set("/zoo/schemas.yaml", brokenSchemas)
	if _, err := specs.Create(context.Background(), h.Org, "zoo", service.OpenAPISource{URL: files.serve(t) + "/zoo/openapi.yaml"}); err != nil {
		t.Fatal(err)
	}
	openAPIProcess(t, h, specs, "zoo")
	b.Open(org+"/openapi/zoo", http.StatusOK)
	if !b.Has("heading", "Problems of the last processing") || !b.Has("button", "Refresh now") {
		t.Error("the failed specification's page shows no problems or no Refresh now")
	}
	b.ShootViews("app-openapi-spec-failed", "main h1")
	b.Open(org+"/openapi", http.StatusOK)
	b.ShootViews("app-openapi-list", "main h1")

	// The editor: the picker, at both widths in both themes (each change
	// of theme opens the page again, so the picker is opened again).
	editPage := h.URL + "/app/s/" + f.Space.ID + "/~/edit/" + strconv.Itoa(f.Open) + "/pages/" + f.Install
	b.Open(editPage+"/markdown", http.StatusOK)
	for _, v := range []struct {
		view, theme string
		width       int64
	}{{"desktop", "light", 1280}, {"desktop", "dark", 1280}, {"phone", "dark", 390}, {"phone", "light", 390}} {
		b.Viewport(v.width, 844, v.width < 800)
		b.Theme(v.theme)
		openOperationPicker(b)
		b.Shoot("app-openapi-insert-" + v.view + "-" + v.theme + ".png")
	}
	b.Viewport(1280, 900, false)
	b.Theme("light")
	openOperationPicker(b)
	if !b.Has("option", "GET /pets · List pets (petstore)") {
		t.Fatal("the picker does not list the operations")
	}
	b.Click("option", "GET /pets/{petId} · Find a pet (petstore)")
	b.WaitFor(`document.querySelector("textarea[data-markdown]").value.endsWith("\n\n{% openapi-operation spec=\"petstore\" path=\"/pets/{petId}\" method=\"get\" %}\n{% endopenapi-operation %}")`)
	b.WaitFor(`document.querySelector("[data-operation=findPet]") && document.querySelector("[data-operation=findPet]").textContent.includes("Find a pet")`)
	b.WaitFor(`document.querySelector("form[data-markdown-form] [role=status]").textContent === "Saved"`)
	b.Shoot("app-openapi-preview-desktop-light.png")

	b.Open(h.URL+"/app/s/"+f.Space.ID+"/~/changes/"+strconv.Itoa(f.Open)+"/guides/install", http.StatusOK)
	b.WaitFor(`document.querySelector("main [data-operation=findPet]")`)
}
