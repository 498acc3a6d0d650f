package adaptive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Draft07 is the only $schema a visitor schema may name.
const Draft07 = "http://json-schema.org/draft-07/schema#"

// UnsignedDescription is the description the published shape requires of
// the schema's "unsigned" object, word for word.
const UnsignedDescription = "Unsigned claims of the site visitor."

// Schema is a parsed visitor schema (the jsonSchema of a site's adaptive
// schema): the claims a visitor may bring, signed ones at the top and the
// ones the visitor sets without a signature under "unsigned". It is
// immutable and safe for concurrent use.
type Schema struct {
	raw      []byte            // the document, compact
	digest   string            // identifies the document in caches
	claims   map[string]*claim // signed claims
	unsigned map[string]*claim // nil when the schema has no unsigned object
	env      types.Map         // the condition environment
}

// claimKind is the JSON Schema type of a claim.
type claimKind string

const (
	kindBoolean claimKind = "boolean"
	kindString  claimKind = "string"
	kindNumber  claimKind = "number"
	kindArray   claimKind = "array"
	kindObject  claimKind = "object"
)

// claim is one declared visitor attribute.
type claim struct {
	kind        claimKind
	description string
	enum        []string          // a string claim's closed set of values, or nil
	hasEnum     bool              // the string claim declares enum (possibly empty)
	items       *claim            // an array claim's items
	properties  map[string]*claim // an object claim's members
}

// ParseSchema reads a visitor schema: a draft-07 JSON Schema (checked
// against the draft-07 meta-schema) in the shape the API publishes for
// SiteAdaptiveJSONSchema:
//
//	{
//	  "$schema": "http://json-schema.org/draft-07/schema#",   (optional)
//	  "type": "object",
//	  "properties": {
//	    "<claim>": <claim schema>, ...
//	    "unsigned": {                                         (optional)
//	      "type": "object",
//	      "description": "Unsigned claims of the site visitor.",
//	      "properties": {"<claim>": <claim schema>, ...},
//	      "additionalProperties": false
//	    }
//	  },
//	  "additionalProperties": false
//	}
//
// where a claim schema is {"type": "boolean"|"number", "description"},
// {"type": "string", "description", "enum"?: [strings]}, {"type":
// "array", "description", "items": <boolean, string or number claim
// schema>} or {"type": "object", "description", "properties": {<claim
// schemas>}, "additionalProperties": false}, and nothing else.
//
// A refused schema gives a *SchemaError naming where the problem is.
func ParseSchema(raw []byte) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, &SchemaError{Message: "the schema is not valid JSON: " + err.Error()}
	}
	metaErr := checkDraft07(doc)
	var se *SchemaError
	if errors.As(metaErr, &se) {
		return nil, se
	}
	s := &Schema{}
	if err := s.read(doc); err != nil {
		return nil, err
	}
	if metaErr != nil {
		// Not a meta-schema violation and not caught by the shape above.
		return nil, &SchemaError{Message: "the schema does not compile as draft-07: " + metaErr.Error()}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, &SchemaError{Message: "the schema is not valid JSON: " + err.Error()}
	}
	s.raw = buf.Bytes()
	sum := sha256.Sum256(s.raw)
	s.digest = hex.EncodeToString(sum[:])
	s.env = s.environment()
	return s, nil
}

// MarshalJSON returns the schema document as it was parsed, compacted.
func (s *Schema) MarshalJSON() ([]byte, error) {
	return bytes.Clone(s.raw), nil
}

// checkDraft07 compiles the document as a draft-07 schema, loading
// nothing from anywhere. A document the meta-schema refuses gives a
// *SchemaError at the deepest place the meta-schema names.
func checkDraft07(doc any) error {
	const url = "urn:quire:site-adaptive-schema"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return err
	}
	_, err := c.Compile(url)
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			leaf := Deepest(ve)
			p := message.NewPrinter(language.English)
			return &SchemaError{
				Pointer: pointer(leaf.InstanceLocation).String(),
				Message: "not a valid draft-07 JSON Schema: " + leaf.ErrorKind.LocalizedString(p),
			}
		}
	}
	return err
}

// Deepest follows the first cause of a validation error down to the
// failure that names the most precise place. The integration
// configuration checks use it too.
func Deepest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(e.Causes) > 0 {
		next := e.Causes[0]
		for _, c := range e.Causes[1:] {
			if len(c.InstanceLocation) > len(next.InstanceLocation) {
				next = c
			}
		}
		e = next
	}
	return e
}

// environment describes visitor.claims to the condition checker.
func (s *Schema) environment() types.Map {
	claims := claimTypes(s.claims)
	if s.unsigned != nil {
		claims["unsigned"] = claimTypes(s.unsigned)
	}
	return types.Map{"visitor": types.Map{"claims": claims}}
}

// claimTypes returns the condition types of a set of claims.
func claimTypes(claims map[string]*claim) types.Map {
	m := make(types.Map, len(claims))
	for name, c := range claims {
		m[name] = c.typ()
	}
	return m
}

// typ returns the condition type of a claim's values.
func (c *claim) typ() types.Type {
	switch c.kind {
	case kindBoolean:
		return types.Bool
	case kindString:
		return types.String
	case kindNumber:
		return types.Float64
	case kindArray:
		return types.Array(c.items.typ())
	default:
		return claimTypes(c.properties)
	}
}

// sortedNames returns the claim names in byte order.
func sortedNames(claims map[string]*claim) []string {
	return slices.Sorted(maps.Keys(claims))
}

// EmptySchema returns the schema of a site that declares no claims: only
// conditions made of constants (true, false, "a" == "a") check against it.
func EmptySchema() *Schema {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{},"additionalProperties":false}`))
	if err != nil {
		panic(err) // the document above is valid
	}
	return s
}
