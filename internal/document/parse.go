package document

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// ParseError reports a malformed document; Path names the bad node or
// field, such as "nodes[3].type".
type ParseError struct {
	Path  string
	Msg   string
	cause error
}

// Unwrap returns the error the message came from, such as ErrTooDeep.
func (e *ParseError) Unwrap() error { return e.cause }

// Error returns "path: message".
func (e *ParseError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

func perr(path, format string, args ...any) error {
	return &ParseError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads a JSON document strictly: unknown node types, unknown fields,
// missing required fields, wrong value types and children that do not fit
// their parent are errors naming the path of the bad node, such as
// `nodes[3].type: unknown block type "foo"`. Nodes nested deeper than
// MaxDepth are refused with an error wrapping ErrTooDeep, and documents of
// more than MaxNodes nodes with one wrapping ErrTooManyNodes. Parse is for
// documents given as input; ParseStored reads documents already stored.
func Parse(data []byte) (*Document, error) {
	return parse(data, true)
}

// ParseStored reads a stored JSON document as strictly as Parse, but
// without the limits on depth and node count that Parse puts on input: a
// document stored before a limit existed, or under a larger one, must stay
// readable.
func ParseStored(data []byte) (*Document, error) {
	return parse(data, false)
}

// parse reads a JSON document, within MaxDepth and MaxNodes when limited.
func parse(data []byte, limited bool) (*Document, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &ParseError{Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &ParseError{Msg: "invalid JSON: trailing data after the document"}
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, &ParseError{Msg: "document must be a JSON object"}
	}
	for k := range root {
		switch k {
		case "object", "data", "nodes":
		default:
			return nil, perr(k, "unknown field")
		}
	}
	if root["object"] != ObjectDocument {
		return nil, perr("object", `must be "document"`)
	}
	doc := &Document{}
	d, ok := root["data"].(map[string]any)
	if !ok {
		return nil, perr("data", "required object")
	}
	if sv, ok := d["schemaVersion"]; ok {
		if n, isNum := sv.(json.Number); !isNum || !isInteger(n) {
			return nil, perr("data.schemaVersion", "must be an integer")
		}
	}
	doc.Data = d
	arr, ok := root["nodes"].([]any)
	if !ok {
		return nil, perr("nodes", "required array")
	}
	if limited {
		count := 0
		if p, err := jsonLimits(arr, "nodes", 1, &count); err != nil {
			return nil, &ParseError{Path: p, Msg: err.Error(), cause: err}
		}
	}
	nodes, err := parseNodes(arr, "nodes", kindBlocks)
	if err != nil {
		return nil, err
	}
	doc.Nodes = nodes
	return doc, nil
}

func isInteger(n json.Number) bool {
	_, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil
}

// childKind says which nodes a list of children may hold.
type childKind int

const (
	kindBlocks    childKind = iota // content blocks
	kindInlines                    // text and inlines
	kindLinkText                   // text and void inlines
	kindTexts                      // text nodes only
	kindFragments                  // fragments
	kindOnly                       // one specific block type
)

func parseNodes(arr []any, path string, kind childKind, only ...string) ([]Node, error) {
	out := make([]Node, 0, len(arr))
	for i, v := range arr {
		p := path + "[" + strconv.Itoa(i) + "]"
		n, err := parseNode(v, p, kind, only...)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func parseNode(v any, path string, kind childKind, only ...string) (Node, error) {
	var n Node
	m, ok := v.(map[string]any)
	if !ok {
		return n, perr(path, "node must be an object")
	}
	obj, _ := m["object"].(string)
	n.Object = obj
	if err := checkObject(obj, m, path, kind); err != nil {
		return n, err
	}
	if key, present := m["key"]; present {
		s, ok := key.(string)
		if !ok {
			return n, perr(path+".key", "must be a string")
		}
		n.Key = s
	}
	switch obj {
	case ObjectText:
		return parseText(n, m, path)
	case ObjectFragment:
		return parseFragment(n, m, path)
	}
	return parseElement(n, m, path, kind, only)
}

func checkObject(obj string, m map[string]any, path string, kind childKind) error {
	allowed := ""
	switch kind {
	case kindBlocks, kindOnly:
		allowed = ObjectBlock
	case kindFragments:
		allowed = ObjectFragment
	case kindTexts:
		allowed = ObjectText
	}
	switch {
	case obj == "":
		return perr(path+".object", "required string")
	case allowed != "" && obj != allowed:
		return perr(path+".object", "%q is not allowed here, want %q", obj, allowed)
	case allowed == "" && obj != ObjectText && obj != ObjectInline:
		return perr(path+".object", "%q is not allowed here, want \"text\" or \"inline\"", obj)
	}
	for k := range m {
		if !knownField(obj, k) {
			return perr(path+"."+k, "unknown field")
		}
	}
	return nil
}

func knownField(obj, field string) bool {
	switch field {
	case "object", "key":
		return true
	case "leaves":
		return obj == ObjectText
	case "fragment":
		return obj == ObjectFragment
	case "type", "nodes":
		return obj != ObjectText
	case "data", "isVoid", "fragments", "meta":
		return obj == ObjectBlock || obj == ObjectInline
	}
	return false
}

func parseText(n Node, m map[string]any, path string) (Node, error) {
	arr, ok := m["leaves"].([]any)
	if !ok {
		return n, perr(path+".leaves", "required array")
	}
	n.Leaves = make([]Leaf, 0, len(arr))
	for i, v := range arr {
		p := path + ".leaves[" + strconv.Itoa(i) + "]"
		l, err := parseLeaf(v, p)
		if err != nil {
			return n, err
		}
		n.Leaves = append(n.Leaves, l)
	}
	return n, nil
}

func parseLeaf(v any, path string) (Leaf, error) {
	var l Leaf
	m, ok := v.(map[string]any)
	if !ok {
		return l, perr(path, "leaf must be an object")
	}
	for k := range m {
		if k != "object" && k != "text" && k != "marks" {
			return l, perr(path+"."+k, "unknown field")
		}
	}
	if m["object"] != "leaf" {
		return l, perr(path+".object", `must be "leaf"`)
	}
	text, ok := m["text"].(string)
	if !ok {
		return l, perr(path+".text", "required string")
	}
	l.Text = text
	marks, ok := m["marks"].([]any)
	if !ok {
		return l, perr(path+".marks", "required array")
	}
	for i, mv := range marks {
		p := path + ".marks[" + strconv.Itoa(i) + "]"
		mk, err := parseMark(mv, p)
		if err != nil {
			return l, err
		}
		l.Marks = append(l.Marks, mk)
	}
	return l, nil
}

func parseMark(v any, path string) (Mark, error) {
	var mk Mark
	m, ok := v.(map[string]any)
	if !ok {
		return mk, perr(path, "mark must be an object")
	}
	for k := range m {
		if k != "object" && k != "type" && k != "data" {
			return mk, perr(path+"."+k, "unknown field")
		}
	}
	if m["object"] != "mark" {
		return mk, perr(path+".object", `must be "mark"`)
	}
	typ, ok := m["type"].(string)
	if !ok {
		return mk, perr(path+".type", "required string")
	}
	if !isMarkType(typ) {
		return mk, perr(path+".type", "unknown mark type %q", typ)
	}
	mk.Type = typ
	if typ != MarkColor {
		return mk, nil
	}
	d, ok := m["data"].(map[string]any)
	if !ok {
		return mk, perr(path+".data", "required object")
	}
	for _, f := range []string{"text", "background"} {
		s, ok := d[f].(string)
		if !ok {
			return mk, perr(path+".data."+f, "required string")
		}
		if !isColor(s) {
			return mk, perr(path+".data."+f, "unknown color %q", s)
		}
	}
	mk.Data = d
	return mk, nil
}

func isColor(s string) bool {
	switch s {
	case "default", "green", "blue", "red", "orange", "yellow", "purple",
		"$primary", "$info", "$success", "$warning", "$danger":
		return true
	}
	return false
}

func parseFragment(n Node, m map[string]any, path string) (Node, error) {
	if v, ok := m["fragment"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return n, perr(path+".fragment", "must be a string")
		}
		n.Fragment = s
	}
	if v, ok := m["type"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return n, perr(path+".type", "must be a string")
		}
		n.Type = s
	}
	arr, ok := m["nodes"].([]any)
	if !ok {
		return n, perr(path+".nodes", "required array")
	}
	nodes, err := parseNodes(arr, path+".nodes", kindBlocks)
	n.Nodes = nodes
	return n, err
}
