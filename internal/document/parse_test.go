package document

import (
	"encoding/json"
	"testing"
)

func TestParseValid(t *testing.T) {
	src := `{"object":"document","data":{"schemaVersion":1},"nodes":[
	 {"object":"block","type":"heading-1","key":"h","data":{"id":"intro"},"meta":{"id":"intro"},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Intro","marks":[]}]}]},
	 {"object":"block","type":"paragraph","nodes":[
	   {"object":"text","leaves":[{"object":"leaf","text":"a ","marks":[{"object":"mark","type":"bold"}]},
	     {"object":"leaf","text":"c","marks":[{"object":"mark","type":"color","data":{"text":"red","background":"default"}}]}]},
	   {"object":"inline","type":"link","isVoid":false,"data":{"ref":{"kind":"page","page":"p1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]},
	   {"object":"inline","type":"emoji","isVoid":true,"data":{"code":"1f600"}}]},
	 {"object":"block","type":"images","isVoid":false,"data":{},"nodes":[
	   {"object":"block","type":"image","isVoid":true,"data":{"ref":{"kind":"file","file":"f1"},"width":{"unit":"px","value":100}},
	    "fragments":[{"object":"fragment","fragment":"caption","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}]}]},
	 {"object":"block","type":"code","data":{"syntax":"go","lineNumbers":true},"nodes":[{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}]},
	 {"object":"block","type":"divider","isVoid":true,"data":{}},
	 {"object":"block","type":"list-ordered","data":{"start":3},"nodes":[{"object":"block","type":"list-item","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}]}
	]}`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(doc.Blocks()) != 6 {
		t.Fatalf("got %d blocks", len(doc.Blocks()))
	}
	if r, ok := doc.Nodes[1].Nodes[1].Data["ref"].(Ref); !ok || r.Page != "p1" {
		t.Fatalf("link ref not read as a Ref: %#v", doc.Nodes[1].Nodes[1].Data["ref"])
	}
	// Marshalling gives back a document that parses to the same content.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(b)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, b)
	}
	for i := range doc.Nodes {
		if BlockHash(doc.Nodes[i]) != BlockHash(again.Nodes[i]) {
			t.Errorf("block %d changed through JSON", i)
		}
	}
	if doc.Nodes[0].Meta["id"] != "intro" {
		t.Errorf("meta lost: %v", doc.Nodes[0].Meta)
	}
	byValue, err := json.Marshal(*doc)
	if err != nil || string(byValue) != string(b) {
		t.Fatalf("marshalling a Document value differs: %v", err)
	}
	var viaUnmarshal Document
	if err := json.Unmarshal([]byte(src), &viaUnmarshal); err != nil || len(viaUnmarshal.Nodes) != 6 {
		t.Fatalf("json.Unmarshal: %v", err)
	}
}
