package document

import (
	"encoding/json"
	"slices"

	"quire/internal/quire"
)

// dataValidator checks one data object against the schema of its type,
// recording the first error.
type dataValidator struct {
	path string
	data map[string]any
	err  error
}

func (v *dataValidator) fail(field, format string, args ...any) {
	if v.err == nil {
		v.err = perr(v.path+"."+field, format, args...)
	}
}

func (v *dataValidator) str(field string, required bool, enum ...string) {
	x, ok := v.data[field]
	if !ok {
		if required {
			v.fail(field, "required string")
		}
		return
	}
	s, ok := x.(string)
	if !ok {
		v.fail(field, "must be a string")
		return
	}
	if len(enum) > 0 && !containsStr(enum, s) {
		v.fail(field, "unknown value %q", s)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (v *dataValidator) boolean(field string) {
	if x, ok := v.data[field]; ok {
		if _, isBool := x.(bool); !isBool {
			v.fail(field, "must be a boolean")
		}
	}
}

// strings checks an optional array of strings.
func (v *dataValidator) strings(field string) {
	x, ok := v.data[field]
	if !ok {
		return
	}
	arr, isArr := x.([]any)
	if !isArr {
		v.fail(field, "must be an array of strings")
		return
	}
	for _, e := range arr {
		if _, isStr := e.(string); !isStr {
			v.fail(field, "must be an array of strings")
			return
		}
	}
}

func (v *dataValidator) number(field string) {
	if x, ok := v.data[field]; ok {
		if _, isNum := x.(json.Number); !isNum {
			v.fail(field, "must be a number")
		}
	}
}

func (v *dataValidator) object(field string, required bool) {
	x, ok := v.data[field]
	if !ok {
		if required {
			v.fail(field, "required object")
		}
		return
	}
	if _, isObj := x.(map[string]any); !isObj {
		v.fail(field, "must be an object")
	}
}

func (v *dataValidator) length(field string) {
	x, ok := v.data[field]
	if !ok {
		return
	}
	switch l := x.(type) {
	case json.Number:
	case map[string]any:
		if _, ok := l["unit"].(string); !ok {
			v.fail(field+".unit", "required string")
		}
		if _, ok := l["value"].(json.Number); !ok {
			v.fail(field+".value", "required number")
		}
	default:
		v.fail(field, "must be a number or {unit, value}")
	}
}

// ref validates a content reference and stores it as a Ref.
func (v *dataValidator) ref(field string, required bool, kinds ...string) {
	x, ok := v.data[field]
	if !ok {
		if required {
			v.fail(field, "required content reference")
		}
		return
	}
	m, ok := x.(map[string]any)
	if !ok {
		v.fail(field, "must be an object")
		return
	}
	kind, _ := m["kind"].(string)
	name := quire.ContentRefField(kind)
	if name == "" {
		v.fail(field+".kind", "unknown reference kind %q", kind)
		return
	}
	if len(kinds) > 0 && !containsStr(kinds, kind) {
		v.fail(field+".kind", "reference kind %q is not allowed here", kind)
		return
	}
	r := Ref{Kind: kind}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s, isStr := m[k].(string)
		if !isStr {
			v.fail(field+"."+k, "must be a string")
			return
		}
		if !r.SetField(k, s) {
			v.fail(field+"."+k, "unknown field")
			return
		}
	}
	if m[name] == nil {
		v.fail(field+"."+name, "required string")
		return
	}
	v.data[field] = r
}

// only rejects fields other than the listed ones.
func (v *dataValidator) only(fields ...string) {
	keys := make([]string, 0, len(v.data))
	for k := range v.data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !containsStr(fields, k) {
			v.fail(k, "unknown field")
		}
	}
}
