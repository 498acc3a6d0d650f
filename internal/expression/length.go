package expression

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// lengthProperty reads x.length as len(x) when x is an array or a string,
// as JavaScript does. The checker types the tree before it runs, so an
// object's own field named length is left alone.
type lengthProperty struct{}

// Visit replaces one member node.
func (lengthProperty) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	name, ok := m.Property.(*ast.StringNode)
	if !ok || name.Value != "length" {
		return
	}
	t := m.Node.Type()
	if t == nil {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.String:
		ast.Patch(node, &ast.BuiltinNode{Name: "len", Arguments: []ast.Node{m.Node}})
	}
}
