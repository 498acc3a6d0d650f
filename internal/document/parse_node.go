package document

import (
	"slices"
	"strconv"
)

// parseElement reads a block or an inline node.
func parseElement(n Node, m map[string]any, path string, kind childKind, only []string) (Node, error) {
	typ, ok := m["type"].(string)
	if !ok {
		return n, perr(path+".type", "required string")
	}
	n.Type = typ
	if n.Object == ObjectBlock {
		if !isBlockType(typ) {
			return n, perr(path+".type", "unknown block type %q", typ)
		}
		if kind == kindOnly && !slices.Contains(only, typ) {
			return n, perr(path+".type", "block %q is not allowed here, want %q", typ, only[0])
		}
		if kind == kindBlocks && isChildOnlyType(typ) {
			return n, perr(path+".type", "block %q is not allowed here", typ)
		}
	} else {
		if !isInlineType(typ) {
			return n, perr(path+".type", "unknown inline type %q", typ)
		}
		if kind == kindLinkText && !isVoidInline(typ) {
			return n, perr(path+".type", "inline %q is not allowed here", typ)
		}
	}
	void := n.IsVoid()
	if v, present := m["isVoid"]; present {
		b, isBool := v.(bool)
		if !isBool {
			return n, perr(path+".isVoid", "must be a boolean")
		}
		if b != void {
			return n, perr(path+".isVoid", "must be %v for %q", void, typ)
		}
	}
	if err := parseNodeData(&n, m, path); err != nil {
		return n, err
	}
	if meta, present := m["meta"]; present {
		mm, isObj := meta.(map[string]any)
		if !isObj {
			return n, perr(path+".meta", "must be an object")
		}
		n.Meta = mm
	}
	if err := parseChildren(&n, m, path, void); err != nil {
		return n, err
	}
	return n, parseFragments(&n, m, path)
}

func parseChildren(n *Node, m map[string]any, path string, void bool) error {
	raw, present := m["nodes"]
	if void {
		// Void nodes have no children; an empty list is tolerated.
		if arr, ok := raw.([]any); present && (!ok || len(arr) > 0) {
			return perr(path+".nodes", "void %q has no child nodes", n.Type)
		}
		return nil
	}
	arr, ok := raw.([]any)
	if !ok {
		if !present {
			return perr(path+".nodes", "required array")
		}
		return perr(path+".nodes", "must be an array")
	}
	var err error
	p := path + ".nodes"
	switch {
	case n.Object == ObjectInline && n.Type == InlineAnnotation:
		n.Nodes, err = parseNodes(arr, p, kindTexts)
	case n.Object == ObjectInline:
		n.Nodes, err = parseNodes(arr, p, kindLinkText)
	case isTextBlock(n.Type):
		n.Nodes, err = parseNodes(arr, p, kindInlines)
	case childTypeOf(n.Type) != "":
		n.Nodes, err = parseNodes(arr, p, kindOnly, childTypeOf(n.Type))
	default:
		n.Nodes, err = parseNodes(arr, p, kindBlocks)
	}
	return err
}

func parseFragments(n *Node, m map[string]any, path string) error {
	raw, present := m["fragments"]
	if !present {
		if hasFragments(*n) {
			return perr(path+".fragments", "required array")
		}
		return nil
	}
	arr, ok := raw.([]any)
	if !ok {
		return perr(path+".fragments", "must be an array")
	}
	frags, err := parseNodes(arr, path+".fragments", kindFragments)
	if err != nil {
		return err
	}
	for i, f := range frags {
		p := path + ".fragments[" + strconv.Itoa(i) + "]"
		switch n.Type {
		case TypeImage:
			if f.Fragment != "caption" {
				return perr(p+".fragment", `must be "caption"`)
			}
		case TypeExpandable:
			if f.Fragment != "expandable-title" && f.Fragment != "expandable-body" {
				return perr(p+".fragment", `must be "expandable-title" or "expandable-body"`)
			}
		case InlineAnnotation:
			if f.Type != "annotation-body" {
				return perr(p+".type", `must be "annotation-body"`)
			}
		}
	}
	n.Fragments = frags
	return nil
}

// parseNodeData validates the data object of a block or inline.
func parseNodeData(n *Node, m map[string]any, path string) error {
	raw, present := m["data"]
	if !present {
		if dataRequired(*n) {
			return perr(path+".data", "required object")
		}
		return nil
	}
	d, ok := raw.(map[string]any)
	if !ok {
		return perr(path+".data", "must be an object")
	}
	v := dataValidator{path: path + ".data", data: d}
	v.check(n.Object, n.Type)
	if v.err != nil {
		return v.err
	}
	if len(d) > 0 {
		n.Data = d
	}
	return nil
}

// dataRequired reports whether the schema requires a data object.
func dataRequired(n Node) bool {
	if n.Object == ObjectInline {
		return n.Type != InlineAnnotation
	}
	switch n.Type {
	case TypeParagraph, TypeListUnordered, TypeListTasks, TypeListItem,
		TypeBlockquote, TypeTabs, TypeStepper:
		return false
	}
	return true
}
