package httpapi

import (
	"net/http"
	"slices"
	"testing"
)

// jOperation is an openapi-operation block showing an operation of the
// specification slug.
func jOperation(slug, path, method string) map[string]any {
	return map[string]any{"object": "block", "type": "openapi-operation", "isVoid": true, "data": map[string]any{
		"ref": map[string]any{"kind": "openapi", "spec": slug}, "path": path, "method": method},
		"nodes": []any{}, "fragments": []any{}}
}

// openAPILinkLines renders the items of a links list as "status
// relation kind spec" lines.
func openAPILinkLines(t *testing.T, list map[string]any) []string {
	t.Helper()
	var out []string
	for _, it := range items(t, list) {
		out = append(out, str(it, "status")+" "+str(it, "relation")+" "+str(it, "target.kind")+" "+str(it, "target.spec"))
	}
	return out
}

func TestLinksToOpenAPISpecs(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		creator := ts.token(cCreate)
		petstore := readSpecDoc(t, "petstore-3.1.yaml")
		for _, slug := range []string{"pets", "cats"} {
			ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), creator,
				map[string]any{"slug": slug, "source": map[string]any{"text": petstore}})
			ts.waitSpec(t, slug, "")
		}
		space := ts.newSpace(t, "API docs")
		cr := str(ts.newChangeRequest(t, space, "Reference"), "id")
		res := ts.writeContent(t, space, cr, insertPage("Reference", "Soon."))
		page := changedPage(t, res, 0)
		ts.writeContent(t, space, cr, updatePage(page, "document", jDoc(
			jOperation("pets", "/pets", "get"),
			jOperation("cats", "/nowhere", "delete"),
			jOperation("later", "/pets", "get"),
		)))
		ts.mergeCR(t, space, cr)

		reader := ts.token(cRead)
		list := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/links", reader, nil)
		want := []string{"ok dependsOn openapi pets", "broken dependsOn openapi cats", "broken dependsOn openapi later"}
		if got := openAPILinkLines(t, list); !slices.Equal(got, want) {
			t.Fatalf("links:\ngot  %q\nwant %q", got, want)
		}
		wantFields(t, list, map[string]any{"count": 3, "stats.total": 3, "stats.broken.total": 2})
		for i := range want {
			wantAbsent(t, items(t, list)[i], "targetReference")
		}
		broken := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/links?status=broken", reader, nil)
		if got := openAPILinkLines(t, broken); !slices.Equal(got, want[1:]) {
			t.Errorf("broken links: %q", got)
		}

		// The specification appears: the same revision's link is ok.
		ts.must(t, http.StatusCreated, "POST", ts.OrgPath("/openapi"), creator,
			map[string]any{"slug": "later", "source": map[string]any{"text": petstore}})
		ts.waitSpec(t, "later", "")
		list = ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/links", reader, nil)
		want[2] = "ok dependsOn openapi later"
		if got := openAPILinkLines(t, list); !slices.Equal(got, want) {
			t.Fatalf("links after the spec was created:\ngot  %q\nwant %q", got, want)
		}
		wantFields(t, list, map[string]any{"stats.broken.total": 1})

		// And it goes: broken again.
		ts.must(t, http.StatusResetContent, "DELETE", ts.specPath("later"), ts.token(cAdmin), nil)
		list = ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/links?status=broken", reader, nil)
		if got := openAPILinkLines(t, list); !slices.Equal(got, []string{want[1], "broken dependsOn openapi later"}) {
			t.Errorf("links after the spec was deleted: %q", got)
		}
	})
}
