package document

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MaxNodes bounds the work one document given as input may take. In a JSON
// document it counts blocks, inlines, texts, leaves and fragments; in
// Markdown it counts, while goldmark parses, every block start and every
// character that may open an inline (such as "[", "*" or "`"), which
// together bound the nodes produced. A page of ten thousand blocks of
// ordinary prose, lists and tables stays well inside it; larger input is
// refused with ErrTooManyNodes before the rest of it is parsed.
const MaxNodes = 200_000

// ErrTooManyNodes is returned, wrapped, for a document or Markdown text
// with more than MaxNodes nodes.
var ErrTooManyNodes = errors.New("more than " + strconv.Itoa(MaxNodes) + " nodes")

// spend counts n nodes against the conversion's budget and reports
// whether the conversion may go on. Past MaxNodes, it records
// ErrTooManyNodes as the conversion's error.
func (s *convState) spend(n int, what string) bool {
	if s.err != nil {
		return false
	}
	s.nodes += n
	if s.nodes > MaxNodes {
		s.err = fmt.Errorf("%s: %w", what, ErrTooManyNodes)
		return false
	}
	return true
}

// countNodes returns how many nodes, leaves included, nodes hold, as the
// JSON limit counts them; it stops counting past MaxNodes.
func countNodes(nodes []Node) int {
	n := len(nodes)
	for i := range nodes {
		if n > MaxNodes {
			break
		}
		n += len(nodes[i].Leaves) + countNodes(nodes[i].Nodes) + countNodes(nodes[i].Fragments)
	}
	return n
}

// inlineBudget is a goldmark inline parser tried before all others at
// every character that may open an inline. It opens nothing itself; it
// counts those characters against the node budget and, once the budget
// or the context has run out, stops the inline parse of the block by
// consuming the rest of it, so that goldmark's delimiter and link-label
// bookkeeping stays bounded whatever the input.
type inlineBudget struct {
	state *convState
	calls int
}

// inlineTriggers are the characters at which goldmark's inline parsers,
// and ours, may open a node.
const inlineTriggers = "[]!*_`<~&$"

// Trigger returns the characters that may open an inline.
func (*inlineBudget) Trigger() []byte { return []byte(inlineTriggers) }

// Parse counts the character; when the budget is spent it consumes the
// rest of the block and returns an empty text to end goldmark's loop.
func (b *inlineBudget) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	b.calls++
	if b.calls%1024 == 0 {
		b.state.checkContext()
	}
	if b.state.spend(1, "inlines") {
		return nil
	}
	for {
		if line, _ := block.PeekLine(); line == nil {
			break
		}
		block.AdvanceLine()
	}
	return ast.NewText()
}
