package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// menuItem is an entry of the insert menu's lists.
type menuItem struct {
	Name     string   `json:"name"`
	Keywords []string `json:"keywords"`
	Type     string   `json:"type"`
	Markdown string   `json:"markdown"`
	List     string   `json:"list"`
}

// menuItems decodes a list of the insert menu.
func menuItems(t *testing.T, body string) []menuItem {
	t.Helper()
	var out []menuItem
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("not a list of entries: %v\n%s", err, body)
	}
	return out
}

// findPetBlock is the block of petstoreV2's second operation, as the
// insert menu gives it.
const findPetBlock = "{% openapi-operation spec=\"petstore\" path=\"/pets/{petId}\" method=\"get\" %}\n{% endopenapi-operation %}\n"

// TestOpenAPIInsertList checks the insert menu's entry for an API
// operation and the list it opens: the operations of the organization's
// processed specifications, each inserting its block, read at the
// space's read level.
func TestOpenAPIInsertList(t *testing.T) {
	t.Parallel()
	var oas openAPIOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		specs := oas.of(h)
		f := newSpaceFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))

		_, _, body := h.get(t, admin, "/app/~/blocks.json")
		var entry *menuItem
		for _, it := range menuItems(t, body) {
			if it.Name == "API operation" {
				entry = &it
			}
		}
		if entry == nil || entry.List != "openapi.json" || entry.Type != "openapi-operation" {
			t.Fatalf("the insert menu's API operation entry: %+v", entry)
		}

		list := "/app/s/" + f.Space.ID + "/~/openapi.json"
		if status, _, body := h.get(t, admin, list); status != http.StatusOK || strings.TrimSpace(body) != "[]" {
			t.Fatalf("no specification: %d %s", status, body)
		}
		for slug, text := range map[string]string{"petstore": petstoreV2, "broken": "openapi: [not a document"} {
			if _, err := specs.Create(ctx, h.Org, slug, service.OpenAPISource{Text: text}); err != nil {
				t.Fatal(err)
			}
			openAPIProcess(t, h, specs, slug)
		}
		if _, err := specs.Create(ctx, h.Org, "later", service.OpenAPISource{Text: petstore}); err != nil {
			t.Fatal(err)
		}
		status, _, body := h.get(t, admin, list)
		items := menuItems(t, body)
		if status != http.StatusOK || len(items) != 2 {
			t.Fatalf("the operations: %d %+v", status, items)
		}
		if items[0].Name != "GET /pets · List pets (petstore)" || items[1].Name != "GET /pets/{petId} · Find a pet (petstore)" ||
			items[1].Markdown != findPetBlock || items[1].Type != "openapi-operation" ||
			strings.Join(items[1].Keywords, ",") != "petstore,Petstore,findPet" {
			t.Errorf("the operations: %+v", items)
		}

		// A reader of the space reads it; an outsider finds nothing.
		reader := h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
		if status, _, body := h.get(t, reader, list); status != http.StatusOK || len(menuItems(t, body)) != 2 {
			t.Errorf("a reader: %d", status)
		}
		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		if status, _, _ := h.get(t, outsider, list); status != http.StatusNotFound {
			t.Errorf("an outsider: %d", status)
		}
	}, oas.option())
}

// TestOpenAPIBlockPreview draws an inserted operation block through the
// editor's preview route and after saving: the operation's card from the
// organization's specification, or a note for one it does not have.
func TestOpenAPIBlockPreview(t *testing.T) {
	t.Parallel()
	var oas openAPIOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		specs := oas.of(h)
		f := newSpaceFixture(t, h)
		if _, err := specs.Create(ctx, h.Org, "petstore", service.OpenAPISource{Text: petstoreV2}); err != nil {
			t.Fatal(err)
		}
		openAPIProcess(t, h, specs, "petstore")
		admin := h.client(t, h.signIn(t, h.Admin))
		editPage := "/app/s/" + f.Space.ID + "/~/edit/" + strconv.Itoa(f.Open) + "/pages/" + f.Install
		missing := "{% openapi-operation spec=\"petstore\" path=\"/owners\" method=\"get\" %}\n{% endopenapi-operation %}\n"
		md := "Calling the API:\n\n" + findPetBlock + "\n" + missing

		status, prev := h.editorJSON(t, admin, http.MethodPost, editPage+"/preview", url.Values{"markdown": {md}})
		html, _ := prev["text"].(string)
		card := []string{`<div class="openapi-card openapi-operation" data-operation="findPet">`, "Find a pet", ">petId<",
			`<code class="openapi-path">/owners</code>`, "This operation was not found in the OpenAPI specification “petstore”."}
		if status != http.StatusOK {
			t.Fatalf("the preview: %d %v", status, prev)
		}
		for _, want := range card {
			if !strings.Contains(html, want) {
				t.Errorf("the preview does not show %q\n%s", want, html)
			}
		}

		_, _, form := h.get(t, admin, editPage+"/markdown")
		i := strings.Index(form, `name="base" value="`)
		if i < 0 {
			t.Fatal("no base in the Markdown form")
		}
		base := form[i+len(`name="base" value="`):]
		base = base[:strings.Index(base, `"`)]
		if status, _, body := h.postForm(t, admin, editPage+"/markdown", url.Values{"markdown": {md}, "base": {base}}); status != http.StatusSeeOther {
			t.Fatalf("saving: %d\n%s", status, problemText(body))
		}
		_, _, page := h.get(t, admin, "/app/s/"+f.Space.ID+"/~/changes/"+strconv.Itoa(f.Open)+"/guides/install")
		for _, want := range card {
			if !strings.Contains(page, want) {
				t.Errorf("the saved page does not show %q", want)
			}
		}
		_, _, form = h.get(t, admin, editPage+"/markdown")
		if !strings.Contains(form, strings.ReplaceAll(findPetBlock, `"`, "&#34;")) {
			t.Errorf("the block is not kept as inserted")
		}
	}, oas.option())
}
