package document

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MaxDepth is how deeply nodes may nest in a document: a node in the
// document's own nodes is at depth 1, its nodes and fragments at depth 2,
// and so on. Markdown blocks may nest as deeply. Deeper input is refused
// with ErrTooDeep, far below the nesting at which JSON encoders and
// decoders give up.
const MaxDepth = 64

// ErrTooDeep is returned, wrapped, for a document or Markdown text nested
// deeper than MaxDepth.
var ErrTooDeep = errors.New("nested deeper than " + strconv.Itoa(MaxDepth) + " levels")

// checkDepth returns an error naming the first node of nodes, at depth
// depth, that nests deeper than MaxDepth. The path is built only for it.
func checkDepth(nodes []Node, path string, depth int) error {
	trail := tooDeep(nodes, depth)
	if trail == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString(path)
	for i := len(trail) - 1; i >= 0; i-- {
		if i < len(trail)-1 {
			b.WriteString(trail[i].field)
		}
		b.WriteString("[" + strconv.Itoa(trail[i].index) + "]")
	}
	return fmt.Errorf("%s: %w", b.String(), ErrTooDeep)
}

// step is one level of the path to a node: its index, and the field of
// its parent that holds it.
type step struct {
	field string
	index int
}

// tooDeep returns the path, innermost step first, to the first node of
// nodes, at depth depth, that is deeper than MaxDepth, or nil.
func tooDeep(nodes []Node, depth int) []step {
	for i := range nodes {
		if depth > MaxDepth {
			return []step{{index: i}}
		}
		for _, sub := range []struct {
			field string
			nodes []Node
		}{{".nodes", nodes[i].Nodes}, {".fragments", nodes[i].Fragments}} {
			if len(sub.nodes) == 0 {
				continue
			}
			if trail := tooDeep(sub.nodes, depth+1); trail != nil {
				trail[len(trail)-1].field = sub.field
				return append(trail, step{index: i})
			}
		}
	}
	return nil
}

// jsonLimits walks a decoded JSON node array, at depth depth, and
// returns the path of the first node that nests deeper than MaxDepth or
// takes the count of nodes, leaves included, past MaxNodes, with the
// error it breaks; it returns "" and nil when the array is within both.
func jsonLimits(arr []any, path string, depth int, count *int) (string, error) {
	*count += len(arr)
	if *count > MaxNodes {
		return path, ErrTooManyNodes
	}
	for i, v := range arr {
		if depth > MaxDepth {
			return path + "[" + strconv.Itoa(i) + "]", ErrTooDeep
		}
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if leaves, ok := m["leaves"].([]any); ok {
			if *count += len(leaves); *count > MaxNodes {
				return path + "[" + strconv.Itoa(i) + "].leaves", ErrTooManyNodes
			}
		}
		for _, field := range []string{"nodes", "fragments"} {
			if sub, ok := m[field].([]any); ok {
				if p, err := jsonLimits(sub, path+"["+strconv.Itoa(i)+"]."+field, depth+1, count); err != nil {
					return p, err
				}
			}
		}
	}
	return "", nil
}

// depthGuard is a goldmark block parser tried before all others at every
// block start. It opens nothing itself; it counts the start against the
// node budget, and when a block would start deeper than MaxDepth, the
// budget is spent or the conversion's context has ended, it stops the
// parse by consuming the rest of the input, so that goldmark's work per
// line stays bounded by MaxDepth whatever the input.
type depthGuard struct {
	state *convState
	calls int
}

// stopBlock is the leaf the guard leaves where it stopped a parse.
type stopBlock struct{ ast.BaseBlock }

// Kind returns the node kind.
func (n *stopBlock) Kind() ast.NodeKind { return kindStopBlock }

// Dump writes the node for debugging.
func (n *stopBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// Trigger returns every byte, so the guard runs at every block start.
func (*depthGuard) Trigger() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// Open stops the parse when parent is too deep, the node budget is spent
// or the context ended.
func (g *depthGuard) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	g.calls++
	if g.calls%1024 == 0 {
		g.state.checkContext()
	}
	if g.state.spend(1, "blocks") {
		depth := 1
		for p := parent; p != nil && p.Kind() != ast.KindDocument && depth <= MaxDepth; p = p.Parent() {
			depth++
		}
		if depth <= MaxDepth {
			return nil, parser.NoChildren
		}
		g.state.err = fmt.Errorf("blocks %w", ErrTooDeep)
	}
	for {
		if line, _ := reader.PeekLine(); line == nil {
			break
		}
		reader.AdvanceLine()
	}
	return &stopBlock{}, parser.NoChildren
}

// Continue closes the stop block.
func (*depthGuard) Continue(ast.Node, text.Reader, parser.Context) parser.State { return parser.Close }

// Close does nothing.
func (*depthGuard) Close(ast.Node, text.Reader, parser.Context) {}

// CanInterruptParagraph is true so the guard runs on every line.
func (*depthGuard) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine is true so the guard runs on every line.
func (*depthGuard) CanAcceptIndentedLine() bool { return true }
