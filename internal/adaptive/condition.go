package adaptive

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"

	"quire/internal/expression"
)

// MaxConditionLength is the longest condition, in bytes, that the API
// stores (the published Expression's maxLength).
const MaxConditionLength = expression.MaxLength

// Condition is a compiled condition, ready to be evaluated for any number
// of visitors. It is immutable and safe for concurrent use.
type Condition struct {
	schema  *Schema
	program *vm.Program // nil for a blank condition, which always holds
}

// ConditionError tells why a condition was refused: where (Line and
// Column, both counted from 1, Column in characters) and what is wrong.
type ConditionError = expression.Error

// CheckCondition tells whether a condition may be saved for this schema:
// it parses, names only the claims the schema declares (with the types it
// declares), and is boolean. A blank condition is accepted and always
// holds. A refused condition gives a *ConditionError.
func (s *Schema) CheckCondition(src string) error {
	_, err := s.CompileCondition(src)
	return err
}

// CompileCondition checks a condition like CheckCondition and returns it
// compiled. Callers evaluating conditions repeatedly should go through a
// Conditions cache rather than compile each time.
func (s *Schema) CompileCondition(src string) (*Condition, error) {
	program, err := expression.Compile(src, expression.Config{
		Env:     s.env,
		Noun:    "a condition",
		Message: conditionMessage,
		Refuse:  computedClaim,
	})
	if err != nil {
		return nil, err
	}
	return &Condition{schema: s, program: program}, nil
}

// Evaluate tells whether the condition holds for a visitor with these
// claims (signed claims at the top, unsigned ones under "unsigned", as in
// the schema). Claims are first fitted to the schema: an undeclared claim
// is dropped, and a declared one that is missing or of another type takes
// the zero value of its declared type (false, "", 0, an empty array or
// object), so that a condition such as !visitor.claims.beta holds for a
// visitor without that claim. Numbers of any Go numeric type, and
// json.Number, are read as float64. An array claim is read up to its
// 1,000th item. An error (an index past the end of an
// array, say) means the condition cannot be decided; a reader should then
// treat it as not holding.
func (c *Condition) Evaluate(claims map[string]any) (bool, error) {
	if c.program == nil {
		return true, nil
	}
	env := map[string]any{"visitor": map[string]any{"claims": c.schema.fit(claims)}}
	ok, err := expression.Run(c.program, env)
	if err != nil {
		return false, fmt.Errorf("evaluating condition: %w", err)
	}
	return ok, nil
}

// conditionMessage says, in an error of the expression checker, that
// names are claims of the visitor schema.
func conditionMessage(msg string) string {
	switch {
	case strings.HasPrefix(msg, "unknown field "):
		return fmt.Sprintf("unknown claim %s: the visitor schema does not declare it", strings.TrimPrefix(msg, "unknown field "))
	case strings.HasPrefix(msg, "unknown name "):
		return msg + "; claims are read as visitor.claims.<name> and visitor.claims.unsigned.<name>"
	}
	return msg
}

// computedClaim refuses a claim looked up by a computed name, which cannot
// be checked against the schema.
func computedClaim(n ast.Node) (ast.Node, string) {
	m, ok := n.(*ast.MemberNode)
	if !ok {
		return nil, ""
	}
	if t := m.Node.Type(); t != nil && t.Kind() == reflect.Map {
		if _, named := m.Property.(*ast.StringNode); !named {
			return m.Property, "name the claim (visitor.claims.plan or visitor.claims[\"plan\"]): " +
				"a computed claim name cannot be checked against the schema"
		}
	}
	return nil, ""
}
