package httpapi

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
)

// registerDomainSchemas gives the domain's union types, whose JSON is one
// of several shapes, their schemas: the domain package depends on the
// standard library only, so it cannot describe them to the framework
// itself. Each is declared in the domain as a struct whose fields are the
// alternatives (one set at a time), with the tags of each; the schema is
// the oneOf of those fields.
func registerDomainSchemas(r huma.Registry) {
	r.RegisterTypeAlias(reflect.TypeFor[quire.CustomizationFont](), reflect.TypeFor[oneOfFields[quire.CustomizationFont]]())
	r.RegisterTypeAlias(reflect.TypeFor[quire.CustomizationMonospaceFont](), reflect.TypeFor[oneOfFields[quire.CustomizationMonospaceFont]]())
}

// oneOfFields describes the struct T as the oneOf of its exported fields'
// schemas, read from their types and tags.
type oneOfFields[T any] struct{}

// Schema returns the oneOf of T's fields.
func (oneOfFields[T]) Schema(r huma.Registry) *huma.Schema {
	t := reflect.TypeFor[T]()
	s := &huma.Schema{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fs := huma.SchemaFromField(r, f, t.Name()+f.Name)
		fs.Nullable = false
		s.OneOf = append(s.OneOf, fs)
	}
	return s
}
