package quire

import "encoding/json"

// Kinds of content reference.
const (
	RefURL             = "url"
	RefFile            = "file"
	RefPage            = "page"
	RefAnchor          = "anchor"
	RefUser            = "user"
	RefCollection      = "collection"
	RefSpace           = "space"
	RefReusableContent = "reusable-content"
	RefOpenAPI         = "openapi"
)

// ContentRef points at content: a file, a URL, a page, an anchor, a user,
// a collection, a space, a reusable content or an OpenAPI spec. Only the
// fields of its Kind are set. Pages (link targets, covers) and documents
// (links, images, files) hold the same type.
type ContentRef struct {
	Kind            string `json:"kind"`
	URL             string `json:"url,omitempty"`
	File            string `json:"file,omitempty"`
	Page            string `json:"page,omitempty"`
	Anchor          string `json:"anchor,omitempty"`
	Space           string `json:"space,omitempty"`
	User            string `json:"user,omitempty"`
	Collection      string `json:"collection,omitempty"`
	ReusableContent string `json:"reusableContent,omitempty"`
	Spec            string `json:"spec,omitempty"`
}

// ContentRefField returns the JSON name of the string field a reference
// of kind must carry, or "" for an unknown kind.
func ContentRefField(kind string) string {
	switch kind {
	case RefURL:
		return "url"
	case RefFile:
		return "file"
	case RefPage:
		return "page"
	case RefAnchor:
		return "anchor"
	case RefUser:
		return "user"
	case RefCollection:
		return "collection"
	case RefSpace:
		return "space"
	case RefReusableContent:
		return "reusableContent"
	case RefOpenAPI:
		return "spec"
	}
	return ""
}

// SetField assigns the field of JSON name name (other than kind) and
// reports whether the name is one of a reference's fields.
func (r *ContentRef) SetField(name, value string) bool {
	switch name {
	case "kind":
	case "url":
		r.URL = value
	case "file":
		r.File = value
	case "page":
		r.Page = value
	case "anchor":
		r.Anchor = value
	case "space":
		r.Space = value
	case "user":
		r.User = value
	case "collection":
		r.Collection = value
	case "reusableContent":
		r.ReusableContent = value
	case "spec":
		r.Spec = value
	default:
		return false
	}
	return true
}

// MarshalJSON writes the reference with its kind's required field, even
// when empty, and the other fields that are set, in a fixed order.
func (r ContentRef) MarshalJSON() ([]byte, error) {
	buf := []byte(`{"kind":`)
	buf = appendJSONString(buf, r.Kind)
	required := ContentRefField(r.Kind)
	fields := [...]struct{ name, value string }{
		{"url", r.URL}, {"file", r.File}, {"page", r.Page}, {"anchor", r.Anchor},
		{"space", r.Space}, {"user", r.User}, {"collection", r.Collection},
		{"reusableContent", r.ReusableContent}, {"spec", r.Spec},
	}
	for _, f := range fields {
		if f.value == "" && f.name != required {
			continue
		}
		buf = append(buf, ',')
		buf = appendJSONString(buf, f.name)
		buf = append(buf, ':')
		buf = appendJSONString(buf, f.value)
	}
	return append(buf, '}'), nil
}

// appendJSONString appends s as encoding/json writes it.
func appendJSONString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(buf, b...)
}
