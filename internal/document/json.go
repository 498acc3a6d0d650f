package document

import (
	"encoding/json"
	"strconv"
)

// MarshalJSON writes the document in the JSONDocument shape.
func (d Document) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 0, 256+jsonSize(d.Nodes))
	buf = append(buf, `{"object":"document","data":`...)
	var err error
	if buf, err = appendData(buf, d.Data); err != nil {
		return nil, err
	}
	buf = append(buf, `,"nodes":`...)
	if buf, err = appendNodes(buf, d.Nodes); err != nil {
		return nil, err
	}
	return append(buf, '}'), nil
}

// UnmarshalJSON parses and validates a document; see Parse.
func (d *Document) UnmarshalJSON(data []byte) error {
	doc, err := Parse(data)
	if err != nil {
		return err
	}
	*d = *doc
	return nil
}

// MarshalJSON writes the node in the schema shape for its object and type.
func (n Node) MarshalJSON() ([]byte, error) {
	return appendNode(make([]byte, 0, 128), n)
}

// MarshalJSON writes the leaf as {"object":"leaf","text":…,"marks":[…]}.
func (l Leaf) MarshalJSON() ([]byte, error) {
	return appendLeaf(nil, l)
}

// MarshalJSON writes the mark as {"object":"mark","type":…}.
func (m Mark) MarshalJSON() ([]byte, error) {
	return appendMark(nil, m)
}

// appendString appends s as a JSON string, escaped as json.Marshal
// escapes it. Strings of plain ASCII, most of a document's, are copied
// without the encoder.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x80, c == '"', c == '\\', c == '<', c == '>', c == '&':
			b, _ := json.Marshal(s)
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

func appendData(buf []byte, data map[string]any) ([]byte, error) {
	if len(data) == 0 {
		return append(buf, "{}"...), nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	return append(buf, b...), nil
}

func appendNodes(buf []byte, nodes []Node) ([]byte, error) {
	buf = append(buf, '[')
	var err error
	for i, c := range nodes {
		if i > 0 {
			buf = append(buf, ',')
		}
		if buf, err = appendNode(buf, c); err != nil {
			return nil, err
		}
	}
	return append(buf, ']'), nil
}

func appendNode(buf []byte, n Node) ([]byte, error) {
	buf = append(buf, `{"object":`...)
	buf = appendString(buf, n.Object)
	if n.Object == ObjectText {
		if n.Key != "" {
			buf = append(buf, `,"key":`...)
			buf = appendString(buf, n.Key)
		}
		buf = append(buf, `,"leaves":[`...)
		var err error
		for i, l := range n.Leaves {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, err = appendLeaf(buf, l); err != nil {
				return nil, err
			}
		}
		return append(buf, "]}"...), nil
	}
	if n.Type != "" {
		buf = append(buf, `,"type":`...)
		buf = appendString(buf, n.Type)
	}
	if n.Key != "" {
		buf = append(buf, `,"key":`...)
		buf = appendString(buf, n.Key)
	}
	var err error
	if n.Object == ObjectFragment {
		buf = append(buf, `,"fragment":`...)
		buf = appendString(buf, n.Fragment)
		buf = append(buf, `,"nodes":`...)
		if buf, err = appendNodes(buf, n.Nodes); err != nil {
			return nil, err
		}
		return append(buf, '}'), nil
	}
	void := n.IsVoid()
	buf = append(buf, `,"isVoid":`...)
	buf = strconv.AppendBool(buf, void)
	buf = append(buf, `,"data":`...)
	if buf, err = appendData(buf, n.Data); err != nil {
		return nil, err
	}
	if len(n.Meta) > 0 {
		buf = append(buf, `,"meta":`...)
		if buf, err = appendData(buf, n.Meta); err != nil {
			return nil, err
		}
	}
	if !void {
		buf = append(buf, `,"nodes":`...)
		if buf, err = appendNodes(buf, n.Nodes); err != nil {
			return nil, err
		}
	}
	if len(n.Fragments) > 0 || hasFragments(n) {
		buf = append(buf, `,"fragments":`...)
		if buf, err = appendNodes(buf, n.Fragments); err != nil {
			return nil, err
		}
	}
	return append(buf, '}'), nil
}

// hasFragments reports whether the schema requires a fragments array.
func hasFragments(n Node) bool {
	switch n.Type {
	case TypeImage, TypeTable, TypeExpandable:
		return n.Object == ObjectBlock
	case InlineAnnotation:
		return n.Object == ObjectInline
	}
	return false
}

func appendLeaf(buf []byte, l Leaf) ([]byte, error) {
	buf = append(buf, `{"object":"leaf","text":`...)
	buf = appendString(buf, l.Text)
	buf = append(buf, `,"marks":[`...)
	var err error
	for i, m := range l.Marks {
		if i > 0 {
			buf = append(buf, ',')
		}
		if buf, err = appendMark(buf, m); err != nil {
			return nil, err
		}
	}
	return append(buf, "]}"...), nil
}

func appendMark(buf []byte, m Mark) ([]byte, error) {
	buf = append(buf, `{"object":"mark","type":`...)
	buf = appendString(buf, m.Type)
	if m.hasData() {
		buf = append(buf, `,"data":`...)
		b, err := json.Marshal(m.Data)
		if err != nil {
			return nil, err
		}
		buf = append(buf, b...)
	}
	return append(buf, '}'), nil
}

// jsonSize estimates the length of the JSON of nodes, so that the buffer
// is allocated about once rather than grown step by step.
func jsonSize(nodes []Node) int {
	n := 0
	for i := range nodes {
		nd := &nodes[i]
		n += 64 + len(nd.Type) + len(nd.Key) + len(nd.Fragment) + 32*len(nd.Data)
		for _, l := range nd.Leaves {
			n += 40 + len(l.Text) + 32*len(l.Marks)
		}
		n += jsonSize(nd.Nodes) + jsonSize(nd.Fragments)
	}
	return n
}
