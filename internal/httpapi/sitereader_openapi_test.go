package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestSiteReaderOpenAPIOperations checks that a published page shows an
// openapi-operation block as its operation's reference card, from the
// organization's specification, and a note for an operation or a
// specification that cannot be found.
func TestSiteReaderOpenAPIOperations(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), ts.token(cCreate),
			map[string]any{"slug": "pets", "source": map[string]any{"text": readSpecDoc(t, "petstore-3.1.yaml")}})
		ts.waitSpec(t, "pets", "")

		space := ts.newSpace(t, "API")
		cr := str(ts.newChangeRequest(t, space, "Reference"), "id")
		page := changedPage(t, ts.writeContent(t, space, cr, insertPage("Reference", "Soon.")), 0)
		ts.writeContent(t, space, cr, updatePage(page, "document", jDoc(
			jOperation("pets", "/pets", "get"),
			jOperation("pets", "/nowhere", "delete"),
			jOperation("gone", "/pets", "get"),
		)))
		ts.mergeCR(t, space, cr)
		site := ts.newSite(t, map[string]any{"title": "API", "spaces": []string{space}})
		ts.must(t, 200, "PATCH", ts.sitePath(site, ""), admin, map[string]any{"basename": "api"})
		ts.must(t, 200, "POST", ts.sitePath(site, "/publish"), admin, nil)

		r := ts.wantVisit(t, 200, "/sites/api/", []string{
			`class="openapi-card openapi-operation"`, `data-operation="listPets"`,
			`<span class="method method-get">GET</span>`, `<code class="openapi-path">/pets</code>`, "List all pets",
			"Parameters", "<code>limit</code>", `<span class="openapi-in">in query</span>`,
			"Responses", `<code class="openapi-status">200</code>`, "A paged array of pets",
			"<code>id</code>", "<code>name</code>", "Rex",
		})
		body := string(r.Body)
		notes := strings.Count(body, `class="openapi-card openapi-missing"`)
		if notes != 2 || !strings.Contains(body, `<code class="openapi-path">/nowhere</code>`) ||
			!strings.Contains(body, "not found in the OpenAPI specification “pets”") ||
			!strings.Contains(body, "not found in the OpenAPI specification “gone”") {
			t.Fatalf("missing operations: %d notes in %s", notes, body[strings.Index(body, "<main"):])
		}

		// The specification deleted, its operation is a note at the next
		// request.
		ts.must(t, http.StatusResetContent, "DELETE", ts.specPath("pets"), admin, nil)
		r = ts.wantVisit(t, 200, "/sites/api/", nil)
		if body := string(r.Body); strings.Contains(body, `class="openapi-card openapi-operation"`) ||
			strings.Count(body, `class="openapi-card openapi-missing"`) != 3 {
			t.Fatalf("after the specification was deleted: %s", body[strings.Index(body, "<main"):])
		}
	})
}
