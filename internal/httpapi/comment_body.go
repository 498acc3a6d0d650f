package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/service"
)

// commentBodyInput is the body of a comment or a reply, or the text of a
// review: a document (markdown or document), or the Markdown alone as a
// JSON string, which the published clients send in some places. A string
// is read as the document's markdown.
type commentBodyInput struct {
	doc documentInput
}

// UnmarshalJSON reads a string as Markdown and anything else as a
// document.
func (b *commentBodyInput) UnmarshalJSON(data []byte) error {
	*b = commentBodyInput{}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		var md string
		if err := json.Unmarshal(t, &md); err != nil {
			return err
		}
		b.doc.Markdown = &md
		return nil
	}
	return json.Unmarshal(data, &b.doc)
}

// Schema declares the body as one of a Markdown string and a document,
// with the limits of documentInput on both.
func (commentBodyInput) Schema(r huma.Registry) *huma.Schema {
	doc := huma.SchemaFromType(r, reflect.TypeFor[documentInput]())
	md := huma.SchemaFromField(r, markdownField(), "")
	md.Nullable = false
	md.Description = "The Markdown alone, read as a document's markdown"
	return &huma.Schema{
		Description: "Markdown, or a document object",
		OneOf:       []*huma.Schema{md, doc},
	}
}

// domain converts the body for the service; field names it in errors.
func (b commentBodyInput) domain(field string) (service.DocumentInput, error) {
	return b.doc.domain(field)
}

// markdownField is documentInput's markdown field, whose tags a Markdown
// string body shares.
func markdownField() reflect.StructField {
	f, _ := reflect.TypeFor[documentInput]().FieldByName("Markdown")
	return f
}
