package document

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	para := func(inner string) string {
		return `{"object":"document","data":{},"nodes":[` + inner + `]}`
	}
	text := `{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}`
	cases := []struct{ name, src, want string }{
		{"not json", `{`, "invalid JSON"},
		{"trailing data", `{"object":"document","data":{},"nodes":[]} x`, "trailing data"},
		{"not an object", `[]`, "must be a JSON object"},
		{"wrong object", `{"object":"doc","data":{},"nodes":[]}`, `object: must be "document"`},
		{"missing nodes", `{"object":"document","data":{}}`, "nodes: required array"},
		{"missing data", `{"object":"document","nodes":[]}`, "data: required object"},
		{"unknown document field", `{"object":"document","data":{},"nodes":[],"x":1}`, "x: unknown field"},
		{"bad schema version", `{"object":"document","data":{"schemaVersion":"1"},"nodes":[]}`, "data.schemaVersion: must be an integer"},
		{"unknown block type", para(`{"object":"block","type":"paragraph","nodes":[]},{"object":"block","type":"paragraph","nodes":[]},{"object":"block","type":"paragraph","nodes":[]},{"object":"block","type":"foo","nodes":[]}`), `nodes[3].type: unknown block type "foo"`},
		{"node not object", para(`1`), "nodes[0]: node must be an object"},
		{"missing type", para(`{"object":"block","nodes":[]}`), "nodes[0].type: required string"},
		{"inline at top", para(`{"object":"inline","type":"emoji","data":{"code":"1"}}`), `nodes[0].object: "inline" is not allowed here`},
		{"text at top", para(text), `nodes[0].object: "text" is not allowed here`},
		{"unknown node field", para(`{"object":"block","type":"paragraph","nodes":[],"foo":1}`), "nodes[0].foo: unknown field"},
		{"bad key", para(`{"object":"block","type":"paragraph","key":1,"nodes":[]}`), "nodes[0].key: must be a string"},
		{"wrong isVoid", para(`{"object":"block","type":"divider","isVoid":false,"data":{}}`), "nodes[0].isVoid: must be true"},
		{"void with children", para(`{"object":"block","type":"divider","data":{},"nodes":[` + text + `]}`), "nodes[0].nodes: void \"divider\" has no child nodes"},
		{"missing hint style", para(`{"object":"block","type":"hint","data":{},"nodes":[]}`), "nodes[0].data.style: required string"},
		{"bad hint style", para(`{"object":"block","type":"hint","data":{"style":"tip"},"nodes":[]}`), `nodes[0].data.style: unknown value "tip"`},
		{"paragraph extra data", para(`{"object":"block","type":"paragraph","data":{"x":1},"nodes":[]}`), "nodes[0].data.x: unknown field"},
		{"list child", para(`{"object":"block","type":"list-unordered","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`), `nodes[0].nodes[0].type: block "paragraph" is not allowed here, want "list-item"`},
		{"list item at top", para(`{"object":"block","type":"list-item","nodes":[]}`), `nodes[0].type: block "list-item" is not allowed here`},
		{"block in paragraph", para(`{"object":"block","type":"paragraph","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`), `nodes[0].nodes[0].object: "block" is not allowed here`},
		{"unknown inline", para(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"blink","data":{}}]}`), `nodes[0].nodes[0].type: unknown inline type "blink"`},
		{"link in link", para(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"x"}},"nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"x"}},"nodes":[]}]}]}`), `nodes[0].nodes[0].nodes[0].type: inline "link" is not allowed here`},
		{"missing leaves", para(`{"object":"block","type":"paragraph","nodes":[{"object":"text"}]}`), "nodes[0].nodes[0].leaves: required array"},
		{"bad leaf", para(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":1,"marks":[]}]}]}`), "nodes[0].nodes[0].leaves[0].text: required string"},
		{"missing marks", para(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x"}]}]}`), "nodes[0].nodes[0].leaves[0].marks: required array"},
		{"unknown mark", para(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"blink"}]}]}]}`), `nodes[0].nodes[0].leaves[0].marks[0].type: unknown mark type "blink"`},
		{"bad color", para(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"color","data":{"text":"pink","background":"default"}}]}]}]}`), `marks[0].data.text: unknown color "pink"`},
		{"missing ref", para(`{"object":"block","type":"file","data":{}}`), "nodes[0].data.ref: required content reference"},
		{"bad ref kind", para(`{"object":"block","type":"file","data":{"ref":{"kind":"url","url":"x"}}}`), `nodes[0].data.ref.kind: reference kind "url" is not allowed here`},
		{"unknown ref kind", para(`{"object":"block","type":"content-ref","data":{"ref":{"kind":"nope"}}}`), `nodes[0].data.ref.kind: unknown reference kind "nope"`},
		{"ref missing field", para(`{"object":"block","type":"content-ref","data":{"ref":{"kind":"page"}}}`), "nodes[0].data.ref.page: required string"},
		{"image without fragments", para(`{"object":"block","type":"images","data":{},"nodes":[{"object":"block","type":"image","data":{"ref":{"kind":"url","url":"x"}}}]}`), "nodes[0].nodes[0].fragments: required array"},
		{"bad fragment name", para(`{"object":"block","type":"expandable","data":{},"fragments":[{"object":"fragment","fragment":"x","nodes":[]}]}`), `nodes[0].fragments[0].fragment: must be "expandable-title" or "expandable-body"`},
		{"bad fragment child", para(`{"object":"block","type":"expandable","data":{},"fragments":[{"object":"fragment","fragment":"expandable-body","type":"expandable-body","nodes":[` + text + `]}]}`), `nodes[0].fragments[0].nodes[0].object: "text" is not allowed here`},
		{"bad width", para(`{"object":"block","type":"columns","data":{},"nodes":[{"object":"block","type":"column","data":{"width":"50%"},"nodes":[]}]}`), "nodes[0].nodes[0].data.width: must be a number or {unit, value}"},
		{"deep path", para(`{"object":"block","type":"tabs","nodes":[{"object":"block","type":"tabs-item","data":{},"nodes":[{"object":"block","type":"code","data":{"overflow":"clip"},"nodes":[]}]}]}`), `nodes[0].nodes[0].nodes[0].data.overflow: unknown value "clip"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			if err == nil {
				t.Fatalf("Parse accepted %s", tc.src)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
