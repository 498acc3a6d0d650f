package adaptive

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// MaxConditionLength is the longest condition, in bytes, that the API
// stores (the published Expression's maxLength).
const MaxConditionLength = 1024

// maxConditionNodes bounds the syntax tree of a condition.
const maxConditionNodes = 500

// conditionBuiltins are the functions a condition may call: pure, cheap
// ones over strings, numbers and arrays of claims. Anything that builds
// large values (repeat, ranges of dates) or reads the clock is left out.
func conditionBuiltins() []string {
	return []string{
		"len", "lower", "upper", "trim", "trimPrefix", "trimSuffix", "hasPrefix", "hasSuffix",
		"indexOf", "abs", "ceil", "floor", "round", "min", "max",
		"all", "any", "none", "one", "count", "filter", "map", "find", "first", "last",
	}
}

// Condition is a compiled condition, ready to be evaluated for any number
// of visitors. It is immutable and safe for concurrent use.
type Condition struct {
	schema  *Schema
	program *vm.Program // nil for a blank condition, which always holds
}

// ConditionError tells why a condition was refused: where (Line and
// Column, both counted from 1, Column in characters) and what is wrong.
type ConditionError struct {
	Line    int
	Column  int
	Message string
}

// Error renders the error as "line L, column C: message".
func (e *ConditionError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

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
	if len(src) > MaxConditionLength {
		line, col := position(src, utf8.RuneCountInString(src[:MaxConditionLength]))
		return nil, &ConditionError{Line: line, Column: col,
			Message: fmt.Sprintf("a condition holds at most %d bytes", MaxConditionLength)}
	}
	if !utf8.ValidString(src) {
		return nil, &ConditionError{Line: 1, Column: 1, Message: "a condition must be valid UTF-8 text"}
	}
	if strings.TrimSpace(src) == "" {
		return &Condition{schema: s}, nil
	}
	opts := []expr.Option{
		expr.Env(s.env),
		expr.MaxNodes(maxConditionNodes),
		expr.Optimize(false), // checkTree reads the tree as written
		expr.DisableAllBuiltins(),
	}
	for _, name := range conditionBuiltins() {
		opts = append(opts, expr.EnableBuiltin(name))
	}
	program, err := expr.Compile(jsEquality(src), opts...)
	if err != nil {
		return nil, conditionError(src, err)
	}
	if err := checkTree(src, program.Node()); err != nil {
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
	out, err := expr.Run(c.program, env)
	if err != nil {
		return false, fmt.Errorf("evaluating condition: %w", err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("evaluating condition: got %T, not a boolean", out)
	}
	return b, nil
}

// conditionError turns an error of the expression compiler into a
// ConditionError.
func conditionError(src string, err error) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &ConditionError{Line: 1, Column: 1, Message: err.Error()}
	}
	line, col := position(src, fe.From)
	msg := fe.Message
	switch {
	case strings.HasPrefix(msg, "unknown field "):
		msg = fmt.Sprintf("unknown claim %s: the visitor schema does not declare it", strings.TrimPrefix(msg, "unknown field "))
	case strings.HasPrefix(msg, "unknown name "):
		msg += "; claims are read as visitor.claims.<name> and visitor.claims.unsigned.<name>"
	}
	return &ConditionError{Line: line, Column: col, Message: msg}
}

// checkTree refuses a condition whose value is not a boolean, that looks
// a claim up by a computed name (which cannot be checked against the
// schema), that builds a range of numbers, or that nests a predicate in
// another: conditions run on every visit, and these are the ways one
// condition could take long over large claims.
func checkTree(src string, root ast.Node) error {
	var bad *ConditionError
	refuse := func(n ast.Node, msg string) bool {
		line, col := position(src, start(n))
		bad = &ConditionError{Line: line, Column: col, Message: msg}
		return true
	}
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.MemberNode:
			if t := n.Node.Type(); t != nil && t.Kind() == reflect.Map {
				if _, named := n.Property.(*ast.StringNode); !named {
					return refuse(n.Property, "name the claim (visitor.claims.plan or visitor.claims[\"plan\"]): "+
						"a computed claim name cannot be checked against the schema")
				}
			}
		case *ast.BinaryNode:
			if n.Operator == ".." {
				return refuse(n, "ranges of numbers (a..b) are not allowed in a condition")
			}
		case *ast.PredicateNode:
			if ast.Find(n.Node, func(m ast.Node) bool { _, ok := m.(*ast.PredicateNode); return ok }) != nil {
				return refuse(n, "a predicate (all, any, filter, map, ...) cannot hold another one in a condition")
			}
		}
		return false
	})
	if bad != nil {
		return bad
	}
	if t := root.Type(); t == nil || t.Kind() != reflect.Bool {
		line, col := position(src, start(root))
		return &ConditionError{Line: line, Column: col,
			Message: fmt.Sprintf("a condition must be a boolean expression, this one is %s", typeName(t))}
	}
	return nil
}

// start returns where the source of a subtree begins: the first character
// of its first token.
func start(n ast.Node) int {
	from := n.Location().From
	ast.Find(n, func(m ast.Node) bool {
		from = min(from, m.Location().From)
		return false
	})
	return from
}

// typeName names the type of an expression for a person.
func typeName(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map:
		return "an object"
	case reflect.Interface:
		return "of a type that cannot be known before it runs"
	}
	return t.String()
}

// position returns the line and column (both from 1) of the character at
// index at (counted in characters) of src.
func position(src string, at int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i == at {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	return line, col
}

// jsEquality reads JavaScript's strict equality operators, === and !==, as
// == and != outside string literals. Each is replaced by a string of the
// same length, so positions in errors stay those of the source.
func jsEquality(src string) string {
	if !strings.Contains(src, "==") {
		return src
	}
	b := []byte(src)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case (c == '=' || c == '!') && i+2 < len(b) && b[i+1] == '=' && b[i+2] == '=':
			b[i+2] = ' '
			i += 2
		}
	}
	return string(b)
}
