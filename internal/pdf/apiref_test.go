package pdf

import (
	"context"
	"os"
	"strings"
	"testing"

	"quire/internal/apiref"
	"quire/internal/document"
)

// TestRenderOperationCard sets an openapi-operation block as the card of
// its operation, and one whose operation is unknown as a line naming it.
func TestRenderOperationCard(t *testing.T) {
	files := apiref.Files{}
	for _, n := range []string{"petstore-3.0.yaml", "schemas/pet.yaml"} {
		b, err := os.ReadFile("../apiref/testdata/" + n)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = string(b)
	}
	spec, problems := apiref.Parse(files, "petstore-3.0.yaml")
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	resolve := func(_ context.Context, slug, path, method string) (*apiref.Card, bool) {
		if slug != "pets" {
			return nil, false
		}
		return spec.Card(path, method)
	}
	op := func(slug, path, method string) document.Node {
		return document.Block(document.TypeOpenAPIOp, map[string]any{
			"ref": document.Ref{Kind: document.RefOpenAPI, Spec: slug}, "path": path, "method": method})
	}
	doc := document.New(op("pets", "/pets", "post"), op("pets", "/pets/{petId}", "get"), op("nope", "/x", "get"))
	path := renderBook(t, &Book{Title: "API", Pages: []Page{{ID: "a", Title: "Reference", Body: doc}}, Operations: resolve},
		findFonts([]string{t.TempDir()}))
	text := strings.Join(strings.Fields(pdfText(t, path)), " ")
	for _, want := range []string{"POST /pets", "Create a pet", "Request body (required)", "application/json", `"name": "Rex"`,
		"GET /pets/{petId}", "petId", "in path, required", "200 Expected response to a valid request", "one of dog, cat, bird",
		"https://petstore.example.com/v1/pets/{petId}", "GET /x (operation of the OpenAPI specification nope, not found)"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing from %s", want, text)
		}
	}
}
