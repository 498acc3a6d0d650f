package search

import (
	"reflect"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/quire"
)

func TestParseQuery(t *testing.T) {
	cases := []struct {
		in   string
		want []quire.SearchTerm
	}{
		{"Install  Guide", []quire.SearchTerm{{Words: []string{"install"}, Prefix: true}, {Words: []string{"guide"}, Prefix: true}}},
		{"Café-crème!", []quire.SearchTerm{{Words: []string{"cafe"}, Prefix: true}, {Words: []string{"creme"}, Prefix: true}}},
		{"安装指南 setup", []quire.SearchTerm{{Words: []string{"安", "装", "指", "南"}}, {Words: []string{"setup"}, Prefix: true}}},
		{"setup 文档", []quire.SearchTerm{{Words: []string{"setup"}, Prefix: true}, {Words: []string{"文", "档"}}}},
		{`"quoted" OR *`, []quire.SearchTerm{{Words: []string{"quoted"}, Prefix: true}, {Words: []string{"or"}, Prefix: true}}},
		{"go to it", []quire.SearchTerm{{Words: []string{"go"}}, {Words: []string{"to"}}, {Words: []string{"it"}, Prefix: true}}},
		{"?!", nil},
	}
	for _, c := range cases {
		if got := ParseQuery(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseQuery(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	if n := len(ParseQuery(strings.Repeat("w ", 100))); n != maxTerms {
		t.Errorf("%d terms kept, want %d", n, maxTerms)
	}
}

func TestIndexText(t *testing.T) {
	if got := IndexText("Éléphant 中文ok"); got != "elephant  中  文 ok" {
		t.Errorf("IndexText: %q", got)
	}
}

func TestSnippet(t *testing.T) {
	body := strings.Repeat("filler words here ", 30) + "the Éléphant sleeps " + strings.Repeat("more text follows ", 30)
	got := Snippet(body, ParseQuery("elephant"))
	if !strings.Contains(got, "Éléphant sleeps") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("snippet %q", got)
	}
	if n := len([]rune(got)); n > snippetRunes+2 {
		t.Errorf("snippet of %d runes", n)
	}
	if got := Snippet("short body", ParseQuery("none")); got != "short body" {
		t.Errorf("short snippet %q", got)
	}
}

func TestSections(t *testing.T) {
	doc, err := document.ParseStored([]byte(`{"object":"document","data":{},"nodes":[
		{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Intro.","marks":[]}]}]},
		{"object":"block","type":"heading-2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Set up","marks":[]}]}]},
		{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Run it.","marks":[]}]}]},
		{"object":"block","type":"heading-2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Set up","marks":[]}]}]}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := Sections(Page{ID: "p", Title: "Guide", Description: "About it.", Path: "guide", Doc: doc})
	want := []struct{ title, path, body string }{
		{"Guide", "guide", "About it.\nIntro."},
		{"Set up", "guide#set-up", "Run it."},
		{"Set up", "guide#set-up-1", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d sections: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Title != w.title || got[i].PagePath != w.path || got[i].Body != w.body || got[i].Seq != i {
			t.Errorf("section %d: %+v, want %+v", i, got[i], w)
		}
	}
}
