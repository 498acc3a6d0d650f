package adaptive

import (
	"encoding/json"
	"reflect"
)

// maxClaimItems is the most items of an array claim a condition sees; the
// rest are dropped, so that no visitor makes a condition run long.
const maxClaimItems = 1000

// fit returns the claims as the schema declares them: undeclared ones
// dropped, missing or mistyped ones at their zero value.
func (s *Schema) fit(claims map[string]any) map[string]any {
	out := fitMembers(s.claims, claims)
	if s.unsigned != nil {
		in, _ := claims["unsigned"].(map[string]any)
		out["unsigned"] = fitMembers(s.unsigned, in)
	}
	return out
}

// fitMembers fits the members of an object of claims.
func fitMembers(declared map[string]*claim, in map[string]any) map[string]any {
	out := make(map[string]any, len(declared)+1)
	for name, c := range declared {
		out[name] = c.fit(in[name])
	}
	return out
}

// fit returns v as a value of the claim's type, or that type's zero value.
func (c *claim) fit(v any) any {
	switch c.kind {
	case kindBoolean:
		b, _ := v.(bool)
		return b
	case kindString:
		s, _ := v.(string)
		return s
	case kindNumber:
		return number(v)
	case kindArray:
		rv := reflect.ValueOf(v)
		if v == nil || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) {
			return []any{}
		}
		out := make([]any, min(rv.Len(), maxClaimItems))
		for i := range out {
			out[i] = c.items.fit(rv.Index(i).Interface())
		}
		return out
	default:
		m, _ := v.(map[string]any)
		return fitMembers(c.properties, m)
	}
}

// number reads any Go number, or a json.Number, as a float64; anything
// else is 0.
func number(v any) float64 {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint())
	}
	return 0
}
