package document

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// maxNesting bounds how deep Markdown found inside HTML or one-line tags
// is parsed again, so hostile input cannot recurse without end.
const maxNesting = 8

// gitbookSyntax is the goldmark extension for GitBook's Markdown dialect:
// {% tag %} blocks, <details> expandables, HTML figures and $$ math. Its
// parsers remember facts about the source being parsed; reset forgets
// them before the next one.
type gitbookSyntax struct {
	guard   *depthGuard
	budget  *inlineBudget
	links   *linkDefinitions
	tags    *tagParser
	details *detailsParser
	media   *htmlMediaParser
	math    *mathBlockParser
}

func newSyntax(state *convState) *gitbookSyntax {
	return &gitbookSyntax{
		guard:   &depthGuard{state: state},
		budget:  &inlineBudget{state: state},
		links:   &linkDefinitions{state: state},
		tags:    &tagParser{},
		details: &detailsParser{},
		media:   &htmlMediaParser{},
		math:    &mathBlockParser{},
	}
}

// reset prepares the parsers for a new source.
func (g *gitbookSyntax) reset() {
	*g.tags = tagParser{}
	*g.details = detailsParser{}
	*g.media = htmlMediaParser{}
	*g.math = mathBlockParser{}
}

// Extend adds the GitBook block and inline parsers.
func (g *gitbookSyntax) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(g.guard, 1),
			util.Prioritized(g.tags, 90),
			util.Prioritized(g.details, 91),
			util.Prioritized(g.media, 92),
			util.Prioritized(g.math, 93),
			// Definition lists (Term, then ": definition") are kept as
			// written: the document has no such block.
			util.Prioritized(topLevelDefinitions{extension.NewDefinitionListParser()}, 101),
			util.Prioritized(extension.NewDefinitionDescriptionParser(), 102),
		),
		parser.WithInlineParsers(
			util.Prioritized(g.budget, 1),
			util.Prioritized(mathInlineParser{}, 50),
		),
	)
}

// newMarkdown returns the goldmark converter for syntax: goldmark's
// block and inline parsers, its extensions for GitBook's dialect, and
// syntax.links in place of goldmark's link reference definitions, whose
// cost grows with the square of their number in one paragraph.
func newMarkdown(syntax *gitbookSyntax) goldmark.Markdown {
	p := parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(syntax.links, 100)),
	)
	return goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote, syntax,
	))
}

// FromMarkdown converts GitBook Markdown to a document and gives every
// block, inline and fragment a fresh unique key. Blocks nested deeper than
// MaxDepth give an error wrapping ErrTooDeep, and input of more than
// MaxNodes nodes one wrapping ErrTooManyNodes; with WithContext, the
// conversion stops with the context's error once it is done. The time and
// memory it takes grow linearly with the length of src.
func FromMarkdown(src string, opts ...Option) (*Document, error) {
	o := newOptions(opts)
	o.targets = map[Ref]string{}
	state := newConvState(o)
	syntax := newSyntax(state)
	c := &converter{opts: o, md: newMarkdown(syntax), syntax: syntax, state: state}
	// As CommonMark requires, NUL and invalid UTF-8 become U+FFFD.
	src = strings.ReplaceAll(strings.ToValidUTF8(src, "\uFFFD"), "\x00", "\uFFFD")
	doc := New(c.parse(src)...)
	if state.err != nil {
		return nil, state.err
	}
	if err := checkDepth(doc.Nodes, "nodes", 1); err != nil {
		return nil, err
	}
	// The budget spent while parsing bounds the work; the count of the
	// result keeps every document FromMarkdown returns one Parse accepts.
	if countNodes(doc.Nodes) > MaxNodes {
		return nil, fmt.Errorf("nodes: %w", ErrTooManyNodes)
	}
	newKeygen().assignKeys(doc.Nodes)
	return doc, nil
}

// converter turns a goldmark syntax tree into document nodes.
type converter struct {
	opts   *options
	md     goldmark.Markdown
	syntax *gitbookSyntax
	state  *convState
	src    []byte
	depth  int
	// notes holds the converted footnote definitions of the source, by
	// goldmark's footnote index.
	notes map[int][]Node
}

// parse converts a Markdown source to blocks.
func (c *converter) parse(src string) []Node {
	sub := &converter{opts: c.opts, md: c.md, syntax: c.syntax, state: c.state, src: []byte(src), depth: c.depth + 1}
	if sub.depth > maxNesting {
		if strings.TrimSpace(src) == "" {
			return nil
		}
		return []Node{Paragraph(strings.TrimSpace(src))}
	}
	if c.state.stopped() {
		return nil
	}
	c.syntax.reset()
	root := c.md.Parser().Parse(text.NewReader(sub.src))
	if c.state.stopped() {
		return nil
	}
	sub.footnotes(root)
	return sub.blocks(root)
}

func (c *converter) blocks(parent ast.Node) []Node {
	out := make([]Node, 0, parent.ChildCount())
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if c.state.stopped() {
			return out
		}
		out = append(out, c.block(n)...)
	}
	return out
}

