package httpapi

import (
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// nullable is a request field that distinguishes "omitted" (Set false),
// "null" (Set and Null) and a value.
type nullable[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON records that the field was present.
func (n *nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	if string(b) == "null" {
		n.Null = true
		return nil
	}
	return json.Unmarshal(b, &n.Value)
}

// Schema describes the field as its value type, nullable.
func (n nullable[T]) Schema(r huma.Registry) *huma.Schema {
	s := huma.SchemaFromType(r, reflect.TypeOf(n.Value))
	s.Nullable = true
	return s
}

// ptr returns nil when omitted, else a pointer to the value (the zero
// value for null).
func (n nullable[T]) ptr() *T {
	if !n.Set {
		return nil
	}
	v := n.Value
	return &v
}
