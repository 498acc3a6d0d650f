package expression

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

// MaxLength is the longest expression, in bytes, that the API stores (the
// published Expression's maxLength).
const MaxLength = 1024

// maxNodes bounds the syntax tree of an expression.
const maxNodes = 500

// builtins are the functions an expression may call: pure, cheap ones over
// strings, numbers and arrays. Anything that builds large values (repeat,
// ranges of dates) or reads the clock is left out.
func builtins() []string {
	return []string{
		"len", "lower", "upper", "trim", "trimPrefix", "trimSuffix", "hasPrefix", "hasSuffix",
		"indexOf", "abs", "ceil", "floor", "round", "min", "max",
		"all", "any", "none", "one", "count", "filter", "map", "find", "first", "last",
	}
}

// Config says what one kind of expression may name and how its errors
// read.
type Config struct {
	// Env declares the variables (an expr types.Map; a strict map makes
	// an undeclared field an error).
	Env any
	// Noun names the expression in messages, with its article: "a
	// condition", "an expression".
	Noun string
	// Message, when set, rewrites a message of the expression checker
	// (to say what the variables are, say).
	Message func(msg string) string
	// Refuse, when set, is asked about every node of the checked tree and
	// returns why it is refused and the node the error points at, or "".
	Refuse func(n ast.Node) (at ast.Node, msg string)
}

// Compile checks an expression and returns its program: it holds at most
// MaxLength bytes of UTF-8 text, parses, names only what c.Env declares,
// with the types declared, keeps to the functions and shapes the package
// allows, and is boolean. A blank expression gives a nil program and no
// error; the caller decides what it means. A refused expression gives an
// *Error.
func Compile(src string, c Config) (*vm.Program, error) {
	if len(src) > MaxLength {
		return nil, errorAt(src, utf8.RuneCountInString(src[:MaxLength]),
			fmt.Sprintf("%s holds at most %d bytes", c.Noun, MaxLength))
	}
	if !utf8.ValidString(src) {
		return nil, &Error{Line: 1, Column: 1, Message: c.Noun + " must be valid UTF-8 text"}
	}
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	opts := []expr.Option{
		expr.Env(c.Env),
		expr.MaxNodes(maxNodes),
		expr.Optimize(false), // checkTree reads the tree as written
		expr.DisableAllBuiltins(),
		expr.Patch(lengthProperty{}),
	}
	for _, name := range builtins() {
		opts = append(opts, expr.EnableBuiltin(name))
	}
	program, err := expr.Compile(jsEquality(src), opts...)
	if err != nil {
		return nil, compileError(src, err, c.Message)
	}
	if err := checkTree(src, program.Node(), c); err != nil {
		return nil, err
	}
	return program, nil
}

// Run evaluates a compiled expression against its variables and returns
// its boolean value.
func Run(program *vm.Program, vars any) (bool, error) {
	out, err := expr.Run(program, vars)
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("got %T, not a boolean", out)
	}
	return b, nil
}

// compileError turns an error of the expression compiler into an Error.
func compileError(src string, err error, rewrite func(string) string) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &Error{Line: 1, Column: 1, Message: err.Error()}
	}
	msg := fe.Message
	if rewrite != nil {
		msg = rewrite(msg)
	}
	return errorAt(src, fe.From, msg)
}

// checkTree refuses an expression whose value is not a boolean, that
// builds a range of numbers, that nests a predicate in another, or that
// c.Refuse refuses: these are the ways an expression could take long over
// large arrays.
func checkTree(src string, root ast.Node, c Config) error {
	var bad *Error
	refuse := func(n ast.Node, msg string) bool {
		bad = errorAt(src, start(n), msg)
		return true
	}
	ast.Find(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryNode:
			if n.Operator == ".." {
				return refuse(n, "ranges of numbers (a..b) are not allowed in "+c.Noun)
			}
		case *ast.PredicateNode:
			if ast.Find(n.Node, func(m ast.Node) bool { _, ok := m.(*ast.PredicateNode); return ok }) != nil {
				return refuse(n, "a predicate (all, any, filter, map, ...) cannot hold another one in "+c.Noun)
			}
		}
		if c.Refuse != nil {
			if at, msg := c.Refuse(n); msg != "" {
				return refuse(at, msg)
			}
		}
		return false
	})
	if bad != nil {
		return bad
	}
	if t := root.Type(); t == nil || t.Kind() != reflect.Bool {
		return errorAt(src, start(root),
			fmt.Sprintf("%s must be a boolean expression, this one is %s", c.Noun, typeName(t)))
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
