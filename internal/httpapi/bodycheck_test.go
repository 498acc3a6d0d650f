package httpapi

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// scanTarget is a request shape for the scan tests: nested objects, a
// list of objects, a map of objects and a free-form member.
type scanTarget struct {
	Title  string               `json:"title"`
	Nested *scanItem            `json:"nested,omitempty"`
	Items  []scanItem           `json:"items,omitempty"`
	ByName map[string]scanItem  `json:"byName,omitempty"`
	Free   map[string]any       `json:"free,omitempty"`
	Opt    nullable[scanItem]   `json:"opt,omitempty"`
	Refs   map[string][]string  `json:"refs,omitempty"`
	Deep   map[string]*scanItem `json:"deep,omitempty"`
}

// scanItem is an object inside scanTarget.
type scanItem struct {
	A int `json:"a"`
}

func TestScanJSON(t *testing.T) {
	t.Parallel()
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	schema := reg.Schema(reflect.TypeOf(scanTarget{}), true, "scanTarget")

	// Undeclared members, by path; maps and free-form members declare
	// every key.
	unknown, err := scanJSON([]byte(`{"title":"x","bogus":1,"nested":{"a":1,"zz":{"deep":[1]}},
		"items":[{"a":1},{"a":2,"q":"r"}],"byName":{"k":{"a":1,"w":1}},"free":{"any":{"thing":1}},
		"opt":{"a":1,"o":null},"refs":{"k":["x"]},"deep":{"k":{"d":1},"n":null}}`), reg, schema, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bogus", "nested.zz", "items[1].q", "byName.k.w", "opt.o", "deep.k.d"}
	if !slices.Equal(unknown, want) {
		t.Errorf("undeclared members %q, want %q", unknown, want)
	}
	// Without a registry nothing is noted, and the checks still apply.
	if unknown, err := scanJSON([]byte(`{"bogus":1}`), nil, schema, false); err != nil || unknown != nil {
		t.Errorf("strict scan: %q, %v", unknown, err)
	}
	if _, err := scanJSON([]byte(`{"bogus":{"a":1,"a":2}}`), nil, schema, false); err == nil {
		t.Error("strict scan accepts a repeated member")
	}
	// Empty bodies are left to the framework.
	for _, b := range []string{"", "  \n"} {
		if _, err := scanJSON([]byte(b), reg, schema, true); err != nil {
			t.Errorf("%q: %v", b, err)
		}
	}

	for _, c := range []struct{ body, want string }{
		{"{\"title\":\"caf\xe9\"}", "title: invalid UTF-8"},
		{`{"title":"\ud800"}`, "title: unpaired UTF-16 surrogate"},
		{`{"title":"\udc00\ud800"}`, "title: unpaired UTF-16 surrogate"},
		{`{"items":[{"a":1},{"a":1,"a":1}]}`, "items[1].a: member given twice"},
		{`{"free":{"0":{"x":[{"y":"\ud800"}]}}}`, "free.0.x[0].y: unpaired"},
		{`{"title":"x","title":"y"}`, "title: member given twice"},
		{`{"\ud800":1}`, "body: unpaired"},
		{"[1,\"\xff\"]", "[1]: invalid UTF-8"},
		{`{"title":"x"} {}`, "body: unexpected data after the JSON value"},
		{`{"title":`, "title: unexpected EOF"},
	} {
		_, err := scanJSON([]byte(c.body), reg, schema, true)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
	}
}

// scanOneOf is a body with a member that is one of a string and an
// object.
type scanOneOf struct {
	Body commentBodyInput `json:"body"`
}

func TestScanJSONOneOf(t *testing.T) {
	t.Parallel()
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	schema := reg.Schema(reflect.TypeOf(scanOneOf{}), true, "scanOneOf")
	for _, c := range []struct{ body, want string }{
		{`{"body":"Some *text*."}`, ""},
		{`{"body":{"markdown":"x"}}`, ""},
		{`{"body": 3}`, "body: expected string or object"},
		{`{"body":[]}`, "body: expected string or object"},
		{`{"body":{"markdown":3}}`, "body.markdown: expected string"},
		{`{"body":{"document":"text"}}`, "body.document: expected object"},
		{`{"body":{"markdown":"x","markdown":"y"}}`, "body.markdown: member given twice"},
		{`{"body":"\ud800"}`, "body: unpaired UTF-16 surrogate"},
	} {
		_, err := scanJSON([]byte(c.body), reg, schema, true)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	// The chosen alternative is checked whole, members included: this
	// registry's objects admit no undeclared member.
	if _, err := scanJSON([]byte(`{"body":{"markdown":"x","html":"<p>x</p>"}}`), reg, schema, true); err == nil ||
		!strings.HasPrefix(err.Error(), "body.html: unexpected property") {
		t.Errorf("undeclared member in the alternative: %v, want body.html refused", err)
	}
}