func (c *converter) block(n ast.Node) []Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return c.paragraph(n)
	case *ast.Heading:
		return []Node{c.heading(n)}
	case *ast.ThematicBreak:
		return []Node{Block(TypeDivider, nil)}
	case *ast.FencedCodeBlock:
		return []Node{c.code(n, string(n.Language(c.src)))}
	case *ast.CodeBlock:
		return []Node{c.code(n, "")}
	case *ast.Blockquote:
		return []Node{Block(TypeBlockquote, nil, c.orEmpty(c.blocks(n))...)}
	case *ast.List:
		return []Node{c.list(n)}
	case *extast.Table:
		return []Node{c.table(n)}
	case *ast.HTMLBlock:
		return c.htmlBlock(n)
	case *tagBlock:
		return c.tag(n)
	case *extast.DefinitionList:
		return []Node{rawBlock(c.spanSource(n))}
	case *detailsBlock:
		if n.verbatim {
			return []Node{rawBlock(c.linesSource(n))}
		}
		return []Node{c.expandable(n)}
	case *htmlMedia:
		return c.media(n.raw.String())
	case *mathBlock:
		return []Node{Block(TypeMath, map[string]any{"formula": strings.TrimSpace(n.formula.String())})}
	case *extast.FootnoteList:
		// Definitions are read before the blocks; see footnotes.
		return nil
	}
	return c.blocks(n)
}

// orEmpty returns nodes, or a single empty paragraph when there are none,
// for containers that must hold at least one block.
func (c *converter) orEmpty(nodes []Node) []Node {
	if len(nodes) == 0 {
		return []Node{Block(TypeParagraph, nil)}
	}
	return nodes
}

func (c *converter) paragraph(n ast.Node) []Node {
	if img := loneImage(n, c.src); img != nil {
		return []Node{c.imageBlock(img)}
	}
	ic := c.newInlineConv()
	ic.children(n)
	nodes := ic.finish()
	if len(nodes) == 0 {
		return nil
	}
	return []Node{Block(TypeParagraph, nil, nodes...)}
}

// loneImage returns the Markdown image that is a paragraph's only content.
func loneImage(n ast.Node, src []byte) *ast.Image {
	var img *ast.Image
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			if img != nil {
				return nil
			}
			img = c
		case *ast.Text:
			if strings.TrimSpace(string(c.Segment.Value(src))) != "" {
				return nil
			}
		default:
			return nil
		}
	}
	return img
}

func (c *converter) imageBlock(img *ast.Image) Node {
	data := map[string]any{"ref": c.opts.refForTarget(string(img.Destination), UseImage)}
	if alt := plainInlineText(c, img); alt != "" {
		data["alt"] = alt
	}
	if title := unescapeMarkdown(img.Title); title != "" {
		data["title"] = title
	}
	image := Node{Object: ObjectBlock, Type: TypeImage, Data: data}
	return Block(TypeImages, nil, image)
}

func (c *converter) heading(n *ast.Heading) Node {
	ic := c.newInlineConv()
	ic.children(n)
	nodes := trimEdges(ic.finish())
	h := Block(headingType(n.Level-c.opts.headingOffset), map[string]any{}, nodes...)
	if ic.anchor != "" {
		h.Data["id"] = ic.anchor
	}
	return h
}

// trimEdges removes whitespace at the start and end of inline content.
func trimEdges(nodes []Node) []Node {
	if n := len(nodes); n > 0 && nodes[n-1].Object == ObjectText {
		t := &nodes[n-1]
		l := &t.Leaves[len(t.Leaves)-1]
		l.Text = strings.TrimRight(l.Text, " \t")
	}
	if len(nodes) > 0 && nodes[0].Object == ObjectText {
		l := &nodes[0].Leaves[0]
		l.Text = strings.TrimLeft(l.Text, " \t")
	}
	return nodes
}

func (c *converter) code(n ast.Node, lang string) Node {
	lines := n.Lines()
	data := map[string]any{}
	if lang != "" {
		data["syntax"] = lang
	}
	code := Block(TypeCode, data)
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := strings.TrimRight(string(seg.Value(c.src)), "\r\n")
		if seg.Padding > 0 {
			line = strings.Repeat(" ", seg.Padding) + line
		}
		code.Nodes = append(code.Nodes, codeLine(line))
	}
	if len(code.Nodes) == 0 {
		code.Nodes = append(code.Nodes, codeLine(""))
	}
	return code
}

func codeLine(s string) Node {
	return Block(TypeCodeLine, map[string]any{}, Text(Leaf{Text: s}))
}

func (c *converter) list(n *ast.List) Node {
	typ := TypeListUnordered
	data := map[string]any(nil)
	switch {
	case n.IsOrdered():
		typ = TypeListOrdered
		data = map[string]any{}
		if n.Start != 1 {
			data["start"] = n.Start
		}
	case hasTaskBox(n.FirstChild()):
		typ = TypeListTasks
	}
	list := Block(typ, data)
	list.Nodes = make([]Node, 0, n.ChildCount())
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := Block(TypeListItem, nil)
		if typ == TypeListTasks || typ == TypeListOrdered && hasTaskBox(it) {
			item.Data = map[string]any{"checked": taskChecked(it)}
		}
		item.Nodes = c.orEmpty(c.blocks(it))
		list.Nodes = append(list.Nodes, item)
	}
	return list
}

// taskBox returns the task checkbox that starts a list item, if any.
func taskBox(item ast.Node) *extast.TaskCheckBox {
	if item == nil || item.FirstChild() == nil {
		return nil
	}
	box, _ := item.FirstChild().FirstChild().(*extast.TaskCheckBox)
	return box
}

func hasTaskBox(item ast.Node) bool { return taskBox(item) != nil }

func taskChecked(item ast.Node) bool {
	box := taskBox(item)
	return box != nil && box.IsChecked
}
