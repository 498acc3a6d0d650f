package httpapi

import (
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// init installs the API's error constructor in the framework, whose
// constructor is package state of the library. It is a pure function, the
// same for every server, and is set once before any server exists.
func init() { huma.NewError = humaError }

// humaConfig configures the contract layer: OpenAPI 3.1 at
// /v1/openapi.json, no docs UI, no schema links in bodies, plain JSON
// errors, and bodies that write their own JSON (jsonFormat). Objects
// admit members they do not declare unless input is strict; the same
// setting drives validation and the document.
func (s *Server) humaConfig() huma.Config {
	cfg := huma.DefaultConfig("Quire API", "1.0.0")
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", schemaName)
	registerDomainSchemas(cfg.Components.Schemas)
	cfg.AllowAdditionalPropertiesByDefault = !s.cfg.StrictInput
	cfg.Info.Description = "Self-hostable documentation platform management API."
	cfg.CreateHooks = nil
	jf := jsonFormat()
	cfg.Formats = map[string]huma.Format{"application/json": jf, "json": jf}
	cfg.OpenAPIPath = "/v1/openapi"
	cfg.DocsPath = ""
	cfg.SchemasPath = ""
	cfg.Servers = []*huma.Server{{URL: s.cfg.BaseURL}}
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"user": {Type: "http", Scheme: "bearer"},
	}
	cfg.Security = []map[string][]string{{"user": {}}}
	return cfg
}

// schemaName names response and request shapes in the OpenAPI document
// after the API objects they are, not after their Go types.
func schemaName(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	name = strings.ReplaceAll(name, "JSON", "")
	name = strings.ReplaceAll(name, "Org", "Organization")
	name = strings.ReplaceAll(name, "Organizationanization", "Organization")
	return name
}

// dropUnprocessable removes the 422 responses the framework documents for
// validated operations: validation failures answer 400 in this API.
func dropUnprocessable(api huma.API) {
	for _, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op != nil {
				delete(op.Responses, "422")
			}
		}
	}
}
