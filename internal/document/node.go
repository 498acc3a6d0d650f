package document

// Object kinds of a node.
const (
	ObjectDocument = "document"
	ObjectBlock    = "block"
	ObjectInline   = "inline"
	ObjectText     = "text"
	ObjectFragment = "fragment"
)

// SchemaVersion is the document schema version written by FromMarkdown.
const SchemaVersion = 1

// Document is a rich-text document:
// {"object":"document","data":{"schemaVersion":1,...},"nodes":[...]}.
type Document struct {
	// Data holds document-level properties such as schemaVersion.
	Data map[string]any
	// Nodes are the top-level blocks.
	Nodes []Node
}

// Node is a block, an inline, a text node or a fragment, told apart by
// Object. Data values are JSON values (string, bool, numbers, []any,
// map[string]any); content references are stored as Ref.
type Node struct {
	// Object is "block", "inline", "text" or "fragment".
	Object string
	// Type is the block or inline type ("paragraph", "link", …); for a
	// fragment it is the optional fragment type.
	Type string
	// Key identifies the node within its document; it may be empty.
	Key string
	// Fragment is the fragment name, for fragments only.
	Fragment string
	// Data holds the type-specific properties.
	Data map[string]any
	// Meta holds server-computed properties (such as a heading's anchor id);
	// it is kept as read but ignored by conversions and hashes.
	Meta map[string]any
	// Nodes are the children of a non-void block, inline or fragment.
	Nodes []Node
	// Leaves are the runs of a text node.
	Leaves []Leaf
	// Fragments are the named sub-documents of a block (captions, table
	// cells, expandable title and body) or of an annotation.
	Fragments []Node
}

// Leaf is a run of text sharing the same marks.
type Leaf struct {
	// Text is the run's text; "\n" is a hard line break.
	Text string
	// Marks are the formatting marks of the run.
	Marks []Mark
}

// Mark is a text formatting mark such as bold or keyboard.
type Mark struct {
	// Type is one of bold, italic, code, keyboard, strikethrough, color,
	// superscript and subscript.
	Type string
	// Data holds the color mark's text and background colors.
	Data map[string]any
}

// Mark types.
const (
	MarkBold          = "bold"
	MarkItalic        = "italic"
	MarkCode          = "code"
	MarkKeyboard      = "keyboard"
	MarkStrikethrough = "strikethrough"
	MarkColor         = "color"
	MarkSuperscript   = "superscript"
	MarkSubscript     = "subscript"
)

// New returns a document with the current schema version holding nodes.
func New(nodes ...Node) *Document {
	return &Document{Data: map[string]any{"schemaVersion": SchemaVersion}, Nodes: nodes}
}

// Blocks returns the top-level blocks.
func (d *Document) Blocks() []Node {
	if d == nil {
		return nil
	}
	return d.Nodes
}

// IsVoid reports whether the node is void: it has no child nodes in the
// schema (dividers, images, files, embeds, emoji, …).
func (n Node) IsVoid() bool {
	switch n.Object {
	case ObjectBlock:
		return isVoidBlock(n.Type)
	case ObjectInline:
		return isVoidInline(n.Type)
	}
	return false
}

// Block returns a block node of the given type.
func Block(typ string, data map[string]any, nodes ...Node) Node {
	return Node{Object: ObjectBlock, Type: typ, Data: data, Nodes: nodes}
}

// Inline returns an inline node of the given type.
func Inline(typ string, data map[string]any, nodes ...Node) Node {
	return Node{Object: ObjectInline, Type: typ, Data: data, Nodes: nodes}
}

// Text returns a text node holding the given leaves.
func Text(leaves ...Leaf) Node {
	return Node{Object: ObjectText, Leaves: leaves}
}

// PlainLeaf returns a leaf with the given text and marks of the given types.
func PlainLeaf(text string, marks ...string) Leaf {
	l := Leaf{Text: text}
	for _, m := range marks {
		l.Marks = append(l.Marks, Mark{Type: m})
	}
	return l
}

// Fragment returns a fragment node with the given name and type.
func Fragment(name, typ string, nodes ...Node) Node {
	return Node{Object: ObjectFragment, Fragment: name, Type: typ, Nodes: nodes}
}

// Paragraph returns a paragraph block holding one text leaf.
func Paragraph(text string) Node {
	return Block(TypeParagraph, nil, Text(PlainLeaf(text)))
}

func (m Mark) hasData() bool { return len(m.Data) > 0 }
