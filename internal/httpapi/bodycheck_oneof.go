package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json/jsontext"
)

// typedAlternatives are the alternatives of a oneOf schema whose
// alternatives all have a type, each a different one, by the kind of JSON
// value each admits.
type typedAlternatives struct {
	byKind map[jsontext.Kind]*huma.Schema
	// types lists the alternatives' types, in order, for messages.
	types []string
}

// typedOneOf returns the alternatives of s when s is a oneOf that the type
// of a value alone decides, or nil.
func (sc *jsonScan) typedOneOf(s *huma.Schema) *typedAlternatives {
	if s == nil || sc.reg == nil {
		return nil
	}
	if s.Ref != "" {
		if s = sc.reg.SchemaFromRef(s.Ref); s == nil {
			return nil
		}
	}
	if len(s.OneOf) < 2 {
		return nil
	}
	alts := &typedAlternatives{byKind: map[jsontext.Kind]*huma.Schema{}}
	for _, alt := range s.OneOf {
		r := alt
		if r.Ref != "" {
			if r = sc.reg.SchemaFromRef(r.Ref); r == nil {
				return nil
			}
		}
		kinds := kindsOf(r.Type)
		if kinds == nil {
			return nil
		}
		for _, k := range kinds {
			if alts.byKind[k] != nil {
				return nil
			}
			alts.byKind[k] = alt
		}
		alts.types = append(alts.types, r.Type)
	}
	return alts
}

// kindsOf returns the kinds of JSON value a schema type admits, or nil for
// a schema without a type.
func kindsOf(typ string) []jsontext.Kind {
	switch typ {
	case huma.TypeString:
		return []jsontext.Kind{'"'}
	case huma.TypeObject:
		return []jsontext.Kind{'{'}
	case huma.TypeArray:
		return []jsontext.Kind{'['}
	case huma.TypeBoolean:
		return []jsontext.Kind{'t', 'f'}
	case huma.TypeNumber, huma.TypeInteger:
		return []jsontext.Kind{'0'}
	}
	return nil
}

// oneOfValue reads a value whose schema is a oneOf of alts: the value must
// be of the type of one alternative, and is checked against that one,
// members included.
func (sc *jsonScan) oneOfValue(alts *typedAlternatives, path string) error {
	kind := sc.dec.PeekKind()
	alt := alts.byKind[kind]
	if alt == nil {
		if kind == 0 || kind == 'n' {
			// A syntax error, reported by the decoder, or a null left
			// to the framework's own checks.
			return sc.dec.SkipValue()
		}
		return &memberError{fmt.Sprintf("%s: expected %s", fieldOrBody(path), strings.Join(alts.types, " or "))}
	}
	start := sc.dec.InputOffset()
	if err := sc.value(alt, path); err != nil {
		return err
	}
	// The offset before the value may stand before the separator that
	// precedes it.
	raw := bytes.TrimLeft(sc.data[start:sc.dec.InputOffset()], " \t\r\n:,")
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return &memberError{fmt.Sprintf("%s: %v", fieldOrBody(path), err)}
	}
	res := &huma.ValidateResult{}
	huma.Validate(sc.reg, alt, huma.NewPathBuffer([]byte(path), len(path)), huma.ModeWriteToServer, v, res)
	if len(res.Errors) == 0 {
		return nil
	}
	// The first error is the one named.
	e := res.Errors[0]
	var d huma.ErrorDetailer
	if errors.As(e, &d) {
		detail := d.ErrorDetail()
		return &memberError{fmt.Sprintf("%s: %s", fieldOrBody(detail.Location), detail.Message)}
	}
	return &memberError{fmt.Sprintf("%s: %v", fieldOrBody(path), e)}
}

// fieldOrBody names a field path in a message, the body itself when the
// path is empty.
func fieldOrBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

// memberError is a refusal of a value that already names the member at
// fault.
type memberError struct{ msg string }

// Error implements error.
func (e *memberError) Error() string { return e.msg }
