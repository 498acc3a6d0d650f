package reader

import (
	"strings"
	"testing"

	"quire/internal/apiref"
	"quire/internal/document"
)

// TestOperationCard renders an operation's full reference card, escaped,
// and a note for an operation that cannot be found.
func TestOperationCard(t *testing.T) {
	op := &apiref.Card{Method: "POST", Path: "/pets/{petId}/toys", OperationID: "addToy", Summary: "Add a toy",
		Deprecated: true, Servers: []string{"https://api.example.com/v1/"},
		Parameters: []apiref.Parameter{{Name: "petId", In: "path", Required: true, Schema: &apiref.Schema{Type: "integer"},
			Description: "The <pet>"}},
		RequestBody: &apiref.Body{Required: true, Contents: []apiref.Media{{Type: "application/json",
			Schema: &apiref.Schema{Name: "Toy", Type: "object", Properties: []apiref.Property{
				{Name: "kind", Required: true, Schema: &apiref.Schema{Type: "string", Enum: []string{"ball", "rope"}}},
				{Name: "maker", Schema: &apiref.Schema{Type: "object", Properties: []apiref.Property{{Name: "country", Schema: &apiref.Schema{Type: "string"}}}}},
			}}, Example: `{"kind": "ball"}`}}},
		Responses: []apiref.Response{{Status: "201", Description: "Added"}, {Status: "404", Description: "No such pet"}},
	}
	block := func(path string) document.Node {
		return document.Block(document.TypeOpenAPIOp, map[string]any{"method": "post", "path": path,
			"ref": map[string]any{"kind": "openapi", "spec": "pets"}})
	}
	p := &Page{Title: "API", Document: document.New(block("/pets/{petId}/toys"), block("/gone")), Resolvers: Resolvers{
		OpenAPI: func(n document.Node) *OpenAPICard {
			if n.Data["path"] == op.Path {
				return &OpenAPICard{Operation: op}
			}
			return &OpenAPICard{Method: "POST", Path: "/gone", Missing: "Not found in “pets”."}
		},
	}}
	_, out := renderFixture(t, p)
	for _, want := range []string{
		`<div class="openapi-card openapi-operation" data-operation="addToy">`,
		`<span class="method method-post">POST</span> <code class="openapi-path">/pets/{petId}/toys</code>`,
		`<span class="deprecated">Deprecated</span>`, "https://api.example.com/v1/pets/{petId}/toys",
		`<li><code>petId</code> <span class="schema-type">integer</span> <span class="openapi-in">in path</span> <span class="required">required</span> — The &lt;pet&gt;`,
		`Request body <span class="required">required</span>`, `application/json: <span class="schema-type">Toy (object)</span>`,
		`<code>kind</code>`, "one of ball, rope", "<code>country</code>", `{&#34;kind&#34;: &#34;ball&#34;}`,
		`<code class="openapi-status">404</code> No such pet`,
		`<div class="openapi-card openapi-missing"><span class="method method-post">POST</span> <code class="openapi-path">/gone</code><p class="openapi-note">Not found in “pets”.</p>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
